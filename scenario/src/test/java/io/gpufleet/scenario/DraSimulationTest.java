package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpufleet.engine.dra.Allocation;
import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.sim.Checkpoint;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.state.ClaimTable;
import io.gpufleet.sim.state.ClusterState;
import io.gpufleet.sim.state.PodState;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code simulate} with Dynamic Resource Allocation on nodes left to NVIDIA's DRA driver: claims made
 * from templates per pod, allocated at bind, shared claims allocated once, claims freed when their
 * last pod goes, and the run's invariants kept throughout.
 */
class DraSimulationTest {

  static final String NODES = """
          - apiVersion: v1
            kind: Node
            metadata:
              name: a10g-node
              labels: {nvidia.com/gpu.product: NVIDIA-A10G, nvidia.com/gpu.count: "2",
                       nvidia.com/gpu.deploy.device-plugin: "false"}
            status: {allocatable: {cpu: "48", memory: 192Gi, pods: "110"}}
          - apiVersion: v1
            kind: Node
            metadata:
              name: h100-node
              labels: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3, nvidia.com/gpu.count: "2",
                       nvidia.com/gpu.deploy.device-plugin: "false"}
            status: {allocatable: {cpu: "192", memory: 2000Gi, pods: "110"}}
          - apiVersion: resource.k8s.io/v1
            kind: ResourceClaimTemplate
            metadata: {name: one-h100}
            spec:
              spec:
                devices:
                  requests:
                  - name: gpu
                    exactly:
                      deviceClassName: gpu.nvidia.com
                      selectors:
                      - cel: {expression: 'device.attributes["gpu.nvidia.com"].productName == "NVIDIA H100 80GB HBM3"'}
          - apiVersion: resource.k8s.io/v1
            kind: ResourceClaimTemplate
            metadata: {name: one-b200}
            spec:
              spec:
                devices:
                  requests:
                  - name: gpu
                    exactly:
                      deviceClassName: gpu.nvidia.com
                      selectors:
                      - cel: {expression: 'device.attributes["gpu.nvidia.com"].productName == "NVIDIA B200"'}
          - apiVersion: resource.k8s.io/v1
            kind: ResourceClaim
            metadata: {name: shared-a10g}
            spec:
              devices:
                requests:
                - name: gpu
                  exactly:
                    deviceClassName: gpu.nvidia.com
                    selectors:
                    - cel: {expression: 'device.attributes["gpu.nvidia.com"].productName == "NVIDIA A10G"'}
        """;

  static String pod(String name, String entry) {
    return """
          - apiVersion: v1
            kind: Pod
            metadata: {name: %s}
            spec:
              resourceClaims: [%s]
              containers:
              - name: c
                image: example/app:1
                resources: {requests: {cpu: "1"}, claims: [{name: gpu}]}
        """.formatted(name, entry);
  }

  static final String FROM_H100 = "{name: gpu, resourceClaimTemplateName: one-h100}";

  static SimulationResult run(long seed, String cluster, String steps) {
    String text = """
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: dra}
        spec:
          seed: %d
          cluster:
        %s
          steps:
        %s
        """.formatted(seed, cluster, steps);
    ScenarioFile f = ScenarioReader.read("dra.yaml", text, ScenarioSources.directory(java.nio.file.Path.of(".")));
    return Simulation.run(f.scenario());
  }

  static final String SETTLE = """
          - title: settle
            actions:
            - wait: 2m
        """;

  static Checkpoint checkpoint(SimulationResult r, String label) {
    return r.checkpoints().stream().filter(c -> c.label().equals(label)).findFirst().orElseThrow();
  }

  static ClaimTable.Claim madeFor(ClusterState s, String pod) {
    return s.dra().madeFor("default/" + pod, "gpu").orElseThrow();
  }

