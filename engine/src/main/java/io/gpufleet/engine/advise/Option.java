package io.gpufleet.engine.advise;

import io.gpufleet.engine.perf.MemoryFit;
import io.gpufleet.model.deviceplugin.SharingMode;
import java.util.List;
import java.util.Optional;

/**
 * One way to run the workloads: a sharing mode packed onto {@code gpus} GPUs, the nodes that buys,
 * what each workload gets, and what stands against it.
 *
 * @param mode          how each device is used ({@code time-slicing x4}: up to four replicas per GPU)
 * @param gpus          physical GPUs needed
 * @param perGpu        the replicas on each GPU, in order
 * @param nodes         the cheapest node plan; empty when no node type holds the replicas
 * @param outcomes      per workload: p50, p99 against its objective
 * @param utilisation   share of the capacity of every GPU on the nodes bought that the requests use
 *                      (see {@link CapacityUse})
 * @param headroom      how many times the stated rates the option still serves within every SLO
 *                      (or, without SLOs, before the GPUs saturate); 0 when not even at the stated
 *                      rates; the policy's cap when the search stopped there
 * @param risks         what this mode gives up here
 * @param blockers      why this option cannot be chosen; empty when it can
 * @param shortfalls    tenants that would run out of GPU memory
 * @param fewerGpus     why each smaller packing of this mode fails, fewest GPUs first
 */
public record Option(
    SharingMode mode,
    int gpus,
    List<List<Replica>> perGpu,
    Optional<NodePlan> nodes,
    List<WorkloadOutcome> outcomes,
    double utilisation,
    double headroom,
    List<Risk> risks,
    List<String> blockers,
    List<MemoryFit.Shortfall> shortfalls,
    List<String> fewerGpus) {

  public Option {
    perGpu = perGpu.stream().map(List::copyOf).toList();
    outcomes = List.copyOf(outcomes);
    risks = List.copyOf(risks);
    blockers = List.copyOf(blockers);
    shortfalls = List.copyOf(shortfalls);
    fewerGpus = List.copyOf(fewerGpus);
  }

  /** The mode's label; plain {@code MIG} for the placeholder of a GPU without it. */
  public String label() {
    return gpus == 0 && mode instanceof SharingMode.Mig ? "MIG" : mode.label();
  }

  public boolean admissible() {
    return blockers.isEmpty();
  }

  public boolean sloMet() {
    return outcomes.stream().allMatch(WorkloadOutcome::sloMet);
  }

  public boolean stable() {
    return outcomes.stream().allMatch(WorkloadOutcome::stable);
  }

  public double monthlyCost() {
    return nodes.map(NodePlan::monthlyCost).orElse(Double.POSITIVE_INFINITY);
  }

  public double worstP99Ms() {
    return outcomes.stream().mapToDouble(WorkloadOutcome::p99Ms).max().orElse(0);
  }

  public int maxReplicasPerGpu() {
    return perGpu.stream().mapToInt(List::size).max().orElse(0);
  }
}
