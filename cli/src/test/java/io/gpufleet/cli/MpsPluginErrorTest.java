package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An MPS config over the GPU's client limit stops NVIDIA's MPS control daemon (cmd/mps-control-daemon/
 * mps/manager.go Daemons: {@code invalid MPS configuration: invalid device maximum allowed replicas
 * exceeded: 64 > 48}), and the plugin that waits for it advertises nothing: schedule and lint say so,
 * naming the node and the config, and simulate with the node's registration, instead of a node that
 * silently has no GPUs.
 */
class MpsPluginErrorTest {

  private static final String CLUSTER = """
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: nvidia-device-plugin-configs
        namespace: gpu-operator
        annotations:
          gpufleet.io/default-config: mps-64
      data:
        mps-64: |-
          version: v1
          sharing:
            mps:
              resources:
              - name: nvidia.com/gpu
                replicas: 64
      ---
      apiVersion: v1
      kind: Node
      metadata:
        name: h100-1
        labels: {node.kubernetes.io/instance-type: p5.48xlarge}
      status:
        allocatable: {cpu: "192", memory: 2000Gi, pods: "110"}
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: train}
      spec:
        containers:
        - name: main
          image: trainer
          resources: {limits: {nvidia.com/gpu: 1}}
      """;

  @Test
  void scheduleAndLintNameTheNodeTheConfigAndTheDaemonsError(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("cluster.yaml");
    Files.writeString(f, CLUSTER);
    String error = "invalid MPS configuration: invalid device maximum allowed replicas exceeded: 64 > 48";
    CliRun schedule = CliRun.wide("schedule", "-f", f.toString());
    assertThat(schedule.out() + schedule.err()).contains("h100-1", "mps-64", error);
    assertThat(schedule.out()).containsPattern("train +0/1 +Pending");
    CliRun lint = CliRun.wide("lint", "-f", f.toString());
    assertThat(lint.out() + lint.err()).contains("h100-1", "mps-64", error);
    CliRun simulate = CliRun.wide("simulate", "-f", f.toString(), "--for", "1m", "--out", dir.resolve("run").toString());
    assertThat(simulate.out() + simulate.err()).contains("h100-1", error);
  }
}
