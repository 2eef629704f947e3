package io.gpufleet.model.advise;

import java.util.Objects;
import java.util.Optional;

/**
 * One workload that may share GPUs: {@code replicas} identical tenants, each with the footprint,
 * request cost and load given here.
 *
 * @param name      a name for reports
 * @param kind      what it is for (inference, notebook, dev, batch)
 * @param replicas  how many tenants (pods) of it run
 * @param demand    what one request costs
 * @param memoryMiB GPU memory one replica holds (weights, context, caches)
 * @param load      each replica's request rate and burstiness
 * @param slo       the p99 latency objective, if it has one
 * @param trust     whether its tenants may share a card's memory and fault domain
 * @param host      CPU and memory each replica requests from the node
 */
public record WorkloadProfile(
    String name,
    WorkloadKind kind,
    int replicas,
    RequestDemand demand,
    long memoryMiB,
    Load load,
    Optional<LatencySlo> slo,
    Trust trust,
    HostResources host) {

  /**
   * The most replicas {@code advise} takes, all workloads together: it deals every replica over
   * every candidate layout, so its work grows with their square (see docs/advise.md, "Input
   * limits", for the time measured at the limit).
   */
  public static final int MAX_REPLICAS_IN_ALL = 2_000;

  public WorkloadProfile {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(demand, "demand");
    Objects.requireNonNull(load, "load");
    Objects.requireNonNull(slo, "slo");
    Objects.requireNonNull(trust, "trust");
    Objects.requireNonNull(host, "host");
    if (replicas < 1) {
      throw new IllegalArgumentException(name + ": replicas must be at least 1, found " + replicas);
    }
    if (memoryMiB < 1) {
      throw new IllegalArgumentException(name + ": a GPU memory footprint must be positive, found " + memoryMiB + " MiB");
    }
  }

  public Boundness bound() {
    return demand.bound();
  }

  public WorkloadProfile withReplicas(int n) {
    return new WorkloadProfile(name, kind, n, demand, memoryMiB, load, slo, trust, host);
  }

  public WorkloadProfile withLoad(Load l) {
    return new WorkloadProfile(name, kind, replicas, demand, memoryMiB, l, slo, trust, host);
  }
}
