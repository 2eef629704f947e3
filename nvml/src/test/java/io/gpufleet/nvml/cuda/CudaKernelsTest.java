package io.gpufleet.nvml.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.nvml.GpuUnavailable;
import io.gpufleet.nvml.bench.Arrivals;
import io.gpufleet.nvml.bench.DeviceWorkload;
import io.gpufleet.nvml.bench.TenantKernel;
import io.gpufleet.nvml.bench.TenantLoop;
import io.gpufleet.nvml.bench.TenantRun;
import io.gpufleet.nvml.bench.Ticker;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The shipped PTX's kernels on a real card, checked against the same arithmetic on the host. */
@Tag("gpu")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CudaKernelsTest {

  private CudaDriver cuda;
  private CudaDriver.Context context;
  private String unavailable;

  @BeforeAll
  void open() {
    try {
      cuda = CudaDriver.open(Optional.empty(), Map.of());
      context = cuda.primaryContext(0);
    } catch (GpuUnavailable e) {
      unavailable = e.getMessage();
    }
  }

  @BeforeEach
  void needsAGpu() {
    Assumptions.assumeTrue(unavailable == null, () -> "skipped, needs a GPU: " + unavailable);
  }

  @AfterAll
  void close() {
    if (cuda != null) {
      cuda.release(context);
      cuda.close();
    }
  }

  private static String ptx() throws IOException {
    try (InputStream in = CudaKernelsTest.class.getResourceAsStream(DeviceWorkload.PTX_RESOURCE)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void streamReadReadsEveryWordOnce() throws IOException {
    CudaDriver.Module module = cuda.loadPtx(ptx());
    CudaDriver.Kernel read = cuda.kernel(module, "stream_read");
    int words32 = 4 << 20; // 16 MiB
    int blocks = 96;
    int threads = 256;
    try (Arena a = Arena.ofConfined()) {
      MemorySegment host = a.allocate(JAVA_INT, words32);
      SplittableRandom random = new SplittableRandom(7);
      int expected = 0;
      for (int i = 0; i < words32; i++) {
        int v = random.nextInt();
        host.setAtIndex(JAVA_INT, i, v);
        expected ^= v;
      }
      long in = cuda.alloc(words32 * 4L);
      long out = cuda.alloc((long) blocks * threads * 4);
      cuda.copyToDevice(in, host, words32 * 4L);
      MemorySegment values = a.allocate(JAVA_LONG, 3);
      values.setAtIndex(JAVA_LONG, 0, in);
      values.setAtIndex(JAVA_LONG, 1, words32 / 4);
      values.setAtIndex(JAVA_LONG, 2, out);
      MemorySegment params = a.allocate(ADDRESS, 3);
      for (int i = 0; i < 3; i++) {
        params.setAtIndex(ADDRESS, i, values.asSlice(i * 8L));
      }
      CudaDriver.Event start = cuda.event();
      CudaDriver.Event end = cuda.event();
      cuda.record(start);
      cuda.launch(read, blocks, threads, params);
      cuda.record(end);
      cuda.synchronize(end);
      float ms = cuda.elapsedMs(start, end);
      MemorySegment result = a.allocate(JAVA_INT, (long) blocks * threads);
      cuda.copyToHost(result, out, (long) blocks * threads * 4);
      int got = 0;
      for (int i = 0; i < blocks * threads; i++) {
        got ^= result.getAtIndex(JAVA_INT, i);
      }
      assertThat(got).isEqualTo(expected);
      assertThat(ms).isPositive();
      cuda.destroy(start);
      cuda.destroy(end);
      cuda.free(in);
      cuda.free(out);
    }
    cuda.unload(module);
  }

  @Test
  void reluStepIsTheActivation() throws IOException {
    CudaDriver.Module module = cuda.loadPtx(ptx());
    CudaDriver.Kernel relu = cuda.kernel(module, "relu_step");
    int n = 1000;
    try (Arena a = Arena.ofConfined()) {
      MemorySegment host = a.allocate(JAVA_FLOAT, n);
      for (int i = 0; i < n; i++) {
        host.setAtIndex(JAVA_FLOAT, i, i - 500f);
      }
      long x = cuda.alloc(n * 4L);
      cuda.copyToDevice(x, host, n * 4L);
      MemorySegment values = a.allocate(16, 8);
      values.set(JAVA_LONG, 0, x);
      values.set(JAVA_INT, 8, n);
      MemorySegment params = a.allocate(ADDRESS, 2);
      params.setAtIndex(ADDRESS, 0, values);
      params.setAtIndex(ADDRESS, 1, values.asSlice(8));
      cuda.launch(relu, 4, 256, params);
      cuda.synchronizeContext();
      MemorySegment back = a.allocate(JAVA_FLOAT, n);
      cuda.copyToHost(back, x, n * 4L);
      for (int i = 0; i < n; i++) {
        assertThat(back.getAtIndex(JAVA_FLOAT, i)).isEqualTo(Math.max((i - 500f) * 0.5f - 1f, 0f));
      }
      cuda.free(x);
    }
    cuda.unload(module);
  }

  @Test
  void aSmallTenantRunsRequestsTimedByEvents() {
    try (DeviceWorkload w = new DeviceWorkload(cuda, TenantKernel.SMALL)) {
      TenantRun run = TenantLoop.run(w, new Arrivals.Closed(), 300_000_000L, Ticker.SYSTEM);
      System.out.printf("small: %d requests in %.3f s, GPU %.3f ms each%n", run.latencyNanos().size(),
          run.elapsedNanos() / 1e9, run.gpuMillis() / run.latencyNanos().size());
      assertThat(run.latencyNanos()).isNotEmpty();
      assertThat(run.gpuMillis()).isPositive();
      // The events bracket the request's kernels, so the GPU time is within the host's latency.
      assertThat(run.gpuMillis() * 1e6).isLessThanOrEqualTo(run.latencyNanos().stream().mapToLong(l -> l).sum() * 1.0);
    }
  }
}
