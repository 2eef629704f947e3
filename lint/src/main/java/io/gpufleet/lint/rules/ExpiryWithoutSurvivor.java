package io.gpufleet.lint.rules;

import io.gpufleet.lint.Finding;
import io.gpufleet.lint.GpuTarget;
import io.gpufleet.lint.LintInput;
import io.gpufleet.lint.LintRule;
import io.gpufleet.lint.Located;
import io.gpufleet.lint.PodSite;
import io.gpufleet.lint.Severity;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.time.KubeDuration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * A NodePool whose nodes expire ({@code expireAfter}, 720h unless set to Never) while a GPU
 * service on them has nothing to survive the expiry: a single replica, or no PodDisruptionBudget.
 * Not for a service whose pods Karpenter may not evict (do-not-disrupt, a PDB that allows no
 * eviction) on a NodePool without terminationGracePeriod: the expired node's drain then waits for
 * them indefinitely (reference §1.8), so the service does not go dark.
 */
public final class ExpiryWithoutSurvivor implements LintRule {

  @Override
  public String id() {
    return "expiry-without-survivor";
  }

  @Override
  public Severity severity() {
    return Severity.WARNING;
  }

  @Override
  public String summary() {
    return "a NodePool's nodes expire (expireAfter, default 720h) under a GPU service with one replica or no PDB";
  }

  @Override
  public String why() {
    return "At expireAfter Karpenter deletes the node directly, outside disruption budgets and without launching a "
        + "replacement first; a service with one replica, or without a PDB to pace the drain, goes dark until its "
        + "pods are rescheduled and the model has loaded again - on a schedule nobody chose, at 3 a.m.";
  }

  @Override
  public String fix() {
    return "Run at least two replicas with a PodDisruptionBudget (maxUnavailable: 1), or set expireAfter "
        + "deliberately (Never, with another plan for driver and AMI updates).";
  }

  @Override
  public List<Finding> check(LintInput input) {
    PerObject<Located<NodePool>, TreeSet<String>> exposed = new PerObject<>();
    for (PodSite s : input.gpuPodSites()) {
      if (s.kind() != PodSite.Kind.SERVICE || s.replicas() == 0) {
        continue;
      }
      String weakness = s.replicas() == 1 ? "1 replica" : input.pdbsCovering(s).isEmpty() ? "no PDB" : null;
      if (weakness == null) {
        continue;
      }
      String service = s.owner().ref() + " (" + weakness + ")";
      boolean held = Disruptions.evictionForbidden(input, s).isPresent();
      for (GpuTarget t : input.targetsAdmitting(s)) {
        if (t.pool().isPresent() && t.pool().get().value().template().expireAfter().isPresent()
            && !(held && t.pool().get().value().template().terminationGracePeriod().isEmpty())) {
          exposed.of(t.pool().get(), TreeSet::new).add(service);
        }
      }
    }
    List<Finding> out = new ArrayList<>();
    exposed.forEach((pool, services) -> {
      out.add(finding(pool, "spec.template.spec.expireAfter", "nodes expire after "
          + KubeDuration.format(pool.value().template().expireAfter().orElseThrow()) + " under "
          + Offerings.names(List.copyOf(services))));
    });
    return out;
  }
}