  @Test
  void aTemplateClaimIsMadePerPodNamedAsTheControllerNamesItAndAllocatedOnTheMatchingNode() {
    SimulationResult r = run(1, NODES + pod("trainer", FROM_H100)
        + pod("waits-for-b200", "{name: gpu, resourceClaimTemplateName: one-b200}"), SETTLE);
    ClusterState s = r.finalState();
    assertThat(r.violations()).isEmpty();
    assertThat(s.pods().get("default/trainer").node()).contains("h100-node");
    ClaimTable.Claim claim = madeFor(s, "trainer");
    assertThat(claim.claim().name()).matches("trainer-gpu-[bcdfghjklmnpqrstvwxz2456789]{5}");
    assertThat(claim.owner()).contains("default/trainer");
    assertThat(claim.reservedFor()).containsExactly("default/trainer");
    Allocation a = claim.allocation().orElseThrow();
    assertThat(a.node()).isEqualTo("h100-node");
    assertThat(a.results()).extracting(Allocation.Result::deviceId).hasSize(1).allMatch(
        id -> id.startsWith("gpu.nvidia.com/h100-node/gpu-"));
    // The pod nothing matches waits with upstream's words; its claim exists, unallocated.
    assertThat(s.pods().get("default/waits-for-b200").node()).isEmpty();
    assertThat(r.record().of(RunRecord.Kind.POD_FAILED_SCHEDULING)).anyMatch(e -> e.subject()
        .equals("default/waits-for-b200") && e.message().startsWith("0/2 nodes are available: 2 cannot allocate all "
        + "claims. still not schedulable"));
    assertThat(madeFor(s, "waits-for-b200").allocation()).isEmpty();
  }

  @Test
  void claimNamesComeFromTheSeedAndRepeat() {
    String cluster = NODES + pod("trainer", FROM_H100);
    String once = madeFor(run(1, cluster, SETTLE).finalState(), "trainer").claim().name();
    assertThat(madeFor(run(1, cluster, SETTLE).finalState(), "trainer").claim().name()).isEqualTo(once);
    List<String> others = java.util.stream.LongStream.rangeClosed(2, 6)
        .mapToObj(seed -> madeFor(run(seed, cluster, SETTLE).finalState(), "trainer").claim().name()).toList();
    assertThat(others).anyMatch(n -> !n.equals(once));
  }

  @Test
  void aSharedClaimIsAllocatedOnceForAllItsPodsAndFreedWhenTheLastGoes() {
    String deployment = """
          - apiVersion: apps/v1
            kind: Deployment
            metadata: {name: shared, namespace: default}
            spec:
              replicas: 3
              selector: {matchLabels: {app: shared}}
              template:
                metadata: {labels: {app: shared}}
                spec:
                  resourceClaims: [{name: gpu, resourceClaimName: shared-a10g}]
                  containers:
                  - name: c
                    image: example/app:1
                    resources: {requests: {cpu: "1"}, claims: [{name: gpu}]}
        """;
    String steps = """
          - title: run
            actions:
            - wait: 2m
            - show: running
          - title: scale to zero
            actions:
            - scale: {workload: Deployment/default/shared, replicas: 0}
            - wait: 5m
        """;
    SimulationResult r = run(1, NODES + deployment, steps);
    assertThat(r.violations()).isEmpty();
    ClusterState running = checkpoint(r, "running").state();
    ClaimTable.Claim claim = running.dra().claim("default/shared-a10g").orElseThrow();
    List<PodState> pods = running.pods().values().stream().filter(p -> p.workload().isPresent()).toList();
    assertThat(pods).hasSize(3).allMatch(p -> p.node().equals(Optional.of("a10g-node")));
    assertThat(claim.reservedFor()).containsExactlyInAnyOrderElementsOf(pods.stream().map(PodState::key).toList());
    assertThat(claim.allocation().orElseThrow().results()).hasSize(1);
    ClaimTable.Claim after = r.finalState().dra().claim("default/shared-a10g").orElseThrow();
    assertThat(after.reservedFor()).isEmpty();
    assertThat(after.allocation()).isEmpty();
  }

