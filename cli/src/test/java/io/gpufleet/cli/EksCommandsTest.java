package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The EKS set-ups through the commands that read manifests: an old Karpenter API gets one message
 * everywhere, and a Bottlerocket node class's device-plugin settings reach smi and node describe.
 */
class EksCommandsTest {

  static final String OLD_NODEPOOL = """
      apiVersion: karpenter.sh/v1beta1
      kind: NodePool
      metadata: {name: gpu}
      spec:
        template:
          spec:
            nodeClassRef: {apiVersion: karpenter.k8s.aws/v1beta1, kind: EC2NodeClass, name: default}
      ---
      apiVersion: v1
      kind: Node
      metadata:
        name: gpu-1
        labels: {node.kubernetes.io/instance-type: g5.xlarge}
      status:
        capacity: {cpu: "4", memory: 16Gi, pods: "58", nvidia.com/gpu: "1"}
        allocatable: {cpu: "4", memory: 16Gi, pods: "58", nvidia.com/gpu: "1"}
      """;

  static final String MESSAGE = "karpenter.sh/v1beta1 NodePool \"gpu\" is served by Karpenter v0.32 to v1.0 (v1.1 "
      + "stopped serving v1beta1); gpufleet reads karpenter.sh/v1 NodePool only, so this object is not read.";

  @Test
  void anOldNodePoolIsTheSameWarningInEveryCommandAndAnErrorOnlyInSimulate(@TempDir Path dir) throws Exception {
    Path f = Files.writeString(dir.resolve("old.yaml"), OLD_NODEPOOL);
    for (String command : new String[] {"schedule", "smi"}) {
      CliRun run = CliRun.of(command, "-f", f.toString());
      assertThat(run.exitCode()).as(command).isZero();
      assertThat(run.err()).as(command).contains(f + ":1:13: warning: apiVersion: " + MESSAGE);
    }
    CliRun lint = CliRun.of("lint", "-f", f.toString());
    assertThat(lint.out()).contains(MESSAGE, "[karpenter-old-api]").doesNotContain("manifest-rejected");
    assertThat(lint.err()).doesNotContain(MESSAGE);
    CliRun simulate = CliRun.of("simulate", "-f", f.toString(), "--out", dir.resolve("out").toString());
    assertThat(simulate.exitCode()).isEqualTo(2);
    assertThat(simulate.err()).contains(f + ":1:13: apiVersion: a simulation does not run without its NodePools",
        MESSAGE);
  }

  /** A node that reports no GPU resources: the model says what it advertises, under its class's settings. */
  @Test
  void scheduleSharesANodeOfABottlerocketClassFourWays(@TempDir Path dir) throws Exception {
    Path f = Files.writeString(dir.resolve("dump.yaml"), """
        apiVersion: karpenter.k8s.aws/v1
        kind: EC2NodeClass
        metadata: {name: br}
        spec:
          amiSelectorTerms: [{alias: bottlerocket@latest}]
          userData: |
            [settings.kubelet-device-plugins.nvidia]
            device-sharing-strategy = "time-slicing"
            [settings.kubelet-device-plugins.nvidia.time-slicing]
            replicas = 4
        ---
        apiVersion: v1
        kind: Node
        metadata:
          name: gpu-1
          labels: {node.kubernetes.io/instance-type: g5.xlarge, karpenter.k8s.aws/ec2nodeclass: br}
        status:
          capacity: {cpu: "4", memory: 16Gi, pods: "58"}
          allocatable: {cpu: "4", memory: 16Gi, pods: "58"}
        ---
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: infer}
        spec:
          replicas: 5
          selector: {matchLabels: {app: infer}}
          template:
            metadata: {labels: {app: infer}}
            spec:
              containers:
              - {name: c, image: vllm/vllm-openai, resources: {limits: {nvidia.com/gpu: 1}}}
        """);
    CliRun run = CliRun.of("schedule", "-f", f.toString());
    assertThat(run.exitCode()).isZero();
    assertThat(run.out().lines().filter(l -> l.contains(" gpu-1 "))).hasSize(4);
    assertThat(run.out().lines().filter(l -> l.contains("Pending"))).hasSize(1);
  }

  @Test
  void aBottlerocketNodeClassTimeSlicesItsDumpedNodes(@TempDir Path dir) throws Exception {
    Path f = Files.writeString(dir.resolve("dump.yaml"), """
        apiVersion: karpenter.k8s.aws/v1
        kind: EC2NodeClass
        metadata: {name: br}
        spec:
          amiSelectorTerms: [{alias: bottlerocket@latest}]
          userData: |
            [settings.kubelet-device-plugins.nvidia]
            device-sharing-strategy = "time-slicing"
            [settings.kubelet-device-plugins.nvidia.time-slicing]
            replicas = 4
        ---
        apiVersion: v1
        kind: Node
        metadata:
          name: gpu-1
          labels: {node.kubernetes.io/instance-type: g5.xlarge, karpenter.k8s.aws/ec2nodeclass: br}
        status:
          capacity: {cpu: "4", memory: 16Gi, pods: "58", nvidia.com/gpu: "4"}
          allocatable: {cpu: "4", memory: 16Gi, pods: "58", nvidia.com/gpu: "4"}
        """);
    CliRun smi = CliRun.of("smi", "-f", f.toString());
    assertThat(smi.exitCode()).isZero();
    assertThat(smi.out()).contains("time-slicing (4 replicas per device)");
    CliRun schedule = CliRun.of("schedule", "-f", f.toString());
    assertThat(schedule.err()).doesNotContain("EC2NodeClass \"br\" is not used");
    CliRun describe = CliRun.of("node", "describe", "-f", f.toString(), "--node=gpu-1");
    assertThat(describe.out()).contains("Config:             bottlerocket:br (Bottlerocket's built-in device plugin",
        "Sharing:            time-slicing, 4 replicas per device");
  }
}
