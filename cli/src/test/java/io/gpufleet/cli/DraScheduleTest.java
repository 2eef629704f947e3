package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Dynamic Resource Allocation in {@code gpufleet schedule} and {@code simulate}. */
class DraScheduleTest {

  private static final Path EXAMPLE = Path.of("..", "examples", "dra", "gpu-claim-template.yaml");

  /** Two driver nodes: one with four A10Gs, one with two H100s; the device plugin is off on both. */
  private static final String NODES = """
      apiVersion: v1
      kind: Node
      metadata:
        name: a10g-node
        labels: {nvidia.com/gpu.product: NVIDIA-A10G, nvidia.com/gpu.count: "4",
                 nvidia.com/gpu.deploy.device-plugin: "false"}
      status:
        allocatable: {cpu: "48", memory: 192Gi, pods: "110"}
      ---
      apiVersion: v1
      kind: Node
      metadata:
        name: h100-node
        labels: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3, nvidia.com/gpu.count: "2",
                 nvidia.com/gpu.deploy.device-plugin: "false"}
      status:
        allocatable: {cpu: "48", memory: 192Gi, pods: "110"}
      """;

  private static String pod(String name, String claimField, String claim) {
    return """
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: %s}
        spec:
          resourceClaims:
          - {name: gpu, %s: %s}
          containers:
          - name: c
            resources:
              claims: [{name: gpu}]
        """.formatted(name, claimField, claim);
  }

  private static String template(String name, String exactly) {
    return """
        ---
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaimTemplate
        metadata: {name: %s}
        spec:
          spec:
            devices:
              requests:
              - name: gpu
                exactly:
        %s""".formatted(name, exactly.indent(10));
  }

  /** A template taking every H100 on a node ({@code allocationMode: All}). */
  private static String allH100() {
    return template("all-h100", """
        deviceClassName: gpu.nvidia.com
        allocationMode: All
        selectors:
        - cel: {expression: 'device.attributes["gpu.nvidia.com"].productName.startsWith("NVIDIA H100")'}
        """);
  }

  private static CliRun schedule(Path dir, String yaml, String... more) throws IOException {
    Path f = dir.resolve("dra.yaml");
    Files.writeString(f, yaml);
    String[] args = new String[3 + more.length];
    args[0] = "schedule";
    args[1] = "-f";
    args[2] = f.toString();
    System.arraycopy(more, 0, args, 3, more.length);
    return CliRun.wide(args);
  }

