package io.gpufleet.nvml;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class NvmlReturnTest {

  @Test
  void everyCodeOfTheHeaderMapsBackToItsName() {
    for (NvmlReturn r : NvmlReturn.values()) {
      if (r != NvmlReturn.UNRECOGNIZED) {
        assertThat(NvmlReturn.of(r.code())).isEqualTo(r);
        assertThat(r.headerName()).startsWith(r.code() == 0 ? "NVML_SUCCESS" : "NVML_ERROR_");
      }
    }
    // nvml.h numbers 0..30 densely, then NVML_ERROR_UNKNOWN = 999.
    assertThat(Arrays.stream(NvmlReturn.values()).mapToInt(NvmlReturn::code).filter(c -> c >= 0 && c < 999))
        .containsExactlyInAnyOrder(java.util.stream.IntStream.rangeClosed(0, 30).boxed().toArray(Integer[]::new));
    assertThat(NvmlReturn.of(9).headerName()).isEqualTo("NVML_ERROR_DRIVER_NOT_LOADED");
    assertThat(NvmlReturn.of(999).headerName()).isEqualTo("NVML_ERROR_UNKNOWN");
  }

  @Test
  void aCodeNewerThanTheHeaderIsUnrecognisedButKeepsItsNumber() {
    assertThat(NvmlReturn.of(31)).isEqualTo(NvmlReturn.UNRECOGNIZED);
    NvmlException e = new NvmlException("nvmlDeviceGetName", 31, "");
    assertThat(e.code()).isEqualTo(31);
    assertThat(e.getMessage()).isEqualTo("nvmlDeviceGetName failed: NVML_ERROR_UNRECOGNIZED (31)");
  }

  @Test
  void onlyMissingDriverOrDeviceCodesMeanNoGpu() {
    assertThat(NvmlReturn.ERROR_DRIVER_NOT_LOADED.meansNoGpu()).isTrue();
    assertThat(NvmlReturn.ERROR_GPU_NOT_FOUND.meansNoGpu()).isTrue();
    assertThat(NvmlReturn.ERROR_INVALID_ARGUMENT.meansNoGpu()).isFalse();
    assertThat(NvmlReturn.ERROR_NOT_SUPPORTED.meansNoGpu()).isFalse();
  }
}
