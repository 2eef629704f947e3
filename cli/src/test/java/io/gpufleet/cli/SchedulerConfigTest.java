package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchedulerConfigTest {

  private static final Path FLEET = Path.of("..", "examples", "scheduling", "gpu-fleet.yaml");
  private static final Path PACKING = Path.of("..", "examples", "scheduling", "bin-packing-scheduler.yaml");

  private static long podsOn(String out, String node) {
    return out.lines().filter(l -> l.contains("llm-") && l.contains(node)).count();
  }

  @Test
  void theDefaultProfileSpreadsAndAMostAllocatedProfilePacks() {
    String spread = CliRun.of("schedule", "-f", FLEET.toString()).out();
    assertThat(podsOn(spread, "g5-12xlarge-b")).isEqualTo(2);
    String packed = CliRun.of("schedule", "-f", FLEET.toString(), "--config", PACKING.toString()).out();
    assertThat(podsOn(packed, "g5-12xlarge-a")).isEqualTo(2);
  }

  @Test
  void podsPickTheirProfileBySchedulerNameAndAnUnknownOneStaysPendingWithoutAnEvent(@TempDir Path dir)
      throws IOException {
    Path cfg = dir.resolve("profiles.yaml");
    Files.writeString(cfg, """
        apiVersion: kubescheduler.config.k8s.io/v1
        kind: KubeSchedulerConfiguration
        profiles:
        - schedulerName: default-scheduler
        - schedulerName: gpu-packer
          pluginConfig:
          - name: NodeResourcesFit
            args:
              scoringStrategy:
                type: MostAllocated
                resources: [{name: cpu, weight: 1}, {name: memory, weight: 1}, {name: nvidia.com/gpu, weight: 5}]
        """);
    Path pods = dir.resolve("pods.yaml");
    Files.writeString(pods, """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: packed}
        spec:
          replicas: 2
          selector: {matchLabels: {app: packed}}
          template:
            metadata: {labels: {app: packed}}
            spec:
              schedulerName: gpu-packer
              tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
              containers:
              - {name: c, image: i, resources: {requests: {cpu: "4", memory: 16Gi}, limits: {nvidia.com/gpu: 1}}}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: stray}
        spec:
          schedulerName: volcano
          containers: [{name: c, image: i}]
        """);
    String out = CliRun.of("schedule", "-f", FLEET.toString(), "-f", pods.toString(), "--config", cfg.toString()).out();
    // The default profile spreads llm (one replica on the emptier node b); gpu-packer packs onto a.
    assertThat(podsOn(out, "g5-12xlarge-b")).isEqualTo(2);
    assertThat(out.lines().filter(l -> l.contains("packed-") && l.contains("g5-12xlarge-a")).count()).isEqualTo(2);
    assertThat(out.lines().filter(l -> l.contains("stray"))).singleElement().satisfies(l -> {
      assertThat(l).contains("Pending");
      assertThat(l).doesNotContain("FailedScheduling");
    });
    String json = CliRun.of("schedule", "-f", FLEET.toString(), "-f", pods.toString(), "--config", cfg.toString(),
        "-o", "json").out();
    assertThat(json).contains("\"reason\" : \"SchedulerNotFound\"").contains("\"boundBy\" : \"gpu-packer\"");
  }

  @Test
  void severalProfilesNeedNamesOfTheirOwn(@TempDir Path dir) throws IOException {
    Path cfg = dir.resolve("profiles.yaml");
    Files.writeString(cfg, """
        apiVersion: kubescheduler.config.k8s.io/v1
        kind: KubeSchedulerConfiguration
        profiles:
        - schedulerName: a
        - schedulerName: a
        - plugins: {}
        """);
    CliRun run = CliRun.of("schedule", "-f", FLEET.toString(), "--config", cfg.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains(cfg + ":5:18: profiles[1].schedulerName: Duplicate value: \"a\"")
        .contains(cfg + ":6:3: profiles[2]: schedulerName: Required value");
  }

  @Test
  void aBadSchedulerConfigurationIsReportedAtItsLine(@TempDir Path dir) throws IOException {
    Path bad = dir.resolve("sched.yaml");
    Files.writeString(bad, """
        apiVersion: kubescheduler.config.k8s.io/v1
        kind: KubeSchedulerConfiguration
        profiles:
        - pluginConfig:
          - name: NodeResourcesFit
            args:
              scoringStrategy:
                type: RequestedToCapacityRatio
                requestedToCapacityRatio:
                  shape: [{utilization: 50, score: 5}, {utilization: 20, score: 11}]
        """);
    CliRun run = CliRun.of("schedule", "-f", FLEET.toString(), "--config", bad.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains(bad + ":10:48: profiles[0].pluginConfig[0].args.scoringStrategy"
        + ".requestedToCapacityRatio.shape[1]: utilization: values must be sorted in increasing order");
    assertThat(run.err()).contains("score: expected 0..10, found 11");
  }

  @Test
  void pluginArgsTheTwinDoesNotHonourAreRefusedAtTheirLine(@TempDir Path dir) throws IOException {
    Path cfg = dir.resolve("sched.yaml");
    Files.writeString(cfg, """
        apiVersion: kubescheduler.config.k8s.io/v1
        kind: KubeSchedulerConfiguration
        profiles:
        - pluginConfig:
          - name: NodeAffinity
            args:
              addedAffinity: {}
          - name: NodeResourcesBalancedAllocation
            args:
              resources:
              - {name: cpu, weight: 1}
              - {name: nvidia.com/gpu, weight: 3}
          - name: NodeResourcesFit
            args:
              ignoredResourceGroups: [example.com/x]
              unknownArg: true
        """);
    CliRun run = CliRun.of("schedule", "-f", FLEET.toString(), "--config", cfg.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains(cfg + ":5:11: profiles[0].pluginConfig[0].name: args of plugin NodeAffinity"
        + " are not supported by gpufleet");
    assertThat(run.err()).contains(cfg + ":12:40: profiles[0].pluginConfig[1].args.resources[1].weight:"
        + " Invalid value: 3: must be 1");
    assertThat(run.err()).contains("profiles[0].pluginConfig[2].args.ignoredResourceGroups[0]: Invalid value:"
        + " \"example.com/x\": is a group and should not contain '/'");
    assertThat(run.err()).contains("profiles[0].pluginConfig[2].args.unknownArg: unknown field \"unknownArg\"");
    assertThat(run.err()).doesNotContain("Exception");
  }
}
