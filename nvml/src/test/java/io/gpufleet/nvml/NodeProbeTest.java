package io.gpufleet.nvml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpufleet.model.gpu.ComputeCapability;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeProbeTest {

  @Test
  void readsEveryCardWithMemoryInWholeMebibytesAsNvidiaSmiPrintsThem() {
    NodeFacts facts = NodeProbe.read(new FakeNvml("580.159.04", List.of(FakeNvml.h200(0), FakeNvml.h200(1))));
    assertThat(facts.driverVersion()).isEqualTo("580.159.04");
    assertThat(facts.gpus()).extracting(GpuFacts::index).containsExactly(0, 1);
    GpuFacts g = facts.gpus().getFirst();
    // 143771 MiB and 123456 bytes: nvidia-smi shows 143771.
    assertThat(g.memoryMiB()).isEqualTo(143771);
    assertThat(g.memoryUsedMiB()).isEqualTo(615);
    assertThat(g.compute()).isEqualTo(new ComputeCapability(9, 0));
    assertThat(g.migEnabled()).isFalse();
    assertThat(g.mig()).hasValue(new Nvml.MigModes(0, 0));
    assertThat(g.computeMode()).isEqualTo(ComputeMode.DEFAULT);
    assertThat(g.uuid()).isEqualTo("GPU-00000000");
  }

  @Test
  void aCardWithoutMigOrUtilisationHasThemEmptyNotAnError() {
    FakeNvml.Card t4 = new FakeNvml.Card("Tesla T4", "GPU-t4", 15360L << 20, 0, new ComputeCapability(7, 5), null,
        List.of(), 3, null);
    NodeFacts facts = NodeProbe.read(new FakeNvml("535.1", List.of(t4))
        .failing("nvmlDeviceGetUtilizationRates", NvmlReturn.ERROR_NOT_SUPPORTED));
    GpuFacts g = facts.gpus().getFirst();
    assertThat(g.mig()).isEmpty();
    assertThat(g.utilization()).isEmpty();
    assertThat(g.computeMode()).isEqualTo(ComputeMode.EXCLUSIVE_PROCESS);
  }

  @Test
  void withMigEnabledItListsTheMigDevicesInTheirSlots() {
    FakeNvml.Card small = new FakeNvml.Card("NVIDIA H200 MIG 1g.18gb", "MIG-a", 16384L << 20, 0,
        new ComputeCapability(9, 0), null, List.of(), 0, null);
    FakeNvml.Card big = new FakeNvml.Card("NVIDIA H200 MIG 3g.71gb", "MIG-b", 71424L << 20, 0,
        new ComputeCapability(9, 0), null, List.of(), 0, null);
    FakeNvml.Card card = new FakeNvml.Card("NVIDIA H200", "GPU-m", 143771L << 20, 0, new ComputeCapability(9, 0),
        new Nvml.MigModes(1, 1), FakeNvml.slots(small, null, big, null), 0, new Nvml.Utilization(5, 1));
    GpuFacts g = NodeProbe.read(new FakeNvml("580", List.of(card))).gpus().getFirst();
    assertThat(g.migEnabled()).isTrue();
    assertThat(g.migDevices()).extracting(GpuFacts.MigDeviceFacts::index, GpuFacts.MigDeviceFacts::uuid,
            GpuFacts.MigDeviceFacts::memoryMiB)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(0, "MIG-a", 16384L),
            org.assertj.core.groups.Tuple.tuple(2, "MIG-b", 71424L));
  }

  @Test
  void aFailureOtherThanNotSupportedIsAnErrorWithItsCodesName() {
    FakeNvml nvml = new FakeNvml("580", List.of(FakeNvml.h200(0)))
        .failing("nvmlDeviceGetMigMode", NvmlReturn.ERROR_GPU_IS_LOST);
    assertThatThrownBy(() -> NodeProbe.read(nvml)).isInstanceOf(NvmlException.class)
        .hasMessageContaining("nvmlDeviceGetMigMode").hasMessageContaining("NVML_ERROR_GPU_IS_LOST (15)");
  }

  @Test
  void noCardIsNoGpuHere() {
    assertThatThrownBy(() -> NodeProbe.read(new FakeNvml("580", List.of()))).isInstanceOf(GpuUnavailable.class)
        .hasMessageContaining("no GPU");
  }
}
