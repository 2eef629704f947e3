package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A ComputeDomain (NVIDIA's DRA driver) is said to be not modelled, at its line, not skipped as unused. */
class ComputeDomainWarningTest {

  @Test
  void aComputeDomainIsWarnedAboutByNameAndItsChannelPodWaits(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("cd.yaml");
    Files.writeString(f, """
        apiVersion: v1
        kind: Node
        metadata:
          name: h100
          labels: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3, nvidia.com/gpu.count: "1",
                   nvidia.com/gpu.deploy.device-plugin: "false"}
        status:
          allocatable: {cpu: "48", memory: 192Gi, pods: "110"}
        ---
        apiVersion: resource.nvidia.com/v1beta1
        kind: ComputeDomain
        metadata:
          name: imex-channel-injection
        spec:
          numNodes: 1
          channel:
            resourceClaimTemplate:
              name: imex-channel-0
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: imex}
        spec:
          resourceClaims:
          - {name: imex-channel-0, resourceClaimTemplateName: imex-channel-0}
          containers:
          - name: c
            resources:
              claims: [{name: imex-channel-0}]
        """);
    CliRun run = CliRun.of("schedule", "-f", f.toString());
    assertThat(run.exitCode()).isZero();
    assertThat(run.err()).contains(f + ":10:1: warning: resource.nvidia.com/v1beta1 ComputeDomain "
        + "\"imex-channel-injection\" is not modelled by gpufleet: NVIDIA's DRA driver would create its channel's "
        + "ResourceClaimTemplate \"imex-channel-0\" and run IMEX daemons").doesNotContain("is not used by schedule");
    assertThat(run.out()).containsPattern("imex +0/1 +Pending ");
  }
}
