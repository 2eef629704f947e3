package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@code examples/dra/partitionable-mig.yaml}: NVIDIA's DRA driver's DynamicMIG in {@code schedule}. */
class PartitionableMigExampleTest {

  private static final String EXAMPLE = Path.of("..", "examples", "dra", "partitionable-mig.yaml").toString();

  @Test
  void underDynamicMigA1gAndA3gShareTheH100AndTheWholeCardWaits() {
    CliRun run = CliRun.wide("schedule", "-f", EXAMPLE, "--dra-feature-gates", "DynamicMIG=true");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .containsPattern("small +0/1 +ContainerCreating +0 +0s +h100-node ")
        .containsPattern("medium +0/1 +ContainerCreating +0 +0s +h100-node ")
        .containsPattern("whole +0/1 +Pending ")
        .containsPattern("mig-1g +allocated,reserved +h100-node +mig: gpu.nvidia.com/h100-node/gpu-0-mig-1g10gb-19-0 ")
        // Memory slice 0 is the 1g's, so the 3g takes the placement at slice 4.
        .containsPattern("mig-3g +allocated,reserved +h100-node +mig: gpu.nvidia.com/h100-node/gpu-0-mig-3g40gb-9-4 ")
        .contains("pod/whole   0/1 nodes are available: 1 cannot allocate all claims.");
    assertThat(run.err()).isEmpty();
  }

  @Test
  void withoutTheGateTheCardIsOneDeviceAndOnlyTheWholeCardClaimFits() {
    CliRun run = CliRun.wide("schedule", "-f", EXAMPLE);
    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .containsPattern("small +0/1 +Pending ")
        .containsPattern("medium +0/1 +Pending ")
        .containsPattern("whole +0/1 +ContainerCreating +0 +0s +h100-node ");
  }

  @Test
  void anUnknownDriverGateIsAnErrorByName() {
    CliRun run = CliRun.wide("schedule", "-f", EXAMPLE, "--dra-feature-gates", "ComputeDomainCliques=true");
    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err()).contains("--dra-feature-gates: expected one of TimeSlicingSettings, MPSSupport, DynamicMIG, "
        + "found \"ComputeDomainCliques\"");
  }
}
