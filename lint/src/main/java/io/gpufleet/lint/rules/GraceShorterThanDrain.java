package io.gpufleet.lint.rules;

import io.gpufleet.lint.Finding;
import io.gpufleet.lint.LintInput;
import io.gpufleet.lint.LintRule;
import io.gpufleet.lint.PodSite;
import io.gpufleet.lint.Severity;
import io.gpufleet.manifest.yaml.GoDuration;
import io.gpufleet.model.time.KubeDuration;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A pod whose {@code terminationGracePeriodSeconds} is shorter than the drain time it declares in
 * {@value #DRAIN_ANNOTATION}: how long it needs to finish in-flight requests and unload.
 */
public final class GraceShorterThanDrain implements LintRule {

  /** gpufleet's annotation for the time a pod needs to drain; Kubernetes has no field for it. */
  public static final String DRAIN_ANNOTATION = "gpufleet.io/drain-time";

  @Override
  public String id() {
    return "grace-shorter-than-drain";
  }

  @Override
  public Severity severity() {
    return Severity.WARNING;
  }

  @Override
  public String summary() {
    return "terminationGracePeriodSeconds is shorter than the drain time the pod declares in "
        + DRAIN_ANNOTATION;
  }

  @Override
  public String why() {
    return "When a node is drained (spot interruption, consolidation, expiry) the kubelet kills the container once "
        + "the grace period ends: requests still in flight fail and the model server is cut off mid-unload.";
  }

  @Override
  public String fix() {
    return "Set terminationGracePeriodSeconds to at least the drain time (and stop accepting requests on SIGTERM); "
        + "on spot, keep the drain under EC2's two-minute notice.";
  }

  @Override
  public List<Finding> check(LintInput input) {
    List<Finding> out = new ArrayList<>();
    for (PodSite s : input.podSites()) {
      Optional<PodSite.Declared> declared = s.declared(DRAIN_ANNOTATION);
      if (declared.isEmpty()) {
        continue;
      }
      Duration drain = GoDuration.parse(declared.get().value());
      if (drain == null) {
        out.add(finding(s.owner(), declared.get().field(), "expected a duration such as 90s or 2m, found \""
            + declared.get().value() + "\""));
        continue;
      }
      long grace = s.spec().terminationGracePeriodSeconds();
      if (grace < drain.toSeconds()) {
        out.add(finding(s.owner(), s.field("terminationGracePeriodSeconds"), "grace period " + grace
            + "s is shorter than the declared drain time " + KubeDuration.format(drain)));
      }
    }
    return out;
  }
}