  @Test
  void anAllocationStaysPutWhileReservedAndAFreedDeviceGoesToTheNextPod() {
    String steps = """
          - title: two pods
            actions:
            - wait: 2m
            - show: two
          - title: the first goes, a third comes
            actions:
            - delete: {kind: Pod, name: default/first}
            - wait: 2m
            - apply:
        %s
            - wait: 2m
        """.formatted(pod("third", FROM_H100).indent(4));
    SimulationResult r = run(1, NODES + pod("first", FROM_H100) + pod("second", FROM_H100), steps);
    assertThat(r.violations()).isEmpty();
    ClusterState two = checkpoint(r, "two").state();
    String firstDevice = madeFor(two, "first").allocation().orElseThrow().results().getFirst().deviceId();
    String secondDevice = madeFor(two, "second").allocation().orElseThrow().results().getFirst().deviceId();
    assertThat(firstDevice).isNotEqualTo(secondDevice);
    ClusterState end = r.finalState();
    // The template claim went with its pod; the second keeps its device; the third gets the freed one.
    assertThat(end.dra().claims().values()).noneMatch(c -> c.owner().equals(Optional.of("default/first")));
    assertThat(madeFor(end, "second").allocation().orElseThrow().results().getFirst().deviceId())
        .isEqualTo(secondDevice);
    assertThat(madeFor(end, "third").allocation().orElseThrow().results().getFirst().deviceId())
        .isEqualTo(firstDevice);
  }

  static final String POOL = """
          - apiVersion: karpenter.k8s.aws/v1
            kind: EC2NodeClass
            metadata: {name: gpu}
            spec: {amiSelectorTerms: [{alias: bottlerocket@latest}]}
          - apiVersion: karpenter.sh/v1
            kind: NodePool
            metadata: {name: gpu}
            spec:
              template:
                spec:
                  nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: gpu}
                  requirements:
                  - {key: karpenter.k8s.aws/instance-family, operator: In, values: [g5, p5]}
        """;

  @Test
  void onAnAutoscaledClusterKarpenterRefusesDraPodsAndTheSchedulerPlacesThemOnDraNodes() {
    SimulationResult r = run(1, NODES + POOL + pod("trainer", FROM_H100)
        + pod("waits-for-b200", "{name: gpu, resourceClaimTemplateName: one-b200}"), SETTLE);
    assertThat(r.violations()).isEmpty();
    assertThat(r.finalState().pods().get("default/trainer").node()).contains("h100-node");
    assertThat(r.finalState().pods().get("default/waits-for-b200").node()).isEmpty();
    assertThat(r.finalState().claims().size()).as("no NodeClaim launched for a DRA pod").isZero();
    assertThat(r.record().of(RunRecord.Kind.KARPENTER_EVENT)).anyMatch(e -> e.subject().equals(
        "default/waits-for-b200") && e.message().contains("Dynamic Resource Allocation requirements"));
  }

  /** Two L4 pods, each with a claim from one template; a NodePool whose labels are given. */
  static String autoscaledL4(String draRequests, String poolLabels) {
    return """
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: dra-autoscaled}
        spec:
          seed: 1
          autoscaler: {draRequests: %s}
          cluster:
          - apiVersion: karpenter.k8s.aws/v1
            kind: EC2NodeClass
            metadata: {name: gpu}
            spec: {amiSelectorTerms: [{alias: bottlerocket@latest}]}
          - apiVersion: karpenter.sh/v1
            kind: NodePool
            metadata: {name: gpu}
            spec:
              template:
                metadata: {labels: %s}
                spec:
                  nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: gpu}
                  requirements:
                  - {key: karpenter.k8s.aws/instance-family, operator: In, values: [g5, g6]}
          - apiVersion: resource.k8s.io/v1
            kind: ResourceClaimTemplate
            metadata: {name: one-l4}
            spec:
              spec:
                devices:
                  requests:
                  - name: gpu
                    exactly:
                      deviceClassName: gpu.nvidia.com
                      selectors:
                      - cel: {expression: 'device.attributes["gpu.nvidia.com"].productName == "NVIDIA L4"'}
        %s%s
          steps:
          - title: settle
            actions:
            - wait: 10m
        """.formatted(draRequests, poolLabels, pod("first", "{name: gpu, resourceClaimTemplateName: one-l4}"),
        pod("second", "{name: gpu, resourceClaimTemplateName: one-l4}"));
  }

