package io.gpufleet.nvml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class NativeLibraryTest {

  private static final NativeLibrary LIB = new NativeLibrary("NVML", "libgpufleet-test-absent.so.1", "--nvml-library",
      "GPUFLEET_NVML");

  @Test
  void theOptionWinsOverTheEnvironmentWhichWinsOverTheSoname() {
    Map<String, String> env = Map.of("GPUFLEET_NVML", "/from/env.so");
    assertThat(LIB.resolve(Optional.of(Path.of("/from/option.so")), env)).isEqualTo("/from/option.so");
    assertThat(LIB.resolve(Optional.empty(), env)).isEqualTo("/from/env.so");
    assertThat(LIB.resolve(Optional.empty(), Map.of("GPUFLEET_NVML", " "))).isEqualTo("libgpufleet-test-absent.so.1");
  }

  @Test
  void aMissingLibraryIsOneLineNamingWhereItCameFrom() {
    try (Arena arena = Arena.ofConfined()) {
      assertThatThrownBy(() -> LIB.open(Optional.empty(), Map.of("GPUFLEET_NVML", "/no/such/libnvidia-ml.so.1"), arena))
          .isInstanceOf(GpuUnavailable.class)
          .hasMessage("no GPU here: NVML library /no/such/libnvidia-ml.so.1 (from GPUFLEET_NVML) does not exist");
      assertThatThrownBy(() -> LIB.open(Optional.empty(), Map.of(), arena))
          .isInstanceOf(GpuUnavailable.class)
          .hasMessageContaining("cannot load NVML (libgpufleet-test-absent.so.1)")
          .hasMessageContaining("--nvml-library or GPUFLEET_NVML")
          .hasMessageNotContaining("\n");
    }
  }

  @Test
  void nvmlAndTheCudaDriverOpenThroughTheRealFfmPathOrSayNoGpu() {
    // Where the driver is installed this loads it; elsewhere it must be GpuUnavailable, never another exception.
    try (NvmlLibrary nvml = NvmlLibrary.open(Optional.of(Path.of("/no/such/nvml.so")), Map.of())) {
      throw new AssertionError("opened a library that does not exist: " + nvml);
    } catch (GpuUnavailable e) {
      assertThat(e.getMessage()).contains("--nvml-library");
    }
  }
}
