package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A KubeSchedulerConfiguration read as kube-scheduler reads it (issue 33 item 3): strictly decoded
 * (apimachinery's {@code strict decoding error: unknown field "..."}), enabled plugin names checked
 * against the in-tree registry (framework.go updatePluginList: {@code FilterPlugin "X" does not exist}),
 * {@code filter.disabled} honoured, the points the twin cannot change refused by name.
 */
class SchedulerConfigStrictTest {

  private static final String HEAD = """
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: KubeSchedulerConfiguration
      """;

  /** One node of 4 CPUs and a pod asking for 8: NodeResourcesFit alone refuses it. */
  private static final String TOO_BIG = """
      apiVersion: v1
      kind: Node
      metadata: {name: small}
      status:
        capacity: {cpu: "4", memory: 16Gi, pods: "110"}
        allocatable: {cpu: "4", memory: 16Gi, pods: "110"}
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: big}
      spec:
        containers: [{name: c, image: i, resources: {requests: {cpu: "8"}}}]
      """;

  private static CliRun schedule(Path dir, String config) throws IOException {
    Path cfg = dir.resolve("cfg.yaml");
    Files.writeString(cfg, HEAD + config);
    Path in = dir.resolve("in.yaml");
    Files.writeString(in, TOO_BIG);
    return CliRun.of("schedule", "-f", in.toString(), "--config", cfg.toString());
  }

  @Test
  void anUnknownFieldIsAStrictDecodingErrorAtItsLineOnce(@TempDir Path dir) throws IOException {
    CliRun run = schedule(dir, "profilez:\n- schedulerName: default-scheduler\n");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("cfg.yaml:3:1: profilez: strict decoding error: unknown field \"profilez\"");
    assertThat(run.err().lines().filter(l -> l.contains("profilez"))).hasSize(1);
    CliRun nested = schedule(dir, "profiles:\n- schedulerName: default-scheduler\n  pluginz: {}\n");
    assertThat(nested.err()).contains("strict decoding error: unknown field \"profiles[0].pluginz\"");
  }

  @Test
  void anUnknownPluginNameIsKubeSchedulersErrorAtItsLine(@TempDir Path dir) throws IOException {
    CliRun run = schedule(dir, """
        profiles:
        - plugins:
            filter:
              enabled: [{name: GpuMagic}]
        """);
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("FilterPlugin \"GpuMagic\" does not exist").doesNotContain("Exception");
    CliRun score = schedule(dir, """
        profiles:
        - plugins:
            score:
              enabled: [{name: NodeResourcesFitt, weight: 2}]
        """);
    assertThat(score.err()).contains("ScorePlugin \"NodeResourcesFitt\" does not exist");
    CliRun notAFilter = schedule(dir, """
        profiles:
        - plugins:
            filter:
              enabled: [{name: ImageLocality}]
        """);
    assertThat(notAFilter.err()).contains("plugin \"ImageLocality\" does not extend FilterPlugin plugin");
  }

  @Test
  void disablingNodeResourcesFitsFilterBindsThePodAsKubeSchedulerWould(@TempDir Path dir) throws IOException {
    CliRun before = schedule(dir, "profiles:\n- schedulerName: default-scheduler\n");
    assertThat(before.out().lines().filter(l -> l.startsWith("default ") && l.contains(" big "))).singleElement().asString().contains("Pending");
    CliRun after = schedule(dir, """
        profiles:
        - plugins:
            filter:
              disabled: [{name: NodeResourcesFit}]
        """);
    assertThat(after.exitCode()).isZero();
    assertThat(after.out().lines().filter(l -> l.startsWith("default ") && l.contains(" big "))).singleElement().asString()
        .contains("small").doesNotContain("Pending");
    // The same through multiPoint, and '*' under filter with NodeResourcesFit the only one enabled again.
    CliRun multi = schedule(dir, """
        profiles:
        - plugins:
            multiPoint:
              disabled: [{name: NodeResourcesFit}]
        """);
    assertThat(multi.out().lines().filter(l -> l.startsWith("default ") && l.contains(" big "))).singleElement().asString().contains("small");
    CliRun star = schedule(dir, """
        profiles:
        - plugins:
            filter:
              disabled: [{name: '*'}]
              enabled: [{name: NodeResourcesFit}]
        """);
    assertThat(star.out().lines().filter(l -> l.startsWith("default ") && l.contains(" big "))).singleElement().asString().contains("Pending");
  }

  @Test
  void anExtensionPointTheTwinCannotChangeIsRefusedByName(@TempDir Path dir) throws IOException {
    CliRun run = schedule(dir, """
        profiles:
        - plugins:
            preScore:
              disabled: [{name: TaintToleration}]
        """);
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("profiles[0].plugins.preScore: not modelled by gpufleet: plugins.preScore");
  }
}