  static final String DRA_POOL = "{nvidia.com/gpu.deploy.device-plugin: \"false\"}";

  @Test
  void theDraSizingExtensionLaunchesNodesRunningTheDraDriverAndTheClaimsAreAllocatedThere() {
    ScenarioFile f = ScenarioReader.read("dra.yaml", autoscaledL4("allocate", DRA_POOL),
        ScenarioSources.directory(java.nio.file.Path.of(".")));
    assertThat(f.warnings()).isEmpty();
    SimulationResult r = Simulation.run(f.scenario());
    assertThat(r.violations()).isEmpty();
    ClusterState end = r.finalState();
    java.util.Set<String> devices = new java.util.TreeSet<>();
    for (String pod : List.of("first", "second")) {
      PodState p = end.pods().get("default/" + pod);
      assertThat(p.phase()).as(pod).isEqualTo(PodState.Phase.RUNNING);
      String node = p.node().orElseThrow();
      // Launched by Karpenter for the pod, as an L4 type (the selector left out the A10G types).
      assertThat(end.claims().get(node)).as(pod + "'s node is a NodeClaim").isNotNull();
      assertThat(end.claims().get(node).instanceType().gpu().orElseThrow().name()).isEqualTo("l4");
      // Its GPUs are the driver's: no device-plugin resource, the claim allocated from its slice.
      assertThat(end.nodes().get(node).node().allocatable().quantities().keySet())
          .noneMatch(io.gpufleet.model.resource.ResourceName::isNvidiaGpuLike);
      Allocation a = madeFor(end, pod).allocation().orElseThrow();
      assertThat(a.node()).isEqualTo(node);
      devices.add(a.node() + "/" + a.results().getFirst().device());
    }
    assertThat(devices).as("no device given twice").hasSize(2);
    assertThat(r.record().of(RunRecord.Kind.KARPENTER_EVENT)).anyMatch(e -> e.subject().equals("default/first")
        && e.message().startsWith("SizedByExtension: draRequests: allocate (gpufleet extension)"));
    assertThat(r.record().of(RunRecord.Kind.NODE_REGISTERED))
        .allMatch(e -> e.message().contains("NVIDIA's DRA driver publishes ResourceSlice " + e.subject()
            + "-gpu.nvidia.com"));
  }

  @Test
  void underTheExtensionANodePoolWhoseNodesRunTheDevicePluginIsWarnedOfAndLaunchesNothing() {
    ScenarioFile f = ScenarioReader.read("dra.yaml", autoscaledL4("allocate", "{team: ml}"),
        ScenarioSources.directory(java.nio.file.Path.of(".")));
    assertThat(f.warnings()).hasSize(2).allSatisfy(w -> assertThat(w.toString())
        .contains("no NodePool leaves its nodes' GPUs to NVIDIA's DRA driver"));
    SimulationResult r = Simulation.run(f.scenario());
    assertThat(r.finalState().claims().size()).isZero();
    assertThat(r.finalState().pods().get("default/first").node()).isEmpty();
    assertThat(r.record().of(RunRecord.Kind.KARPENTER_EVENT)).anyMatch(e -> e.subject().equals("default/first")
        && e.message().contains("nodepool's nodes run the NVIDIA device plugin, not the DRA driver"));
  }

