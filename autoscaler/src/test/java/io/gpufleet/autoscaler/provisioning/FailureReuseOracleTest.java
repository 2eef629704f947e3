package io.gpufleet.autoscaler.provisioning;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.AutoscalerSettings.GpuSizing;
import io.gpufleet.autoscaler.gpu.NvidiaDevicePlugin;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.testing.Fixtures;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.karpenter.NodeClaimTemplate;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A provisioning round that answers a pod from the failure of an earlier pod of the same spec (while
 * nothing was placed since) plans what the round that tries every pod plans: the same claims with the
 * same pods, the same pods on existing capacity, the same messages in the same order.
 */
class FailureReuseOracleTest {

  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void reusedFailuresPlanWhatTryingEveryPodPlans() {
    InstanceCatalog catalog = InstanceCatalog.builtIn();
    SplittableRandom random = new SplittableRandom(33);
    int reused = 0;
    for (int trial = 0; trial < 150; trial++) {
      List<NodePool> pools = new ArrayList<>();
      NodePool gpu = ProvisionerTest.onDemand(Fixtures.gpuPool("gpu", "g5", "g6"));
      if (random.nextInt(4) != 0) {
        gpu = gpu.withLimits(ResourceList.of("nvidia.com/gpu", Integer.toString(random.nextInt(0, 25))));
      }
      pools.add(gpu);
      if (random.nextBoolean()) {
        NodePool cpu = NodePool.of("general", NodeClaimTemplate.of(
            NodePoolRequirement.in("karpenter.k8s.aws/instance-family", "m5")));
        if (random.nextBoolean()) {
          cpu = cpu.withLimits(ResourceList.of("cpu", Integer.toString(random.nextInt(0, 40))));
        }
        pools.add(cpu);
      }
      // A few specs, each shared by several pods, as a Deployment's replicas share their template's.
      List<PodSpec> specs = new ArrayList<>();
      int kinds = random.nextInt(1, 6);
      for (int k = 0; k < kinds; k++) {
        Pod shape = switch (random.nextInt(4)) {
          case 0, 1 -> Fixtures.gpuPod("s", 1 << random.nextInt(0, 5), Integer.toString(random.nextInt(1, 9)),
              random.nextInt(1, 64) + "Gi");
          case 2 -> Fixtures.cpuPod("s", Integer.toString(random.nextInt(1, 33)), random.nextInt(1, 128) + "Gi");
          default -> Fixtures.gpuPod("s", 1).withSpec(Fixtures.gpuPod("s", 1).spec()
              .withNodeSelector(io.gpufleet.model.label.Labels.of("topology.kubernetes.io/zone",
              random.nextBoolean() ? "nowhere" : "us-east-1a")));
        };
        specs.add(shape.spec());
      }
      List<Pod> pods = new ArrayList<>();
      int n = random.nextInt(1, 60);
      for (int i = 0; i < n; i++) {
        Pod p = Fixtures.gpuPod("p" + i, 1);
        pods.add(p.withSpec(specs.get(random.nextInt(specs.size()))));
      }
      ProvisioningModel model = ProvisioningModel.of(pools, catalog, List.of(), NvidiaDevicePlugin.DEFAULTS,
          GpuSizing.PHYSICAL);
      ProvisioningPlan every = new ProvisioningRound(model, List.of(), List.of(), OfferingAvailability.ALL, T0,
          new NodeBases(), false).run(pods);
      ProvisioningPlan grouped = new ProvisioningRound(model, List.of(), List.of(), OfferingAvailability.ALL, T0,
          new NodeBases(), true).run(pods);
      assertThat(grouped.newClaims()).as("trial %d", trial).isEqualTo(every.newClaims());
      assertThat(List.copyOf(grouped.onExisting().entrySet())).as("trial %d", trial)
          .isEqualTo(List.copyOf(every.onExisting().entrySet()));
      assertThat(List.copyOf(grouped.errors().entrySet())).as("trial %d", trial)
          .isEqualTo(List.copyOf(every.errors().entrySet()));
      if (every.errors().size() > specs.size()) {
        reused++;
      }
    }
    // The trials must reach the reuse: more failed pods than specs means a spec failed more than once.
    assertThat(reused).isGreaterThan(30);
  }
}
