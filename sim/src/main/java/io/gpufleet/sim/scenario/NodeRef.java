package io.gpufleet.sim.scenario;

import io.gpufleet.model.label.LabelSelector;

/**
 * Names a node in a scenario, where Karpenter-made node names are not known in advance: by name, as
 * the n-th node (in name order) a selector matches, or as the node that hosts the n-th pod (in
 * creation order) of a workload.
 */
public sealed interface NodeRef {

  record Named(String name) implements NodeRef {
    @Override
    public String toString() {
      return "node " + name;
    }
  }

  record Selected(LabelSelector selector, int index) implements NodeRef {
    @Override
    public String toString() {
      return "node #" + index + " matching {" + selector + "}";
    }
  }

  /** The node of the {@code index}-th bound pod of a workload ({@code name} or {@code Kind/name}). */
  record Hosting(String workload, int index) implements NodeRef {
    @Override
    public String toString() {
      return "the node hosting pod #" + index + " of " + workload;
    }
  }

  static NodeRef named(String name) {
    return new Named(name);
  }

  static NodeRef hosting(String workload, int index) {
    return new Hosting(workload, index);
  }

  static NodeRef selected(LabelSelector selector, int index) {
    return new Selected(selector, index);
  }
}