  @Test
  void byDefaultKarpenterRefusesTheSamePodsEvenWhereTheNodePoolLeavesGpusToTheDriver() {
    SimulationResult r = Simulation.run(ScenarioReader.read("dra.yaml", autoscaledL4("ignore", DRA_POOL),
        ScenarioSources.directory(java.nio.file.Path.of("."))).scenario());
    assertThat(r.finalState().claims().size()).isZero();
    assertThat(r.record().of(RunRecord.Kind.KARPENTER_EVENT)).anyMatch(e -> e.subject().equals("default/first")
        && e.message().equals("FailedScheduling: " + io.gpufleet.autoscaler.provisioning.DraProvisioning.NOT_SUPPORTED));
  }

  static String sharedTimeSliced(int replicas) {
    return """
          - apiVersion: resource.k8s.io/v1
            kind: ResourceClaim
            metadata: {name: sliced}
            spec:
              devices:
                requests:
                - name: gpu
                  exactly: {deviceClassName: gpu.nvidia.com}
                config:
                - opaque:
                    driver: gpu.nvidia.com
                    parameters:
                      apiVersion: resource.nvidia.com/v1beta1
                      kind: GpuConfig
                      sharing: {strategy: TimeSlicing, timeSlicingConfig: {interval: Long}}
          - apiVersion: apps/v1
            kind: Deployment
            metadata: {name: four, namespace: default}
            spec:
              replicas: %d
              selector: {matchLabels: {app: four}}
              template:
                metadata: {labels: {app: four}}
                spec:
                  resourceClaims: [{name: gpu, resourceClaimName: sliced}]
                  containers:
                  - name: c
                    image: example/app:1
                    resources: {requests: {cpu: "1"}, claims: [{name: gpu}]}
        """.formatted(replicas);
  }

  static SimulationResult runWithGates(String gates, String cluster) {
    return runWith("draDriver: {featureGates: " + gates + "}", cluster);
  }

  /** {@code cluster} settled, with one more line of the scenario's spec ({@code draDriver: ...}, {@code autoscaler: ...}). */
  static SimulationResult runWith(String specLine, String cluster) {
    String text = """
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: dra}
        spec:
          seed: 1
          %s
          cluster:
        %s
          steps:
        %s
        """.formatted(specLine, cluster, SETTLE);
    return Simulation.run(ScenarioReader.read("dra.yaml", text, ScenarioSources.directory(java.nio.file.Path.of(".")))
        .scenario());
  }

  @Test
  void fourPodsSharingOneTimeSlicedClaimRunOnOneCardPreparedAsTheDriverPreparesIt() {
    SimulationResult r = runWithGates("{TimeSlicingSettings: true}", NODES + sharedTimeSliced(4));
    assertThat(r.violations()).isEmpty();
    ClaimTable.Claim claim = r.finalState().dra().claim("default/sliced").orElseThrow();
    assertThat(claim.reservedFor()).hasSize(4);
    assertThat(claim.prepared()).extracting(p -> p.sharing()).containsExactly(
        new io.gpufleet.engine.dra.GpuClaimPreparation.Sharing.TimeSliced("Long"));
    assertThat(r.record().of(RunRecord.Kind.POD_STARTED)).hasSize(4);
    // The card counts as allocated once, for as long as the claim holds it.
    assertThat(r.metrics().gpuHoursAllocated()).isGreaterThan(0);
  }

  @Test
  void withTheDriversGateOffATimeSlicingConfigFailsPreparationAndThePodsDoNotStart() {
    SimulationResult r = runWithGates("{}", NODES + sharedTimeSliced(2));
    assertThat(r.violations()).isEmpty();
    assertThat(r.record().of(RunRecord.Kind.POD_STARTED)).isEmpty();
    assertThat(r.record().of(RunRecord.Kind.DEVICE_ALLOCATION_REFUSED)).hasSize(2).allMatch(e -> e.message().equals(
        "FailedPrepareDynamicResources: claim sliced: error validating GPU config: \"TimeSlicing\" is selected as the "
            + "GPU sharing strategy, but the \"TimeSlicingSettings\" feature gate is not enabled"));
  }