  @Test
  void theExamplesTemplatePodLandsOnTheH100NodeAndTheUnmatchedOneWaitsInUpstreamsWords() {
    CliRun run = CliRun.wide("schedule", "-f", EXAMPLE.toString());
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).containsPattern("trainer +0/1 +ContainerCreating +0 +0s +h100-node ")
        .contains("pod/waits-for-b200   0/2 nodes are available: 2 cannot allocate all claims. still not schedulable, "
            + "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.\n")
        .containsPattern("trainer-gpu +allocated,reserved +h100-node +gpu: gpu.nvidia.com/h100-node/gpu-0 +trainer\n")
        .containsPattern("waits-for-b200-gpu +pending +<none>");
    assertThat(run.err()).isEmpty();
  }

  @Test
  void aClaimSharedByThreePodsIsAllocatedOnceAndPullsThemOntoOneNode(@TempDir Path dir) throws IOException {
    String claim = """
        ---
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaim
        metadata: {name: shared}
        spec:
          devices:
            requests:
            - name: gpu
              exactly:
                deviceClassName: gpu.nvidia.com
                selectors:
                - cel: {expression: 'device.attributes["gpu.nvidia.com"].architecture == "Ampere"'}
        """;
    CliRun run = schedule(dir, NODES + claim + pod("p1", "resourceClaimName", "shared")
        + pod("p2", "resourceClaimName", "shared") + pod("p3", "resourceClaimName", "shared"));
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).containsPattern("p1 +0/1 +ContainerCreating +0 +0s +a10g-node ")
        .containsPattern("p2 +0/1 +ContainerCreating +0 +0s +a10g-node ")
        .containsPattern("p3 +0/1 +ContainerCreating +0 +0s +a10g-node ")
        .containsPattern("shared +allocated,reserved +a10g-node +gpu: gpu.nvidia.com/a10g-node/gpu-0 +p1,p2,p3\n");
  }

  @Test
  void allocationModeAllTakesEveryMatchingCardAndCountTakesThatMany(@TempDir Path dir) throws IOException {
    String all = allH100();
    String three = template("three", "deviceClassName: gpu.nvidia.com\ncount: 3\n");
    String one = template("one-h100", """
        deviceClassName: gpu.nvidia.com
        selectors:
        - cel: {expression: 'device.attributes["gpu.nvidia.com"].productName.startsWith("NVIDIA H100")'}
        """);
    CliRun run = schedule(dir, NODES + all + three + one + pod("whole", "resourceClaimTemplateName", "all-h100")
        + pod("triple", "resourceClaimTemplateName", "three") + pod("late", "resourceClaimTemplateName", "one-h100"));
    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .containsPattern("whole-gpu +allocated,reserved +h100-node +gpu: gpu.nvidia.com/h100-node/gpu-0, "
            + "gpu: gpu.nvidia.com/h100-node/gpu-1 +whole\n")
        // Three cards fit only the A10G node once the H100s are taken.
        .containsPattern("triple-gpu +allocated,reserved +a10g-node +gpu: gpu.nvidia.com/a10g-node/gpu-0, "
            + "gpu: gpu.nvidia.com/a10g-node/gpu-1, gpu: gpu.nvidia.com/a10g-node/gpu-2 +triple\n")
        .contains("pod/late   0/2 nodes are available: 2 cannot allocate all claims.");
  }

  @Test
  void firstAvailablePrefersAnH100AndFallsBackToAnA10GOnceTheH100sAreTaken(@TempDir Path dir) throws IOException {
    String all = allH100();
    String prefer = """
        ---
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaimTemplate
        metadata: {name: h100-else-a10g}
        spec:
          spec:
            devices:
              requests:
              - name: gpu
                firstAvailable:
                - name: h100
                  deviceClassName: gpu.nvidia.com
                  selectors:
                  - cel: {expression: 'device.attributes["gpu.nvidia.com"].productName.startsWith("NVIDIA H100")'}
                - name: a10g
                  deviceClassName: gpu.nvidia.com
                  selectors:
                  - cel: {expression: 'device.attributes["gpu.nvidia.com"].productName == "NVIDIA A10G"'}
        """;
    String h100Only = NODES.substring(NODES.indexOf("---") + 4);
    CliRun alone = schedule(dir, h100Only + prefer + pod("p", "resourceClaimTemplateName", "h100-else-a10g"));
    assertThat(alone.exitCode()).isZero();
    assertThat(alone.out()).containsPattern("p-gpu +allocated,reserved +h100-node +gpu/h100: gpu.nvidia.com/h100-node/gpu-0 +p\n");
    CliRun run = schedule(dir, NODES + all + prefer + pod("whole", "resourceClaimTemplateName", "all-h100")
        + pod("fallback", "resourceClaimTemplateName", "h100-else-a10g"));
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).containsPattern("whole-gpu +allocated,reserved +h100-node ")
        .containsPattern("fallback +0/1 +ContainerCreating +0 +0s +a10g-node ")
        .containsPattern("fallback-gpu +allocated,reserved +a10g-node +gpu/a10g: gpu.nvidia.com/a10g-node/gpu-0 "
            + "+fallback\n");
  }

  @Test
  void theFirstAvailableExampleGivesTheH100ToTheFirstPodAndTheA10GsToTheRest() {
    CliRun run = CliRun.wide("schedule", "-f", Path.of("..", "examples", "dra", "first-available.yaml").toString());
    assertThat(run.exitCode()).isZero();
    assertThat(run.err()).isEmpty();
    // DynamicResources' Score ranks the node that meets the first subrequest (8) above the one meeting
    // the second (7), so the first pod takes the free H100 and the others fall back to A10Gs.
    assertThat(run.out()).doesNotContain("Pending").doesNotContain("gpu/a10g: gpu.nvidia.com/h100-node")
        .doesNotContain("gpu/h100: gpu.nvidia.com/a10g-node")
        .containsPattern("infer-1 +0/1 +ContainerCreating +0 +0s +h100-node ")
        .containsPattern("infer-1-gpu +allocated,reserved +h100-node +gpu/h100: gpu.nvidia.com/h100-node/gpu-0 ")
        .containsPattern("infer-2-gpu +allocated,reserved +a10g-node +gpu/a10g: gpu.nvidia.com/a10g-node/gpu-0 ")
        .containsPattern("infer-3-gpu +allocated,reserved +a10g-node +gpu/a10g: gpu.nvidia.com/a10g-node/gpu-1 ");
  }

  @Test
  void aMissingTemplateOrClassIsThePluginsPreFilterMessage(@TempDir Path dir) throws IOException {
    CliRun run = schedule(dir, NODES + template("ghost-class", "deviceClassName: no-such-class\n")
        + pod("no-template", "resourceClaimTemplateName", "absent") + pod("no-class", "resourceClaimTemplateName",
        "ghost-class"));
    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .contains("pod/no-template   0/2 nodes are available: pod \"default/no-template\": ResourceClaim not created yet. "
            + "no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for "
            + "scheduling.\n")
        .contains("pod/no-class      0/2 nodes are available: request gpu: device class no-such-class does not exist.");
  }

  @Test
  void aSelectorThatDoesNotCompileIsRefusedWhenReadWithItsPlaceAndCelsMessage(@TempDir Path dir) throws IOException {
    String badClass = """
        ---
        apiVersion: resource.k8s.io/v1
        kind: DeviceClass
        metadata: {name: typo}
        spec:
          selectors:
          - cel: {expression: 'device.driver = "gpu.nvidia.com"'}
        """;
    CliRun run = schedule(dir, NODES + badClass + template("kube-lib", """
        deviceClassName: gpu.nvidia.com
        selectors:
        - cel: {expression: 'device.attributes["gpu.nvidia.com"].productName.find("H100") == "H100"'}
        """) + pod("p", "resourceClaimTemplateName", "kube-lib"));
    assertThat(run.exitCode()).isNotZero();
    assertThat(run.out()).isEmpty();
    // As the API server refuses them at create: the field, the value, CEL's own message; no stack trace.
    assertThat(run.err()).containsPattern("dra\\.yaml:\\d+:\\d+: spec\\.selectors\\[0\\]\\.cel\\.expression: Invalid value: "
            + "\"device\\.driver = \\\\\"gpu\\.nvidia\\.com\\\\\"\": compilation failed: ERROR: <input>:1:15: ")
        .containsPattern("dra\\.yaml:\\d+:\\d+: spec\\.spec\\.devices\\.requests\\[0\\]\\.exactly\\.selectors\\[0\\]"
            + "\\.cel\\.expression: Invalid value: .*: compilation failed: ERROR: <input>:1:53: undeclared reference to 'find'")
        .doesNotContain("Exception").doesNotContain("\tat ");
  }

  @Test
  void aNodeWithTheDevicePluginPublishesNoSliceSoItsCardsAreNeverGivenTwice(@TempDir Path dir) throws IOException {
    String pluginNode = """
        apiVersion: v1
        kind: Node
        metadata:
          name: plugin-node
          labels: {nvidia.com/gpu.product: NVIDIA-A10G, nvidia.com/gpu.count: "4"}
        status:
          allocatable: {cpu: "48", memory: 192Gi, pods: "110", nvidia.com/gpu: "4"}
        ---
        apiVersion: resource.k8s.io/v1
        kind: DeviceClass
        metadata: {name: gpu.nvidia.com}
        spec:
          selectors:
          - cel: {expression: "device.driver == 'gpu.nvidia.com'"}
        """;
    CliRun run = schedule(dir, pluginNode + template("one", "deviceClassName: gpu.nvidia.com\n")
        + pod("p", "resourceClaimTemplateName", "one"));
    assertThat(run.out()).containsPattern("pod/p +0/1 nodes are available: 1 cannot allocate all claims\\.");
  }

  @Test
  void invalidClaimsAreRefusedWithFileLineAndField(@TempDir Path dir) throws IOException {
    CliRun run = schedule(dir, NODES + template("bad", """
        deviceClassName: gpu.nvidia.com
        allocationMode: All
        count: 2
        """) + template("alt", "deviceClassName: Not_A_Name\n") + """
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: both}
        spec:
          resourceClaims:
          - {name: gpu, resourceClaimName: a, resourceClaimTemplateName: b}
          containers:
          - name: c
            resources:
              claims: [{name: other}]
        """);
    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err())
        .containsPattern("dra.yaml:\\d+:\\d+: .*count.*must not be specified when allocationMode is 'All'")
        .containsPattern("dra.yaml:\\d+:\\d+: .*deviceClassName.*Invalid value: \"Not_A_Name\"")
        .contains("must specify one of: `resourceClaimName`, `resourceClaimTemplateName`")
        .contains("Not found: \"other\": must be the name of one of spec.resourceClaims")
        .doesNotContain("Exception");
  }

  @Test
  void simulateRunsTheExampleWithItsClaimsAllocated(@TempDir Path tmp) {
    CliRun run = CliRun.wide("simulate", "-f", EXAMPLE.toString(), "--for", "2m", "--out",
        tmp.resolve("out").toString());
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).containsPattern("PodScheduled +default/trainer +bound to h100-node")
        .containsPattern("default +trainer +1/1 +Running +h100-node")
        .contains("0/2 nodes are available: 2 cannot allocate all claims. still not schedulable");
  }

  /** A claim {@code c} for one H100 of NVIDIA's class, with {@code status} (YAML, may be empty) as recorded. */
  private static String claimC(String status) {
    return """
        ---
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaim
        metadata: {name: c}
        spec:
          devices:
            requests:
            - name: gpu
              exactly: {deviceClassName: gpu.nvidia.com}
        """ + status;
  }

  /** A pod using claim {@code c}; {@code nodeName} null for a pod the scheduler places. */
  private static String podOnC(String name, String nodeName) {
    return """
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: %s}
        spec:
        %s  resourceClaims:
          - {name: gpu, resourceClaimName: c}
          containers:
          - name: c
            resources:
              claims: [{name: gpu}]
        """.formatted(name, nodeName == null ? "" : "  nodeName: " + nodeName + "\n");
  }

  /** c's status as a dump records it: allocated gpu-1 of the H100 node, reserved for the pod pinned. */
  private static final String RECORDED = """
      status:
        allocation:
          devices:
            results:
            - {request: gpu, driver: gpu.nvidia.com, pool: h100-node, device: gpu-1}
          nodeSelector:
            nodeSelectorTerms:
            - matchFields: [{key: metadata.name, operator: In, values: [h100-node]}]
        reservedFor:
        - {resource: pods, name: pinned, uid: 6f2c1a4e-0d2b-4b8e-9f6e-0c1d2e3f4a5b}
      """;

  private static final String NOT_ALLOWED = "Failed to prepare dynamic resources: prepare dynamic resources: pod pinned "
      + "is not allowed to use ResourceClaim c";

  /**
   * test/e2e/dra "must not run a pod if a claim is not ready": a pod created with spec.nodeName skips the
   * scheduler, so nothing allocates its claim; the kubelet does not start it (pkg/kubelet/cm/dra manager.go).
   */
  @Test
  void scheduleLeavesAPodThatNamesItsNodeUnstartedAndItsClaimUnallocated(@TempDir Path dir) throws IOException {
    CliRun run = schedule(dir, NODES + claimC("") + podOnC("pinned", "h100-node"));
    assertThat(run.exitCode()).isZero();
    assertThat(run.err()).isEmpty();
    assertThat(run.out()).containsPattern("pinned +0/1 +ContainerCreating +0 +0s +h100-node ")
        .contains("Warning   FailedPrepareDynamicResources   pod/pinned   " + NOT_ALLOWED + "\n")
        .containsPattern("\\n\\S* *c +pending +<none> +<none> +<none>");
    CliRun json = schedule(dir, NODES + claimC("") + podOnC("pinned", "h100-node"), "-o", "json");
    assertThat(json.out()).contains("\"phase\" : \"Pending\"", "\"node\" : \"h100-node\"",
        "\"reason\" : \"FailedPrepareDynamicResources\"", "\"message\" : \"" + NOT_ALLOWED + "\"",
        "\"state\" : \"pending\"");
    CliRun smi = CliRun.wide("smi", "-f", dir.resolve("dra.yaml").toString());
    assertThat(smi.out()).containsPattern("default/pinned +ContainerCreating +FailedPrepareDynamicResources: "
        + Pattern.quote(NOT_ALLOWED));
  }

  /** The scheduler allocates the claim for a pod it places; the pod that named its node is still not in reservedFor. */
  @Test
  void aScheduledPodSharingTheClaimGetsItAndThePinnedPodStillDoesNotStart(@TempDir Path dir) throws IOException {
    CliRun run = schedule(dir, NODES + claimC("") + podOnC("pinned", "h100-node") + podOnC("other", null));
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("pod/pinned   " + NOT_ALLOWED)
        .containsPattern("other +0/1 +ContainerCreating +0 +0s +(\\S+) ")
        // Reserved for the scheduled pod alone (the scheduler picks the A10G node, as it scores them).
        .containsPattern("\\n\\S* *c +allocated,reserved +(\\S+) +gpu: gpu.nvidia.com/\\1/gpu-0 +other\n");
  }

  /** A dump's recorded status is the truth of now: the pinned pod holds gpu-1 and the other pod cannot take it. */
  @Test
  void aRecordedAllocationReservedForThePinnedPodIsHonoured(@TempDir Path dir) throws IOException {
    // A pod asking for every H100 of a node: the recorded gpu-1 is in use, so none can be whole.
    CliRun run = schedule(dir, NODES + claimC(RECORDED) + podOnC("pinned", "h100-node") + allH100()
        + pod("whole", "resourceClaimTemplateName", "all-h100"));
    assertThat(run.exitCode()).isZero();
    assertThat(run.err()).isEmpty();
    assertThat(run.out()).doesNotContain("FailedPrepareDynamicResources")
        .containsPattern("\\n\\S* *c +allocated,reserved +h100-node +gpu: gpu.nvidia.com/h100-node/gpu-1 +pinned\n")
        .containsPattern("pod/whole +0/2 nodes are available: 2 cannot allocate all claims\\.");
    // Without the recorded status (and the pod) the same pod gets both H100s.
    CliRun fresh = schedule(dir, NODES + claimC("") + allH100() + pod("whole", "resourceClaimTemplateName", "all-h100"));
    assertThat(fresh.out()).containsPattern("whole +0/1 +ContainerCreating +0 +0s +h100-node ");
  }

  /** The status is checked as the API server checks it (validateResourceClaimStatusUpdate), at its line. */
  @Test
  void aRecordedStatusIsValidatedAtItsLine(@TempDir Path dir) throws IOException {
    StringBuilder many = new StringBuilder(RECORDED);
    for (int i = 0; i < 256; i++) {
      many.append("  - {resource: pods, name: p").append(i).append(", uid: u").append(i).append("}\n");
    }
    CliRun tooMany = schedule(dir, NODES + claimC(many.toString()) + podOnC("pinned", "h100-node"));
    assertThat(tooMany.exitCode()).isEqualTo(2);
    assertThat(tooMany.err()).containsPattern("dra.yaml:\\d+:\\d+: status.reservedFor: Too many: 257: must have at "
        + "most 256 items").doesNotContain("Exception");
    CliRun unallocated = schedule(dir, NODES + claimC("""
        status:
          reservedFor:
          - {resource: pods, name: pinned, uid: u1}
        """) + podOnC("pinned", "h100-node"));
    assertThat(unallocated.exitCode()).isEqualTo(2);
    assertThat(unallocated.err()).containsPattern("dra.yaml:\\d+:\\d+: status.reservedFor: Forbidden: may not be "
        + "specified when `allocated` is not set");
  }

  /** simulate: the kubelet does not start the pod (its warning in the run), or starts it on a recorded reservation. */
  @Test
  void simulateDoesNotStartAPodThatNamesItsNodeUnlessItsClaimIsRecordedForIt(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("dra.yaml");
    Files.writeString(f, NODES + claimC("") + podOnC("pinned", "h100-node"));
    CliRun run = CliRun.wide("simulate", "-f", f.toString(), "--for", "1m", "--out", dir.resolve("out").toString());
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).containsPattern("default/pinned +FailedPrepareDynamicResources: " + Pattern.quote(NOT_ALLOWED))
        .containsPattern("pinned +0/1 +ContainerCreating +h100-node")
        .doesNotContain("InvariantViolated");
    Files.writeString(f, NODES + claimC(RECORDED) + podOnC("pinned", "h100-node"));
    CliRun recorded = CliRun.wide("simulate", "-f", f.toString(), "--for", "1m", "--out",
        dir.resolve("out2").toString());
    assertThat(recorded.exitCode()).isZero();
    assertThat(recorded.out()).doesNotContain("FailedPrepareDynamicResources")
        .containsPattern("pinned +1/1 +Running +h100-node")
        .containsPattern("\\| 1 +- +gpu-1 +default/pinned +c +");
  }

  @Test
  void theAutoscaledExampleLaunchesAnL4NodeRunningTheDraDriverAndLeavesTheH100PodPending(@TempDir Path tmp) {
    CliRun run = CliRun.wide("simulate", Path.of("..", "examples", "dra", "autoscaled-claims.yaml").toString(), "--out",
        tmp.resolve("out").toString());
    assertThat(run.exitCode()).isZero();
    assertThat(run.err()).isEmpty();
    assertThat(run.out()).containsPattern("NodeRegistered +(gpu-dra-\\S+) +kubelet registered \\(g6\\.\\S+\\); NVIDIA's "
        + "DRA driver publishes ResourceSlice \\1-gpu\\.nvidia\\.com")
        .containsPattern("\\| [0-9] +- +gpu-[0-9] +default/vllm-\\S+ +vllm-\\S+-gpu-\\S+ +claim +\\|")
        .contains("no instance type's NVIDIA DRA driver devices satisfy the pod's ResourceClaims")
        .contains("2 pod(s) with ResourceClaims provisioned for by draRequests: allocate (gpufleet extension, not Karpenter)")
        .contains("NVIDIA's DRA driver published its devices at registration")
        .contains("expectations    2 of 2 passed");
  }

  @Test
  void underKarpentersAllocatorTheH100PodUsesTheStaticNodeAndTheL4PodGetsNoNodeOnAws(@TempDir Path tmp) {
    CliRun run = CliRun.wide("simulate", Path.of("..", "examples", "dra", "karpenter-allocator.yaml").toString(),
        "--out", tmp.resolve("out").toString());
    assertThat(run.exitCode()).isZero();
    assertThat(run.err()).isEmpty();
    assertThat(run.out()).contains("Failed to schedule pod, allocating dynamic resources, no instance type can "
        + "satisfy the allocation")
        .doesNotContain("not yet supported by Karpenter").doesNotContain("SizedByExtension")
        .contains("expectations    2 of 2 passed");
  }

  @Test
  void theLabThroughDraRunsFourPodsOnOneCardAndSmiShowsThemSharingTheClaim(@TempDir Path tmp) {
    CliRun run = CliRun.wide("simulate", Path.of("..", "examples", "dra", "lab-shared-claim.yaml").toString(), "--out",
        tmp.resolve("out").toString());
    assertThat(run.exitCode()).isZero();
    String afterStep = run.out().substring(run.out().indexOf("3.3 Four pods"), run.out().indexOf("3.4 The fifth pod"));
    assertThat(afterStep.lines().filter(l -> l.matches(".*\\| 0 +- +gpu-0 +default/vllm-sliced-\\S+ +lab-gpu +time-sliced "
        + "Long +\\|"))).hasSize(4);
    assertThat(run.out()).contains("expectations    1 of 1 passed");
  }

  @Test
  void smiOnManifestsPreparesSharedClaimsWithTheGatesGiven(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("shared.yaml");
    // smi registers the device plugin on GPU nodes, except where the GPU Operator's label keeps it off.
    Files.writeString(f, """
        apiVersion: v1
        kind: Node
        metadata:
          name: a10g-node
          labels: {nvidia.com/gpu.product: NVIDIA-A10G, nvidia.com/gpu.count: "4",
                   nvidia.com/gpu.deploy.device-plugin: "false"}
        status:
          allocatable: {cpu: "48", memory: 192Gi, pods: "110"}
        ---
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaim
        metadata: {name: shared}
        spec:
          devices:
            requests:
            - name: gpu
              exactly:
                deviceClassName: gpu.nvidia.com
                selectors:
                - cel: {expression: 'device.attributes["gpu.nvidia.com"].productName == "NVIDIA A10G"'}
            config:
            - opaque:
                driver: gpu.nvidia.com
                parameters:
                  apiVersion: resource.nvidia.com/v1beta1
                  kind: GpuConfig
                  sharing: {strategy: MPS, mpsConfig: {defaultActiveThreadPercentage: 25}}
        """ + pod("one", "resourceClaimName", "shared") + pod("two", "resourceClaimName", "shared"));
    CliRun on = CliRun.wide("smi", "-f", f.toString(), "--dra-feature-gates", "MPSSupport=true");
    assertThat(on.exitCode()).isZero();
    assertThat(on.out()).containsPattern("\\| 0 +- +gpu-0 +default/one +shared +MPS 25% threads")
        .containsPattern("\\| 0 +- +gpu-0 +default/two +shared +MPS 25% threads")
        .contains("Node a10g-node   4 x NVIDIA A10G   NVIDIA DRA driver (ResourceClaims)");
    CliRun off = CliRun.wide("smi", "-f", f.toString());
    assertThat(off.out()).contains("FailedPrepareDynamicResources: claim shared: error validating GPU config: \"MPS\" is "
        + "selected as the GPU sharing strategy, but the \"MPSSupport\" feature gate is not enabled");
    CliRun bad = CliRun.wide("smi", "-f", f.toString(), "--dra-feature-gates", "PassthroughSupport=true");
    assertThat(bad.exitCode()).isNotZero();
    assertThat(bad.err()).contains("--dra-feature-gates: expected one of TimeSlicingSettings, MPSSupport, DynamicMIG, found "
        + "\"PassthroughSupport\"").doesNotContain("Exception");
  }

  /** An H100 node left to the DRA driver, partitioned by the MIG manager, and a pod claiming one 1g.10gb device. */
  static final String MIG_DRA = """
      apiVersion: gpufleet.io/v1alpha1
      kind: Scenario
      metadata: {name: mig-dra}
      spec:
        seed: 1
        cluster:
        - apiVersion: v1
          kind: Node
          metadata:
            name: h100-mig
            labels: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3, nvidia.com/gpu.count: "1",
                     nvidia.com/gpu.deploy.device-plugin: "false", nvidia.com/mig.config: all-1g.10gb}
          status: {allocatable: {cpu: "32", memory: 256Gi, pods: "110"}}
        - apiVersion: resource.k8s.io/v1
          kind: ResourceClaimTemplate
          metadata: {name: one-slice}
          spec:
            spec:
              devices:
                requests:
                - name: slice
                  exactly:
                    deviceClassName: mig.nvidia.com
                    selectors:
                    - cel: {expression: 'device.attributes["gpu.nvidia.com"].profile == "1g.10gb"'}
        - apiVersion: v1
          kind: Pod
          metadata: {name: infer}
          spec:
            resourceClaims: [{name: slice, resourceClaimTemplateName: one-slice}]
            containers:
            - name: c
              image: example/app:1
              resources: {requests: {cpu: "1"}, claims: [{name: slice}]}
        steps:
        - title: settle
          actions:
          - wait: 2m
      """;

  @Test
  void aDraAllocatedMigDeviceShowsInSmiUnderItsCardAndInTheCardMetrics(@TempDir Path tmp) throws IOException {
    Path f = tmp.resolve("mig-dra.yaml");
    Files.writeString(f, MIG_DRA);
    CliRun run = CliRun.wide("simulate", f.toString(), "--compare",
        Path.of("..", "examples", "dra", "lab-device-plugin.yaml").toString(), "--out", tmp.resolve("out").toString());
    assertThat(run.exitCode()).isZero();
    String smi = run.out().substring(run.out().lastIndexOf("Node h100-mig"));
    // The card lists its seven instances; the pod's row names the MIG device and the driver's device.
    assertThat(smi).containsPattern("\\| 0 +NVIDIA H100 80GB HBM3 +GPU-\\S+ +\\S+MiB +7 instance\\(s\\) +\\|")
        .containsPattern("\\| +1g\\.10gb @0 +MIG-\\S+ +")
        .containsPattern("\\| 0 +1g\\.10gb@0 +gpu-0-mig-1g10gb-19-0 +default/infer +infer-slice-\\S+ +claim +\\|");
    String table = run.out().substring(run.out().indexOf("COMPARISON"));
    assertThat(table).containsPattern("cards held \\(node/GPU\\) +1 +1")
        .containsPattern("cards shared as +MIG 1g\\.10gb +time-slicing, 4 replicas");
  }

  @Test
  void theLabsWorkloadsThroughTheDevicePluginAndThroughDraSideBySide(@TempDir Path tmp) {
    CliRun run = CliRun.wide("simulate", Path.of("..", "examples", "dra", "lab-device-plugin.yaml").toString(),
        "--compare", Path.of("..", "examples", "dra", "lab-shared-claim.yaml").toString(), "-q", "--out",
        tmp.resolve("out").toString());
    assertThat(run.exitCode()).isZero();
    String table = run.out().substring(run.out().indexOf("COMPARISON"));
    assertThat(table).containsPattern("most pods on one card at once +4 +4")
        // The fifth pod's template claim has no GpuConfig: the driver's default, time-slicing with its Default interval.
        // What the device plugin does (its time-slicing config's replicas), beside what each claim's config asks.
        .containsPattern("cards shared as +time-slicing, 4 replicas +time-sliced Default, time-sliced Long")
        .contains("why pods waited\n    gpu-sharing-lab-device-plugin: 1 pod(s): 0/1 nodes are available: 1 "
            + "Insufficient nvidia.com/gpu.")
        .contains("\n    gpu-sharing-lab-dra: 1 pod(s): 0/1 nodes are available: 1 cannot allocate all claims.")
        .containsPattern("invariants violated +0 +0")
        .containsPattern("pending time +p50 0s, p90 2m30s, p99 2m30s, max 2m30s over 5 pods +p50 0s");
  }
}
