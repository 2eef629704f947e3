package io.gpufleet.lint.rules;

import io.gpufleet.lint.Finding;
import io.gpufleet.lint.LintInput;
import io.gpufleet.lint.LintRule;
import io.gpufleet.lint.PodSite;
import io.gpufleet.lint.Severity;
import java.util.ArrayList;
import java.util.List;

/** A GPU service whose pods no PodDisruptionBudget covers. */
public final class ServiceWithoutPdb implements LintRule {

  @Override
  public String id() {
    return "service-without-pdb";
  }

  @Override
  public Severity severity() {
    return Severity.WARNING;
  }

  @Override
  public String summary() {
    return "a GPU Deployment, StatefulSet or ReplicaSet has no PodDisruptionBudget selecting its pods";
  }

  @Override
  public String why() {
    return "Karpenter drains nodes for consolidation, drift, expiry and spot interruptions through the eviction "
        + "API; without a PDB it may evict every replica of the service at once.";
  }

  @Override
  public String fix() {
    return "Add a PodDisruptionBudget in the same namespace whose selector matches the pod template's labels, "
        + "e.g. maxUnavailable: 1.";
  }

  @Override
  public List<Finding> check(LintInput input) {
    List<Finding> out = new ArrayList<>();
    for (PodSite s : input.gpuPodSites()) {
      if (s.kind() == PodSite.Kind.SERVICE && s.replicas() > 0 && input.pdbsCovering(s).isEmpty()) {
        out.add(finding(s.owner(), "metadata.name", "no PodDisruptionBudget in namespace " + s.namespace()
            + " selects its pods " + s.labels()));
      }
    }
    return out;
  }
}
