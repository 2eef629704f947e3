package io.gpufleet.lint.rules;

import io.gpufleet.lint.Finding;
import io.gpufleet.lint.LintInput;
import io.gpufleet.lint.LintRule;
import io.gpufleet.lint.PodSite;
import io.gpufleet.lint.Severity;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceName;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;

/** GPU requests without a limit, or different from it: the API server rejects the pod (reference §5.1). */
public final class GpuRequestEqualsLimit implements LintRule {

  @Override
  public String id() {
    return "gpu-request-equals-limit";
  }

  @Override
  public Severity severity() {
    return Severity.ERROR;
  }

  @Override
  public String summary() {
    return "a container requests a GPU resource without a limit, or with a different limit";
  }

  @Override
  public String why() {
    return "nvidia.com/gpu is an extended resource: it is never overcommitted, so the API server accepts it only "
        + "in limits, or in requests equal to limits; any other pod is rejected and never scheduled.";
  }

  @Override
  public String fix() {
    return "Write the GPU count in resources.limits (requests then default to it), or make requests equal limits.";
  }

  @Override
  public List<Finding> check(LintInput input) {
    List<Finding> out = new ArrayList<>();
    for (PodSite site : input.podSites()) {
      eachContainer(site, (path, c) -> {
        for (var e : c.requests().quantities().entrySet()) {
          ResourceName r = e.getKey();
          if (!r.isNvidiaGpuLike()) {
            continue;
          }
          Optional<Quantity> limit = c.limits().get(r);
          String field = path + ".resources.requests[" + r + "]";
          if (limit.isEmpty()) {
            // The fix goes where the limit is missing, the field the API server names too.
            out.add(finding(site.owner(), path + ".resources.limits[" + r + "]", "container \"" + c.name() + "\" requests " + r + ": " + e.getValue()
                + " with no limit"));
          } else if (limit.get().compareTo(e.getValue()) != 0) {
            out.add(finding(site.owner(), field, "container \"" + c.name() + "\" requests " + r + ": " + e.getValue()
                + " but limits it to " + limit.get()));
          }
        }
      });
    }
    return out;
  }

  /** Calls {@code each} with every container and init container and its field path. */
  static void eachContainer(PodSite site, BiConsumer<String, Container> each) {
    List<Container> containers = site.spec().containers();
    for (int i = 0; i < containers.size(); i++) {
      each.accept(site.field("containers[" + i + "]"), containers.get(i));
    }
    List<Container> inits = site.spec().initContainers();
    for (int i = 0; i < inits.size(); i++) {
      each.accept(site.field("initContainers[" + i + "]"), inits.get(i));
    }
  }
}
