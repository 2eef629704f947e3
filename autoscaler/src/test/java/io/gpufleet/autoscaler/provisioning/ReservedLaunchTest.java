package io.gpufleet.autoscaler.provisioning;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.AutoscalerSettings.GpuSizing;
import io.gpufleet.autoscaler.gpu.NvidiaDevicePlugin;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.model.cloud.CapacityReservation;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.karpenter.EC2NodeClass;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodeClaimTemplate;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A reservation's offering is launched before spot and on-demand, labels its claim, and one round
 * launches no more into it than it takes; a launch without it falls back to what the NodePool allows
 * (the provisioner leaves such a claim to a later round, {@code Karpenter.provision}).
 */
class ReservedLaunchTest {

  static final Instant NOW = Instant.parse("2026-01-05T12:00:00Z");
  static final CapacityReservation ODCR = new CapacityReservation("cr-0aaa", "m5.large", "us-east-1b",
      "111122223333", CapacityReservation.MatchCriteria.OPEN, Map.of(), CapacityReservation.Type.DEFAULT, 1,
      Optional.empty(), Optional.empty(), OptionalDouble.empty());

  static Pod pod(String name) {
    ResourceList r = ResourceList.of("cpu", "1500m");
    return new Pod(new ObjectMeta(name, "default", Labels.EMPTY, Labels.EMPTY, Optional.empty()),
        PodSpec.of(Container.of("main", "app", r, ResourceList.EMPTY)));
  }

  static List<PlannedClaim> plan(int available, String... capacityTypes) {
    NodePool pool = NodePool.of("p", NodeClaimTemplate.of(
        NodePoolRequirement.in("node.kubernetes.io/instance-type", "m5.large"),
        NodePoolRequirement.in(KarpenterLabels.CAPACITY_TYPE, capacityTypes)));
    EC2NodeClass nc = EC2NodeClass.defaults("default").withCapacityReservations(List.of(
        new EC2NodeClass.ReservationStatus(ODCR, CapacityReservation.State.ACTIVE, available)));
    ProvisioningModel model = ProvisioningModel.of(List.of(pool), InstanceCatalog.builtIn(), List.of(),
        NvidiaDevicePlugin.DEFAULTS, GpuSizing.PHYSICAL, NodeOverlays.NONE, Map.of("default", nc));
    return new Provisioner(model).solve(List.of(pod("a"), pod("b")), List.of(), List.of(), OfferingAvailability.ALL,
        NOW).newClaims();
  }

  @Test
  void theReservationIsTakenFirstThenTheNextLaunchFallsBackToSpot() {
    List<PlannedClaim> claims = plan(1, "reserved", "spot", "on-demand");
    assertThat(claims).hasSize(2);
    OfferingAvailability offerings = OfferingAvailability.ALL;
    NodeClaim first = Launcher.launch(claims.get(0), offerings, NOW, new SplittableRandom(1)).orElseThrow();
    assertThat(first.offering().capacityType()).isEqualTo(CapacityType.RESERVED);
    assertThat(first.offering().zone()).isEqualTo("us-east-1b");
    assertThat(first.labels().get(KarpenterLabels.CAPACITY_TYPE)).contains("reserved");
    assertThat(first.labels().get(CapacityReservation.ID_LABEL)).contains("cr-0aaa");
    assertThat(first.labels().get(CapacityReservation.TYPE_LABEL)).contains("default");
    assertThat(Launcher.reservedAvailable(claims.get(1), offerings, NOW)).isTrue();
    offerings = offerings.withReservationTaken("cr-0aaa");
    assertThat(Launcher.reservedAvailable(claims.get(1), offerings, NOW)).isFalse();
    NodeClaim second = Launcher.launch(claims.get(1), offerings, NOW, new SplittableRandom(2)).orElseThrow();
    assertThat(second.offering().capacityType()).isEqualTo(CapacityType.SPOT);
    assertThat(second.labels().get(CapacityReservation.ID_LABEL)).isEmpty();
  }

  @Test
  void aReservedOnlyPoolLaunchesNothingOnceTheReservationIsFull() {
    List<PlannedClaim> claims = plan(1, "reserved");
    assertThat(Launcher.launch(claims.get(0), OfferingAvailability.ALL.withReservationTaken("cr-0aaa"), NOW,
        new SplittableRandom(1))).isEmpty();
    assertThat(plan(0, "reserved")).as("a full reservation's offering is unavailable: no claim is planned").isEmpty();
  }
}
