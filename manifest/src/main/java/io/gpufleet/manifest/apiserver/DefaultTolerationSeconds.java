package io.gpufleet.manifest.apiserver;

import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import java.util.List;
import java.util.Optional;

/**
 * The DefaultTolerationSeconds admission plugin: a pod that does not tolerate the
 * {@code node.kubernetes.io/not-ready} or {@code node.kubernetes.io/unreachable} NoExecute taint gets
 * an Exists toleration for it with {@code tolerationSeconds: 300}, so it is evicted five minutes after
 * its node fails rather than at once. kubernetes/kubernetes
 * plugin/pkg/admission/defaulttolerationseconds/admission.go, {@code Admit}; 300 is the default of
 * kube-apiserver's {@code --default-not-ready-toleration-seconds} and
 * {@code --default-unreachable-toleration-seconds}. A toleration with the key (or no key) and the
 * NoExecute effect (or no effect) counts as present.
 */
final class DefaultTolerationSeconds {
  private DefaultTolerationSeconds() {}

  static final String NOT_READY = "node.kubernetes.io/not-ready";
  static final String UNREACHABLE = "node.kubernetes.io/unreachable";
  static final long SECONDS = 300;

  static PodSpec apply(PodSpec spec) {
    List<Toleration> tolerations = spec.tolerations();
    boolean notReady = false;
    boolean unreachable = false;
    for (Toleration t : tolerations) {
      boolean noExecute = t.effect().isEmpty() || t.effect().equals(Optional.of(TaintEffect.NO_EXECUTE));
      notReady |= noExecute && (t.key().isEmpty() || t.key().equals(NOT_READY));
      unreachable |= noExecute && (t.key().isEmpty() || t.key().equals(UNREACHABLE));
    }
    if (!notReady) {
      tolerations = TolerationEdits.addOrUpdate(tolerations,
          Toleration.exists(NOT_READY, TaintEffect.NO_EXECUTE).withSeconds(SECONDS));
    }
    if (!unreachable) {
      tolerations = TolerationEdits.addOrUpdate(tolerations,
          Toleration.exists(UNREACHABLE, TaintEffect.NO_EXECUTE).withSeconds(SECONDS));
    }
    return tolerations == spec.tolerations() ? spec : spec.withTolerations(tolerations);
  }
}
