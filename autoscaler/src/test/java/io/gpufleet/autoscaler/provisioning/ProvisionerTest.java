package io.gpufleet.autoscaler.provisioning;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.AutoscalerSettings.GpuSizing;
import io.gpufleet.autoscaler.gpu.NvidiaDevicePlugin;
import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.testing.Fixtures;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.workload.PodTemplate;
import io.gpufleet.model.workload.Workload;
import io.gpufleet.model.label.LabelSelector;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ProvisionerTest {

  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  final InstanceCatalog catalog = InstanceCatalog.builtIn();

  Provisioner provisioner(List<NodePool> pools, List<Workload.DaemonSet> daemons, GpuSizing sizing,
      io.gpufleet.autoscaler.gpu.GpuAdvertiser advertiser) {
    return new Provisioner(ProvisioningModel.of(pools, catalog, daemons, advertiser, sizing));
  }

  Provisioner provisioner(NodePool... pools) {
    return provisioner(List.of(pools), List.of(), GpuSizing.PHYSICAL, NvidiaDevicePlugin.DEFAULTS);
  }

  static NodePool onDemand(NodePool p) {
    List<NodePoolRequirement> r = new ArrayList<>(p.template().requirements());
    r.add(NodePoolRequirement.in("karpenter.sh/capacity-type", "on-demand"));
    return p.withTemplate(p.template().withRequirements(r));
  }

  @Test
  void oneGpuPodGetsTheCheapestFittingType() {
    NodePool pool = onDemand(Fixtures.gpuPool("gpu", "g5", "g6"));
    ProvisioningPlan plan = provisioner(pool).solve(List.of(Fixtures.gpuPod("p", 1)), List.of(), List.of(),
        OfferingAvailability.ALL, T0);
    assertThat(plan.errors()).isEmpty();
    assertThat(plan.newClaims()).hasSize(1);
    assertThat(plan.newClaims().getFirst().instanceTypes().getFirst().name()).isEqualTo("g6.xlarge");
    NodeClaim claim = Launcher.launch(plan.newClaims().getFirst(), OfferingAvailability.ALL, T0,
        new SplittableRandom(1)).orElseThrow();
    assertThat(claim.instanceType().name()).isEqualTo("g6.xlarge");
    assertThat(claim.offering().capacityType()).isEqualTo(CapacityType.ON_DEMAND);
    assertThat(claim.offering().pricePerHour()).isEqualTo(0.8048);
    assertThat(claim.labels().get("karpenter.sh/nodepool")).contains("gpu");
    assertThat(claim.requests().getOrZero(ResourceName.NVIDIA_GPU)).isEqualTo(Quantity.of(1));
  }

  @Test
  void aGpuPodAskingForEphemeralStorageGetsTheCheapestGpuType() {
    // Every type leaves 17Gi of the default 20Gi root volume, so 10Gi rules nothing out.
    NodePool pool = onDemand(Fixtures.gpuPool("gpu", "g4dn", "g5", "g6", "g6e"));
    Pod base = Fixtures.gpuPod("p", 1);
    Pod pod = base.withSpec(PodSpec.of(Container.of("main", "vllm:latest",
        ResourceList.of("cpu", "1", "memory", "4Gi", "ephemeral-storage", "10Gi", "nvidia.com/gpu", "1"),
        ResourceList.of("nvidia.com/gpu", "1"))).withTolerations(base.spec().tolerations()));
    ProvisioningPlan plan = provisioner(pool).solve(List.of(pod), List.of(), List.of(), OfferingAvailability.ALL, T0);
    assertThat(plan.errors()).isEmpty();
    String cheapestGpuType = catalog.types().stream().filter(t -> t.gpuCount() > 0)
        .filter(t -> List.of("g4dn", "g5", "g6", "g6e").contains(t.family()))
        .min(java.util.Comparator.comparingDouble(t -> t.onDemandPrice())).orElseThrow().name();
    assertThat(plan.newClaims().getFirst().instanceTypes().getFirst().name()).isEqualTo(cheapestGpuType)
        .isEqualTo("g4dn.xlarge");
    Pod tooMuch = base.withSpec(PodSpec.of(Container.of("main", "vllm:latest",
        ResourceList.of("cpu", "1", "ephemeral-storage", "18Gi", "nvidia.com/gpu", "1"),
        ResourceList.of("nvidia.com/gpu", "1"))).withTolerations(base.spec().tolerations()));
    assertThat(provisioner(pool).solve(List.of(tooMuch), List.of(), List.of(), OfferingAvailability.ALL, T0)
        .newClaims()).isEmpty();
  }

  @Test
  void spotIsPreferredWhenAllowed() {
    NodePool pool = Fixtures.gpuPool("gpu", "g5", "g6");
    ProvisioningPlan plan = provisioner(pool).solve(List.of(Fixtures.gpuPod("p", 1)), List.of(), List.of(),
        OfferingAvailability.ALL, T0);
    NodeClaim claim = Launcher.launch(plan.newClaims().getFirst(), OfferingAvailability.ALL, T0,
        new SplittableRandom(1)).orElseThrow();
    assertThat(claim.offering().capacityType()).isEqualTo(CapacityType.SPOT);
    assertThat(claim.instanceType().name()).isEqualTo("g6.xlarge");
  }

  @Test
  void gpuLimitStopsAtEightGpusWithKarpentersMessage() {
    NodePool pool = onDemand(Fixtures.gpuPool("gpu", "g5", "g6"))
        .withLimits(ResourceList.of("nvidia.com/gpu", "8"));
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      pods.add(Fixtures.gpuPod("p" + i, 1));
    }
    ProvisioningPlan plan = provisioner(pool).solve(pods, List.of(), List.of(), OfferingAvailability.ALL, T0);
    assertThat(plan.newClaims()).hasSize(1);
    PlannedClaim claim = plan.newClaims().getFirst();
    assertThat(claim.pods()).hasSize(8);
    assertThat(claim.instanceTypes()).allMatch(t -> t.gpuCount() == 8);
    assertThat(plan.errors()).hasSize(4);
    assertThat(plan.errors().values()).allMatch(m -> m.equals(
        "Failed to schedule pod, all available instance types exceed limits for nodepool (NodePool=gpu)"));
  }

  @Test
  void explainsWhyNoNodePoolFitsInKarpentersWords() {
    NodePool gpu = onDemand(Fixtures.gpuPool("gpu", "g5"));
    NodePool cpu = NodePool.of("general", io.gpufleet.model.karpenter.NodeClaimTemplate.of(
        NodePoolRequirement.in("karpenter.k8s.aws/instance-family", "m5")));
    Pod huge = Fixtures.gpuPod("huge", 16);
    ProvisioningPlan plan = provisioner(gpu, cpu).solve(List.of(huge), List.of(), List.of(), OfferingAvailability.ALL,
        T0);
    assertThat(plan.errors().get("default/huge")).isEqualTo("Failed to schedule pod, "
        + "incompatible with nodepool \"gpu\", daemonset overhead={}, no instance type has enough resources, "
        + "requirements=karpenter.k8s.aws/instance-family In [g5], karpenter.sh/capacity-type In [on-demand], "
        + "karpenter.sh/nodepool In [gpu], resources={\"cpu\":\"1\",\"memory\":\"4Gi\",\"nvidia.com/gpu\":\"16\","
        + "\"pods\":\"1\"}; "
        + "incompatible with nodepool \"general\", daemonset overhead={}, no instance type has enough resources, "
        + "requirements=karpenter.k8s.aws/instance-family In [m5], karpenter.sh/nodepool In [general], "
        + "resources={\"cpu\":\"1\",\"memory\":\"4Gi\",\"nvidia.com/gpu\":\"16\",\"pods\":\"1\"}");
    Pod untolerating = Fixtures.cpuPod("web", "1", "1Gi").withSpec(PodSpec.of(Container.of("c", "i",
        ResourceList.of("cpu", "1"), ResourceList.EMPTY)).withNodeSelector(Labels.of("team", "ml")));
    plan = provisioner(gpu).solve(List.of(untolerating), List.of(), List.of(), OfferingAvailability.ALL, T0);
    assertThat(plan.errors().values()).containsExactly(
        "Failed to schedule pod, did not tolerate taint (taint=nvidia.com/gpu=true:NoSchedule)");
    plan = provisioner(cpu).solve(List.of(untolerating), List.of(), List.of(), OfferingAvailability.ALL, T0);
    assertThat(plan.errors().values()).containsExactly(
        "Failed to schedule pod, incompatible requirements, label \"team\" does not have known values");
  }

  @Test
  void daemonSetOverheadIsCountedOnNewNodes() {
    NodePool cpu = NodePool.of("general", io.gpufleet.model.karpenter.NodeClaimTemplate.of(
        NodePoolRequirement.in("node.kubernetes.io/instance-type", "m5.large", "m5.xlarge"),
        NodePoolRequirement.in("karpenter.sh/capacity-type", "on-demand")));
    Workload.DaemonSet ds = new Workload.DaemonSet(ObjectMeta.named("logs"), LabelSelector.EVERYTHING,
        new PodTemplate(Labels.EMPTY, Labels.EMPTY, PodSpec.of(Container.of("c", "fluent",
            ResourceList.of("cpu", "500m", "memory", "512Mi"), ResourceList.EMPTY))));
    // 1600m fits m5.large's 1930m alone but not with the 500m daemon.
    Pod pod = Fixtures.cpuPod("app", "1600m", "1Gi");
    ProvisioningPlan plan = provisioner(List.of(cpu), List.of(ds), GpuSizing.PHYSICAL, NvidiaDevicePlugin.DEFAULTS)
        .solve(List.of(pod), List.of(), List.of(ds), OfferingAvailability.ALL, T0);
    assertThat(plan.newClaims().getFirst().instanceTypes()).extracting(t -> t.name()).containsExactly("m5.xlarge");
  }

  @Test
  void timeSlicedPoolsAreSizedByReplicasOnlyWhenAsked() {
    var slicing = new NvidiaDevicePlugin(io.gpufleet.engine.deviceplugin.GpuOperator.DEFAULTS.withConfigs(
        io.gpufleet.model.deviceplugin.NamedConfigs.of(
            Map.of("ts4", DevicePluginConfig.timeSliced(4, false), "none", DevicePluginConfig.DEFAULT),
            Optional.of("none"))));
    NodePool pool = onDemand(Fixtures.gpuPool("gpu", "g6"));
    pool = pool.withTemplate(pool.template().withLabels(Labels.of("nvidia.com/device-plugin.config", "ts4")));
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      pods.add(Fixtures.gpuPod("p" + i, 1, "500m", "2Gi"));
    }
    ProvisioningPlan karpenter = provisioner(List.of(pool), List.of(), GpuSizing.PHYSICAL, slicing)
        .solve(pods, List.of(), List.of(), OfferingAvailability.ALL, T0);
    // Karpenter packs four 1-GPU pods onto a 4-GPU type: it does not know one L4 will advertise 4.
    assertThat(karpenter.newClaims().getFirst().instanceTypes().getFirst().name()).isEqualTo("g6.12xlarge");
    ProvisioningPlan twin = provisioner(List.of(pool), List.of(), GpuSizing.ADVERTISED, slicing)
        .solve(pods, List.of(), List.of(), OfferingAvailability.ALL, T0);
    assertThat(twin.newClaims()).hasSize(1);
    assertThat(twin.newClaims().getFirst().instanceTypes().getFirst().name()).isEqualTo("g6.xlarge");
  }
}
