package io.gpufleet.engine.advise;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.mig.MigPlan;
import io.gpufleet.engine.mig.MigPlanner;
import io.gpufleet.model.advise.GpuNodeOffer;
import io.gpufleet.model.advise.Trust;
import io.gpufleet.model.deviceplugin.SharingMode;
import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.testing.property.Gen;
import io.gpufleet.testing.property.Property;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What holds for any inference workload the advisor is given. */
class AdvisorPropertiesTest {

  /** Fixed, so every build runs the same samples. */
  private static final long SEED = 20261206L;

  private static Advice advise(int replicas, int tokens, double rate, double slo, boolean trusted, String gpu) {
    return Scenarios.advise(List.of(Scenarios.inference(replicas, tokens, rate, slo, trusted ? Trust.TRUSTED : Trust.UNTRUSTED)), gpu);
  }

  @Test
  void migInstancesNeverExceedTheCard() {
    Property.check(SEED, 40, Gen.ints(1, 16), Gen.ints(1, 8), Gen.doubles(0.5, 40), Gen.doubles(5, 500),
        this::migInstancesNeverExceedTheCard);
  }

  private void migInstancesNeverExceedTheCard(int replicas, int tokens, double rate, double slo) {
    GpuModel gpu = Scenarios.gpu("H100");
    for (Option o : advise(replicas, tokens, rate, slo, true, "H100").ranked()) {
      if (o.mode() instanceof SharingMode.Mig m && o.gpus() > 0) {
        int perDevice = m.tenantsPerDevice();
        int devicesOnFullestGpu = (o.maxReplicasPerGpu() + perDevice - 1) / perDevice;
        var plan = MigPlanner.plan(gpu, Map.of(m.profile(), devicesOnFullestGpu));
        assertThat(plan).as("%s", o.label()).isInstanceOf(MigPlan.Placed.class);
        var profile = gpu.migProfile(m.profile()).orElseThrow();
        assertThat(devicesOnFullestGpu * profile.computeSlices()).isLessThanOrEqualTo(7);
        assertThat(devicesOnFullestGpu * profile.memorySlices()).isLessThanOrEqualTo(8);
      }
    }
  }

  @Test
  void exclusiveNeverSharesAndEveryReplicaIsPlacedOnce() {
    Property.check(SEED, 40, Gen.ints(1, 12), Gen.doubles(0.5, 40), Gen.booleans(),
        this::exclusiveNeverSharesAndEveryReplicaIsPlacedOnce);
  }

  private void exclusiveNeverSharesAndEveryReplicaIsPlacedOnce(int replicas, double rate, boolean trusted) {
    Advice a = advise(replicas, 1, rate, 100, trusted, "A100-80GB");
    for (Option o : a.ranked()) {
      if (o.gpus() == 0) {
        continue;
      }
      assertThat(o.perGpu().stream().mapToInt(List::size).sum()).as(o.label()).isEqualTo(replicas);
      if (o.mode() instanceof SharingMode.Exclusive) {
        assertThat(o.maxReplicasPerGpu()).isEqualTo(1);
        assertThat(o.gpus()).isEqualTo(replicas);
      }
    }
  }

  @Test
  void rankedInOrderAndCostedAsNodesTimesPriceTimes730() {
    Property.check(SEED, 40, Gen.ints(1, 12), Gen.doubles(0.5, 60), Gen.doubles(5, 200),
        this::rankedInOrderAndCostedAsNodesTimesPriceTimes730);
  }

  private void rankedInOrderAndCostedAsNodesTimesPriceTimes730(int replicas, double rate, double slo) {
    Advice a = advise(replicas, 1, rate, slo, true, "L40S");
    assertThat(a.ranked()).isSortedAccordingTo(Advisor.RANKING);
    for (Option o : a.ranked()) {
      o.nodes().ifPresent(n -> {
        GpuNodeOffer offer = n.offer();
        assertThat(n.monthlyCost()).isCloseTo(n.nodes() * offer.onDemandPerHour() * 730, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(n.nodes() * offer.gpus()).isGreaterThanOrEqualTo(o.gpus());
      });
    }
    a.recommended().ifPresent(r -> assertThat(r.admissible()).isTrue());
  }

  @Test
  void moreLoadNeverNeedsFewerGpus() {
    Property.check(SEED, 30, Gen.ints(2, 10), Gen.doubles(0.5, 30), this::moreLoadNeverNeedsFewerGpus);
  }

  private void moreLoadNeverNeedsFewerGpus(int replicas, double rate) {
    for (String mode : List.of("time-slicing", "MPS")) {
      int low = gpus(advise(replicas, 1, rate, 60, true, "L4"), mode);
      int high = gpus(advise(replicas, 1, rate * 1.5, 60, true, "L4"), mode);
      if (low > 0 && high > 0) {
        assertThat(high).as(mode).isGreaterThanOrEqualTo(low);
      }
    }
  }

  private static int gpus(Advice a, String prefix) {
    return a.ranked().stream().filter(o -> o.label().startsWith(prefix) && o.sloMet() && o.admissible())
        .mapToInt(Option::gpus).findFirst().orElse(0);
  }
}
