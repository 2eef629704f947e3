package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A custom mig-parted config (as in NVIDIA/k8s-dra-driver-gpu's {@code demo/specs/quickstart/mig-parted-config.yaml})
 * on a node left to NVIDIA's DRA driver: the driver publishes the MIG devices of the selected custom config,
 * as the MIG manager lays them out for device-plugin nodes.
 */
class DraCustomMigConfigTest {

  private static final String CLUSTER = """
      apiVersion: v1
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
      ---
      apiVersion: v1
      kind: Node
      metadata:
        name: h100-dra
        labels: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3, nvidia.com/gpu.count: "1",
                 nvidia.com/gpu.deploy.device-plugin: "false", nvidia.com/mig.config: balanced-h100}
      status:
        allocatable: {cpu: "48", memory: 192Gi, pods: "110"}
      ---
      apiVersion: resource.k8s.io/v1
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
      ---
      apiVersion: v1
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

  @Test
  void theDraNodePublishesTheCustomConfigsMigDevices(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("cluster.yaml");
    Files.writeString(file, CLUSTER);
    CliRun run = CliRun.of("schedule", "-f", file.toString());
    assertThat(run.exitCode()).isZero();
    // The config's 2g.20gb sits after the two 1g.10gb instances (mig-parted packs them from slice 0).
    assertThat(run.out()).containsPattern("p +0/1 +ContainerCreating +0 +0s +h100-dra ")
        .containsPattern("two-g +allocated,reserved +h100-dra +mig: gpu.nvidia.com/h100-dra/gpu-0-mig-2g20gb-14-\\d ");
  }
}
