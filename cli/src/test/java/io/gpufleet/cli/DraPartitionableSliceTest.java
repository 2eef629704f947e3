package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ResourceSlices written by hand with shared counters, per-device node selection and shareable devices,
 * read and allocated by {@code schedule} as the API server and the allocator would.
 */
class DraPartitionableSliceTest {

  private static final String NODE = """
      apiVersion: v1
      kind: Node
      metadata: {name: node-1}
      status:
        allocatable: {cpu: "8", memory: 32Gi, pods: "110"}
      ---
      apiVersion: resource.k8s.io/v1
      kind: DeviceClass
      metadata: {name: class-a}
      spec:
        selectors:
        - cel: {expression: 'device.driver == "driver-a"'}
      """;

  private static String pod(String name, String claim) {
    return """
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: %s}
        spec:
          resourceClaims:
          - {name: dev, resourceClaimName: %s}
          containers:
          - name: c
            resources:
              claims: [{name: dev}]
        """.formatted(name, claim);
  }

  private static String claim(String name, String more) {
    return """
        ---
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaim
        metadata: {name: %s}
        spec:
          devices:
            requests:
            - name: req-0
              exactly:
                deviceClassName: class-a
        %s""".formatted(name, more);
  }

  private static CliRun schedule(Path dir, String yaml) throws IOException {
    Path f = dir.resolve("c.yaml");
    Files.writeString(f, yaml);
    return CliRun.of("schedule", "-f", f.toString());
  }

  @Test
  void twoDevicesDrawingOnOneCounterSetCannotBothBeAllocated(@TempDir Path dir) throws IOException {
    String slices = """
        ---
        apiVersion: resource.k8s.io/v1
        kind: ResourceSlice
        metadata: {name: counters}
        spec:
          driver: driver-a
          pool: {name: pool-1, generation: 1, resourceSliceCount: 2}
          perDeviceNodeSelection: true
          sharedCounters:
          - name: counter-set-1
            counters:
              memory: {value: 8Gi}
        ---
        apiVersion: resource.k8s.io/v1
        kind: ResourceSlice
        metadata: {name: devices}
        spec:
          driver: driver-a
          pool: {name: pool-1, generation: 1, resourceSliceCount: 2}
          perDeviceNodeSelection: true
          devices:
          - name: device-1
            nodeName: node-1
            consumesCounters:
            - counterSet: counter-set-1
              counters:
                memory: {value: 6Gi}
          - name: device-2
            nodeName: node-1
            consumesCounters:
            - counterSet: counter-set-1
              counters:
                memory: {value: 6Gi}
        """;
    CliRun run = schedule(dir, NODE + slices + claim("c1", "") + claim("c2", "") + pod("p1", "c1") + pod("p2", "c2"));
    assertThat(run.exitCode()).isZero();
    assertThat(run.err()).isEmpty();
    assertThat(run.out()).containsPattern("p1 +0/1 +ContainerCreating ").containsPattern("p2 +0/1 +Pending ")
        .containsPattern("c1 +allocated,reserved +node-1 +req-0: driver-a/pool-1/device-1 ");
  }

  @Test
  void aShareableDeviceGoesToTwoClaimsWhileItsCapacityLasts(@TempDir Path dir) throws IOException {
    String slice = """
        ---
        apiVersion: resource.k8s.io/v1
        kind: ResourceSlice
        metadata: {name: shared}
        spec:
          driver: driver-a
          pool: {name: pool-1, generation: 1, resourceSliceCount: 1}
          nodeName: node-1
          devices:
          - name: device-1
            allowMultipleAllocations: true
            capacity:
              bandwidth:
                value: "10"
                requestPolicy:
                  default: "2"
                  validRange: {min: "2", step: "2", max: "6"}
        """;
    String asks = """
                capacity:
                  requests: {bandwidth: "3"}
        """;
    CliRun run = schedule(dir, NODE + slice + claim("c1", asks) + claim("c2", asks) + claim("c3", asks)
        + pod("p1", "c1") + pod("p2", "c2") + pod("p3", "c3"));
    assertThat(run.exitCode()).isZero();
    // Each share is 3 rounded up to 4: two fit in 10, the third does not.
    assertThat(run.out()).containsPattern("p1 +0/1 +ContainerCreating ").containsPattern("p2 +0/1 +ContainerCreating ")
        .containsPattern("p3 +0/1 +Pending ");
  }

  @Test
  void aDeviceForANodeSelectorIsRefusedAtItsLine(@TempDir Path dir) throws IOException {
    String slice = """
        ---
        apiVersion: resource.k8s.io/v1
        kind: ResourceSlice
        metadata: {name: s}
        spec:
          driver: driver-a
          pool: {name: pool-1, generation: 1, resourceSliceCount: 1}
          perDeviceNodeSelection: true
          devices:
          - name: device-1
            allNodes: true
        """;
    CliRun run = schedule(dir, NODE + slice);
    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err()).contains("not modelled by gpufleet: allNodes").doesNotContain("Exception");
  }
}
