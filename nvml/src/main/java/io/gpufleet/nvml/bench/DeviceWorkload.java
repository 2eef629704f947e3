package io.gpufleet.nvml.bench;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.gpufleet.nvml.cuda.CudaDriver;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

/**
 * A {@link TenantKernel} on the GPU through the CUDA driver: the weights allocated and filled once,
 * the kernels' argument blocks built once per layer, then each request launches its kernels on the
 * default stream between two events and waits for the second.
 */
public final class DeviceWorkload implements Workload {

  /** The PTX of {@code tenant-kernels.cu}, shipped beside it. */
  public static final String PTX_RESOURCE = "/io/gpufleet/nvml/cuda/tenant-kernels.ptx";
  static final int THREADS = 256;
  /** Blocks per SM for {@code stream_read}: enough loads in flight to reach the card's bandwidth. */
  static final int BLOCKS_PER_SM = 8;

  private final CudaDriver cuda;
  private final TenantKernel kernel;
  private final CudaDriver.Context context;
  private final CudaDriver.Module module;
  private final CudaDriver.Kernel read;
  private final CudaDriver.Kernel relu;
  private final long weights;
  private final long readOut;
  private final long activation;
  private final int readBlocks;
  private final Arena arena = Arena.ofConfined();
  private final MemorySegment[] readParams;
  private final MemorySegment reluParams;
  private final CudaDriver.Event start;
  private final CudaDriver.Event end;
  private double gpuMillis;

  public DeviceWorkload(CudaDriver cuda, TenantKernel kernel) {
    this.cuda = cuda;
    this.kernel = kernel;
    this.context = cuda.primaryContext(0);
    this.module = cuda.loadPtx(ptx());
    this.read = cuda.kernel(module, "stream_read");
    this.relu = cuda.kernel(module, "relu_step");
    long words = kernel.layerBytes() / 16;
    this.readBlocks = (int) Math.min((words + THREADS - 1) / THREADS, (long) cuda.multiprocessors(context) * BLOCKS_PER_SM);
    this.weights = cuda.alloc(kernel.bufferBytes());
    cuda.fill32(weights, 0x3c003c00, kernel.bufferBytes() / 4); // bf16 1.0 pairs: any pattern would do
    this.readOut = cuda.alloc((long) readBlocks * THREADS * 4);
    this.activation = cuda.alloc(TenantKernel.ACTIVATION_ELEMENTS * 4L);
    cuda.fill32(activation, Float.floatToRawIntBits(1f), TenantKernel.ACTIVATION_ELEMENTS);
    this.readParams = new MemorySegment[kernel.layers()];
    for (int l = 0; l < kernel.layers(); l++) {
      readParams[l] = params(weights + l * kernel.layerBytes(), words, readOut);
    }
    MemorySegment values = arena.allocate(16, 8);
    values.set(JAVA_LONG, 0, activation);
    values.set(JAVA_INT, 8, TenantKernel.ACTIVATION_ELEMENTS);
    this.reluParams = arena.allocate(ADDRESS, 2);
    reluParams.setAtIndex(ADDRESS, 0, values);
    reluParams.setAtIndex(ADDRESS, 1, values.asSlice(8));
    this.start = cuda.event();
    this.end = cuda.event();
    cuda.synchronizeContext();
  }

  /** {@code void*[3]} for {@code stream_read(in, n, out)}. */
  private MemorySegment params(long in, long words, long out) {
    MemorySegment values = arena.allocate(JAVA_LONG, 3);
    values.setAtIndex(JAVA_LONG, 0, in);
    values.setAtIndex(JAVA_LONG, 1, words);
    values.setAtIndex(JAVA_LONG, 2, out);
    MemorySegment p = arena.allocate(ADDRESS, 3);
    for (int i = 0; i < 3; i++) {
      p.setAtIndex(ADDRESS, i, values.asSlice(i * 8L));
    }
    return p;
  }

  static String ptx() {
    try (InputStream in = DeviceWorkload.class.getResourceAsStream(PTX_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(PTX_RESOURCE + " is missing from the classpath");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void request() {
    cuda.record(start);
    for (int t = 0; t < kernel.tokens(); t++) {
      for (int l = 0; l < kernel.layers(); l++) {
        cuda.launch(read, readBlocks, THREADS, readParams[l]);
        if (kernel.activation()) {
          cuda.launch(relu, (TenantKernel.ACTIVATION_ELEMENTS + THREADS - 1) / THREADS, THREADS, reluParams);
        }
      }
    }
    cuda.record(end);
    cuda.synchronize(end);
    gpuMillis += cuda.elapsedMs(start, end);
  }

  @Override
  public double gpuMillis() {
    return gpuMillis;
  }

  @Override
  public void close() {
    cuda.destroy(start);
    cuda.destroy(end);
    cuda.free(weights);
    cuda.free(readOut);
    cuda.free(activation);
    cuda.unload(module);
    cuda.release(context);
    arena.close();
  }
}
