package io.gpufleet.nvml.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class TenantRunTest {

  @Test
  void readsBackWhatItWrites() {
    TenantRun run = new TenantRun(List.of(3_400_000L, 3_500_001L), 4_000_000_000L, 6.75);
    assertThat(TenantRun.parse(run.text())).isEqualTo(run);
  }

  @Test
  void aGarbledReportNamesTheLine() {
    assertThatThrownBy(() -> TenantRun.parse("gpufleet-tenant-run 1\nelapsed 5\ngpu_ms 1\nrequests 0\n"))
        .hasMessage("line 2: expected \"elapsed_ns <n>\", found \"elapsed 5\"");
    assertThatThrownBy(() -> TenantRun.parse("gpufleet-tenant-run 1\nelapsed_ns 5\ngpu_ms 1\nrequests 2\n7\n"))
        .hasMessage("expected 2 latencies, found 1");
    assertThatThrownBy(() -> TenantRun.parse("Exception in thread main")).hasMessageStartingWith("line 1:");
  }
}