  @Test
  void aDriverGateTheTwinDoesNotModelIsAnError() {
    assertThatThrownBy(() -> runWithGates("{PassthroughSupport: true}", NODES)).isInstanceOf(ManifestException.class)
        .hasMessageContaining("not modelled by gpufleet: DRA driver feature gate \"PassthroughSupport\"");
  }

  /** {@code examples/dra/partitionable-mig.yaml}'s objects as the scenario's {@code cluster} list. */
  private static String partitionableExample() throws java.io.IOException {
    String text = java.nio.file.Files.readString(java.nio.file.Path.of("..", "examples", "dra", "partitionable-mig.yaml"));
    StringBuilder b = new StringBuilder();
    for (String doc : text.split("(?m)^---$")) {
      List<String> lines = doc.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
      for (int k = 0; k < lines.size(); k++) {
        b.append(k == 0 ? "          - " : "            ").append(lines.get(k)).append('\n');
      }
    }
    return b.toString();
  }

  @Test
  void underDynamicMigTheExamplesMigClaimsShareTheCardInTheSimulationAndTheWholeCardWaits() throws Exception {
    SimulationResult r = runWithGates("{DynamicMIG: true}", partitionableExample());
    assertThat(r.violations()).isEmpty();
    assertThat(r.finalState().dra().claim("default/mig-1g").orElseThrow().allocation().orElseThrow().results())
        .extracting(io.gpufleet.engine.dra.Allocation.Result::device).containsExactly("gpu-0-mig-1g10gb-19-0");
    assertThat(r.finalState().dra().claim("default/mig-3g").orElseThrow().allocation().orElseThrow().results())
        .extracting(io.gpufleet.engine.dra.Allocation.Result::device).containsExactly("gpu-0-mig-3g40gb-9-4");
    assertThat(r.finalState().dra().claim("default/whole-gpu").orElseThrow().allocation()).isEmpty();
    assertThat(r.record().of(RunRecord.Kind.POD_STARTED)).hasSize(2);
  }

  @Test
  void aDraNodeWithACustomMigPartedConfigPublishesThatConfigsMigDevices() {
    String cluster = """
          - apiVersion: v1
            kind: ConfigMap
            metadata: {name: custom-mig-parted-config, namespace: gpu-operator}
            data:
              config.yaml: |
                version: v1
                mig-configs:
                  balanced-h100:
                    - devices: all
                      mig-enabled: true
                      mig-devices:
                        "1g.10gb": 2
                        "2g.20gb": 1
                        "3g.40gb": 1
          - apiVersion: v1
            kind: Node
            metadata:
              name: h100-dra
              labels: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3, nvidia.com/gpu.count: "1",
                       nvidia.com/gpu.deploy.device-plugin: "false", nvidia.com/mig.config: balanced-h100}
            status:
              allocatable: {cpu: "48", memory: 192Gi, pods: "110"}
          - apiVersion: resource.k8s.io/v1
            kind: ResourceClaim
            metadata: {name: two-g}
            spec:
              devices:
                requests:
                - name: mig
                  exactly:
                    deviceClassName: mig.nvidia.com
                    selectors:
                    - cel: {expression: 'device.attributes["gpu.nvidia.com"].profile == "2g.20gb"'}
          - apiVersion: v1
            kind: Pod
            metadata: {name: p}
            spec:
              resourceClaims:
              - {name: mig, resourceClaimName: two-g}
              containers:
              - name: c
                resources:
                  claims: [{name: mig}]
        """;
    SimulationResult r = runWithGates("{}", cluster);
    assertThat(r.violations()).isEmpty();
    assertThat(r.finalState().dra().claim("default/two-g").orElseThrow().allocation().orElseThrow().results())
        .extracting(io.gpufleet.engine.dra.Allocation.Result::device).singleElement().asString()
        .startsWith("gpu-0-mig-2g20gb-14-");
    assertThat(r.record().of(RunRecord.Kind.POD_STARTED)).hasSize(1);
  }
}
