package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.autoscaler.requirement.Requirements;
import io.gpufleet.autoscaler.requirement.ValueSet;
import io.gpufleet.model.affinity.NodeSelectorTerm;
import io.gpufleet.model.affinity.PreferredSchedulingTerm;
import io.gpufleet.model.cloud.InstanceLabels;
import io.gpufleet.model.label.Requirement;
import io.gpufleet.model.pod.PodSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A pod's node requirements as Karpenter reads them: its {@code nodeSelector} as {@code In}, and
 * its required node affinity. Karpenter plans with one affinity term at a time and, under the
 * default {@code PREFERENCE_POLICY=Respect}, first treats preferred terms as required, relaxing them
 * when nothing fits (reference §1.4). The variants come strictest first; planning tries them in turn.
 */
final class PodRequirements {
  private PodRequirements() {}

  static List<Requirements> of(PodSpec spec) {
    Requirements base = Requirements.NONE;
    for (var e : spec.nodeSelector().map().entrySet()) {
      base = base.with(InstanceLabels.normalise(e.getKey()), ValueSet.in(e.getValue()));
    }
    List<Requirements> required = new ArrayList<>();
    var selector = spec.nodeAffinity().required();
    if (selector.isPresent() && !selector.get().terms().isEmpty()) {
      for (NodeSelectorTerm t : selector.get().terms()) {
        if (!t.matchExpressions().isEmpty()) {
          required.add(base.and(Requirements.ofSelector(t.matchExpressions())));
        } else {
          required.add(base);
        }
      }
    } else {
      required.add(base);
    }
    List<PreferredSchedulingTerm> preferred = new ArrayList<>(spec.nodeAffinity().preferred());
    if (preferred.isEmpty()) {
      return required;
    }
    preferred.sort(Comparator.comparingInt(PreferredSchedulingTerm::weight).reversed());
    List<Requirement> all = new ArrayList<>();
    for (PreferredSchedulingTerm p : preferred) {
      all.addAll(p.preference().matchExpressions());
    }
    List<Requirements> out = new ArrayList<>();
    for (Requirements r : required) {
      out.add(r.and(Requirements.ofSelector(all)));
      out.add(r);
    }
    return out;
  }
}
