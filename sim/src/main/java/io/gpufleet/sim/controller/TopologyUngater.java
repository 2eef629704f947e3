package io.gpufleet.sim.controller;

import io.gpufleet.model.label.Labels;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.queue.api.TopologyAssignment;
import java.util.List;

/**
 * Kueue's TopologyUngater ({@code pkg/controller/tas/topology_ungater.go}) for a Job's pods: each new
 * pod gets the node selector of the first domain of its pod set's topology assignment that still has
 * fewer of the Job's pods than its count. Upstream creates the pods with the
 * {@code kueue.x-k8s.io/topology} scheduling gate and removes it as it adds the selector; the twin adds
 * the selector as the pod is created. A pod for which no domain has room (a Job that replaced more pods
 * than were assigned) is left without one.
 */
final class TopologyUngater {

  private TopologyUngater() {}

  /** {@code pod} pinned to its domain, given the node selectors of the Job's other live pods. */
  static Pod place(Pod pod, TopologyAssignment assignment, List<Labels> siblings) {
    for (TopologyAssignment.Domain d : assignment.domains()) {
      Labels selector = selector(assignment.levels(), d);
      long taken = siblings.stream().filter(s -> s.containsAll(selector)).count();
      if (taken < d.count()) {
        return pod.withSpec(pod.spec().withNodeSelector(pod.spec().nodeSelector().withAll(selector)));
      }
    }
    return pod;
  }

  /** {@code podset.FromTopologyAssignment}-style selector: each level's label to the domain's value. */
  static Labels selector(List<String> levels, TopologyAssignment.Domain d) {
    Labels out = Labels.EMPTY;
    for (int i = 0; i < levels.size(); i++) {
      out = out.with(levels.get(i), d.values().get(i));
    }
    return out;
  }
}
