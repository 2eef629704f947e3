package io.gpufleet.lint.rules;

import io.gpufleet.lint.Finding;
import io.gpufleet.lint.LintInput;
import io.gpufleet.lint.LintRule;
import io.gpufleet.lint.PodSite;
import io.gpufleet.lint.Severity;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceName;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Fractional GPU quantities: extended resources are whole units (reference §5.1). */
public final class GpuWholeUnits implements LintRule {

  @Override
  public String id() {
    return "gpu-whole-units";
  }

  @Override
  public Severity severity() {
    return Severity.ERROR;
  }

  @Override
  public String summary() {
    return "a container asks for a fraction of a GPU (0.5, 500m)";
  }

  @Override
  public String why() {
    return "The scheduler sees GPUs only as whole integers; the API server rejects a fractional quantity, so "
        + "the pod never exists. A share of a card comes from the device plugin, not from the request.";
  }

  @Override
  public String fix() {
    return "Request whole GPUs; to share a card, time-slice it, carve it with MIG (nvidia.com/mig-1g.10gb) or run "
        + "MPS, and request one of the replicas or slices that advertises.";
  }

  @Override
  public List<Finding> check(LintInput input) {
    List<Finding> out = new ArrayList<>();
    for (PodSite site : input.podSites()) {
      GpuRequestEqualsLimit.eachContainer(site, (path, c) -> {
        for (String side : List.of("requests", "limits")) {
          Map<ResourceName, Quantity> q = side.equals("requests") ? c.requests().quantities()
              : c.limits().quantities();
          for (var e : q.entrySet()) {
            String field = path + ".resources." + side + "[" + e.getKey() + "]";
            // A request the API server copied from the limit (SetDefaults_Pod) is the limit's finding.
            if (e.getKey().isNvidiaGpuLike() && !e.getValue().isInteger()
                && (side.equals("limits") || site.owner().written(field))) {
              out.add(finding(site.owner(), field,
                  "container \"" + c.name() + "\" " + side + " " + e.getValue() + " of " + e.getKey()));
            }
          }
        }
      });
    }
    return out;
  }
}
