package io.gpufleet.engine.advise;

import io.gpufleet.model.advise.GpuNodeOffer;
import io.gpufleet.model.advise.HostResources;
import java.util.List;
import java.util.Optional;

/**
 * The cheapest way to buy {@code gpus} GPUs of one model when device {@code i} hosts the replicas
 * in {@code groups[i]}: for each node type, enough nodes for the GPUs, provided every node's
 * allocatable CPU and memory hold the replicas on its GPUs, with at least {@code minNodes} nodes
 * (two, to keep replicas apart). Ties go to fewer nodes, then the name.
 */
public final class NodeChoice {
  private NodeChoice() {}

  public static Optional<NodePlan> cheapest(List<GpuNodeOffer> offers, int gpus, List<List<Replica>> perGpu,
      int minNodes) {
    NodePlan best = null;
    for (GpuNodeOffer o : offers) {
      int nodes = (gpus + o.gpus() - 1) / o.gpus();
      if (nodes < minNodes || !hostsFit(o, perGpu)) {
        continue;
      }
      NodePlan p = new NodePlan(o, nodes);
      if (best == null || better(p, best)) {
        best = p;
      }
    }
    return Optional.ofNullable(best);
  }

  private static boolean better(NodePlan a, NodePlan b) {
    int c = Double.compare(a.monthlyCost(), b.monthlyCost());
    if (c != 0) {
      return c < 0;
    }
    if (a.nodes() != b.nodes()) {
      return a.nodes() < b.nodes();
    }
    return a.instanceType().compareTo(b.instanceType()) < 0;
  }

  /** Fills nodes GPU by GPU in order; every node must hold its replicas' CPU and memory requests. */
  private static boolean hostsFit(GpuNodeOffer o, List<List<Replica>> perGpu) {
    for (int start = 0; start < perGpu.size(); start += o.gpus()) {
      long cpu = 0;
      long mem = 0;
      for (int g = start; g < Math.min(perGpu.size(), start + o.gpus()); g++) {
        for (Replica r : perGpu.get(g)) {
          HostResources h = r.profile().host();
          cpu += h.cpuMillis();
          mem += h.memoryMiB();
        }
      }
      if (cpu > o.allocatableMillis() || mem > o.allocatableMiB()) {
        return false;
      }
    }
    return true;
  }
}
