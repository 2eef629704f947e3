package io.gpufleet.engine.advise;

import io.gpufleet.engine.perf.Calibration;
import io.gpufleet.model.advise.Burstiness;
import io.gpufleet.model.advise.HostResources;
import io.gpufleet.model.advise.LatencySlo;
import io.gpufleet.model.advise.Load;
import io.gpufleet.model.advise.RequestDemand;
import io.gpufleet.model.advise.Trust;
import io.gpufleet.model.advise.WorkloadKind;
import io.gpufleet.model.advise.WorkloadProfile;
import io.gpufleet.model.advise.GpuNodeOffers;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuModel;
import java.util.List;
import java.util.Optional;

/** The three workloads of the issue, as the examples under examples/advise/ describe them. */
final class Scenarios {
  private Scenarios() {}

  static final GpuCatalog CATALOG = GpuCatalog.builtIn();
  static final Advisor ADVISOR = new Advisor(Calibration.H200_2026_11_30, CATALOG, GpuNodeOffers.aws(), AdvicePolicy.DEFAULT);

  static GpuModel gpu(String id) {
    return CATALOG.find(id).orElseThrow();
  }

  /** Four replicas of a 1.5B-parameter model, one decode step per request, 5 req/s each, p99 50 ms. */
  static WorkloadProfile inference(int replicas, int tokens, double rate, double sloMs, Trust trust) {
    var weights = new RequestDemand.ModelWeights(1.5e9, 2, tokens);
    return new WorkloadProfile("chat-1.5b", WorkloadKind.INFERENCE, replicas, weights, weights.defaultFootprintMiB(),
        new Load(rate, Burstiness.POISSON), Optional.of(new LatencySlo(sloMs)), trust, HostResources.NONE);
  }

  /** Twelve notebook users: a cell is 250 ms of memory-bound work on an L4, one every 30 s, bursty. */
  static WorkloadProfile notebooks() {
    return new WorkloadProfile("notebook", WorkloadKind.NOTEBOOK, 12,
        new RequestDemand.MeasuredAlone("L4", 250, io.gpufleet.model.advise.Boundness.MEMORY), 2048,
        new Load(1.0 / 30, Burstiness.BURSTY), Optional.empty(), Trust.TRUSTED, new HostResources(1000, 4096));
  }

  static Advice advise(List<WorkloadProfile> w, String gpu) {
    return ADVISOR.advise(w, gpu(gpu), List.of());
  }
}
