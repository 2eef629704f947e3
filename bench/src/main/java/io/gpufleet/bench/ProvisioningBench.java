package io.gpufleet.bench;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.autoscaler.Karpenter;
import io.gpufleet.autoscaler.action.Action;
import io.gpufleet.autoscaler.gpu.NvidiaDevicePlugin;
import io.gpufleet.autoscaler.provisioning.ProvisioningModel;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.karpenter.NodeClaimTemplate;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One provisioning round of Karpenter for 10,000 pending pods of mixed GPU and CPU shapes over the
 * whole built-in catalogue (46 instance types): the scheduling simulation and the launch decision of
 * every NodeClaim it plans. Sample time, so JMH reports the median (p0.50). Run:
 * {@code scripts/bench ProvisioningBench}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ProvisioningBench {

  @Param("10000")
  public int pods;

  private Karpenter karpenter;
  private ClusterView view;

  @Setup
  public void setUp() {
    InstanceCatalog catalog = InstanceCatalog.builtIn();
    NodePool gpu = NodePool.of("gpu", NodeClaimTemplate.of()).withWeight(10)
        .withTemplate(NodeClaimTemplate.of().withTaints(List.of(Taint.of("nvidia.com/gpu", "true",
            TaintEffect.NO_SCHEDULE))));
    NodePool general = NodePool.of("general", NodeClaimTemplate.of());
    List<NodePool> pools = List.of(gpu, general);
    karpenter = new Karpenter(AutoscalerSettings.DEFAULTS, ProvisioningModel.of(pools, catalog, List.of(),
        NvidiaDevicePlugin.DEFAULTS, AutoscalerSettings.DEFAULTS.sizing()));
    view = new ClusterView(Instant.parse("2026-01-05T00:00:00Z"), pools, catalog, OfferingAvailability.ALL,
        List.of(), PendingPods.generate(pods, 42), List.of(), PdbIndex.NONE);
  }

  @Benchmark
  public List<Action> provision() {
    return karpenter.provision(view, new SplittableRandom(7));
  }
}
