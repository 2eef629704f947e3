package io.gpufleet.manifest.apiserver;

import io.gpufleet.model.label.Labels;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.pod.RuntimeClass;
import java.util.Map;
import java.util.Optional;

/**
 * The RuntimeClass admission plugin, kubernetes/kubernetes plugin/pkg/admission/runtimeclass/admission.go:
 * a pod naming a RuntimeClass that does not exist is refused ({@code prepareObjects}); the class's
 * {@code overhead.podFixed} becomes the pod's {@code spec.overhead}, refused when the pod wrote a
 * different one ({@code setOverhead}, {@code validateOverhead}); its {@code scheduling.nodeSelector} is
 * merged into the pod's, refused on a conflicting value, and its tolerations merged with the pod's
 * ({@code setScheduling}). A pod naming no class but writing an overhead is refused too
 * ({@code validateOverhead}).
 */
final class RuntimeClassAdmission {
  private RuntimeClassAdmission() {}

  /** The admitted spec, or the reason the API server gives for refusing it (after "is forbidden: "). */
  sealed interface Result {
    record Admitted(PodSpec spec) implements Result {}

    record Refused(String reason) implements Result {}
  }

  static Result apply(PodSpec spec, Map<String, RuntimeClass> classes) {
    if (spec.runtimeClassName().isEmpty()) {
      return spec.overhead().isEmpty() ? new Result.Admitted(spec)
          : new Result.Refused("pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead");
    }
    String name = spec.runtimeClassName().get();
    RuntimeClass rc = classes.get(name);
    if (rc == null) {
      return new Result.Refused("pod rejected: RuntimeClass \"" + name + "\" not found");
    }
    PodSpec out = spec;
    if (rc.overhead().isPresent()) {
      // The twin cannot tell a written empty overhead from none: an empty one is taken as not written.
      if (!spec.overhead().isEmpty() && !spec.overhead().equals(rc.overhead().get())) {
        return new Result.Refused("pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");
      }
      out = out.withOverhead(rc.overhead().get());
    } else if (!spec.overhead().isEmpty()) {
      return new Result.Refused("pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead");
    }
    Labels selector = out.nodeSelector();
    for (var e : rc.nodeSelector().map().entrySet()) {
      Optional<String> podValue = selector.get(e.getKey());
      if (podValue.isPresent() && !podValue.get().equals(e.getValue())) {
        return new Result.Refused("conflict: runtimeClass.scheduling.nodeSelector[" + e.getKey() + "] = "
            + e.getValue() + "; pod.spec.nodeSelector[" + e.getKey() + "] = " + podValue.get());
      }
      selector = selector.with(e.getKey(), e.getValue());
    }
    out = out.withNodeSelector(selector);
    if (!rc.tolerations().isEmpty()) {
      out = out.withTolerations(TolerationEdits.merge(out.tolerations(), rc.tolerations()));
    }
    return new Result.Admitted(out);
  }
}
