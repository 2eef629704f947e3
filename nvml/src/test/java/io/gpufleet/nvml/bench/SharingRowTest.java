package io.gpufleet.nvml.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SharingRowTest {

  @Test
  void aggregatesAllTenantsOverTheLongestLoop() {
    List<Long> a = new ArrayList<>();
    List<Long> b = new ArrayList<>();
    for (long i = 1; i <= 100; i++) {
      a.add(i * 1_000_000);
      b.add((100 + i) * 1_000_000);
    }
    SharingRow r = SharingRow.of(TenantKernel.BIG, BenchMode.MPS_CAPPED, 2, 0,
        List.of(new TenantRun(a, 2_000_000_000L, 50), new TenantRun(b, 4_000_000_000L, 150)));
    assertThat(r.requests()).isEqualTo(200);
    assertThat(r.throughput()).isEqualTo(50.0); // 200 requests over the longer tenant's 4 s
    // Sorted 1..200 ms: index floor(0.5*200)=100 is 101 ms; floor(0.99*200)=198 is 199 ms.
    assertThat(r.p50Ms()).isEqualTo(101.0);
    assertThat(r.p99Ms()).isEqualTo(199.0);
    assertThat(r.gpuMsPerRequest()).isEqualTo(1.0);
    assertThat(r.threadPercentage()).isEqualTo(Optional.of(50));
    assertThat(r.mode()).isEqualTo("mps-capped");
    assertThat(r.closedLoop()).isTrue();
  }

  @Test
  void aRunWithNoCompletedRequestIsAFailureNotARow() {
    assertThatThrownBy(() -> SharingRow.of(TenantKernel.SMALL, BenchMode.MPS, 1, 0,
        List.of(new TenantRun(List.of(), 1, 0)))).isInstanceOf(BenchFailure.class).hasMessageContaining("no request");
  }

  @Test
  void theCapIsAnEqualShareOfTheSmsAsTheDevicePluginSetsIt() {
    assertThat(BenchMode.MPS_CAPPED.threadPercentage(8)).hasValue(12);
    assertThat(BenchMode.MPS_CAPPED.threadPercentage(3)).hasValue(33);
    assertThat(BenchMode.MPS.threadPercentage(8)).isEmpty();
    assertThat(BenchMode.TIME_SLICING.usesMps()).isFalse();
  }

  @Test
  void theKernelsHaveTheDemandsOfTheH200MeasurementsWorkloads() {
    // io.gpufleet.model.advise.H200Measurement: BIG reads 24 x 8192^2 bf16 weights per token for 4 tokens,
    // SMALL launches 768 kernels; the calibration reads rows of these two workloads by name.
    var big = io.gpufleet.model.advise.H200Measurement.BIG;
    assertThat((double) TenantKernel.BIG.bytesPerRequest()).isEqualTo(big.bytesPerRequest());
    assertThat(TenantKernel.SMALL.kernelsPerRequest())
        .isEqualTo(io.gpufleet.model.advise.H200Measurement.SMALL.kernels());
  }
}
