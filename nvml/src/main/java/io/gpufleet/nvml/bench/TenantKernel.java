package io.gpufleet.nvml.bench;

import java.util.List;
import java.util.Optional;

/**
 * A tenant's request, shaped like the PyTorch tenants of the H200 sharing measurement (batch-1
 * decode: per token, each layer's weights read once, {@code shared/data/h200-sharing/tenant.py}) but
 * written as two CUDA kernels: {@code stream_read} reads one layer's bytes, {@code relu_step} is the
 * activation's tiny launch.
 *
 * <ul>
 *   <li>{@code big}, memory-bound: 24 layers of 8192 × 8192 bf16 (128 MiB each, 3 GiB in all), 4
 *       tokens per request, so 12.885 GB read per request in 96 launches.
 *   <li>{@code small}, launch-bound: 24 layers of 1024 × 1024 bf16 (2 MiB each), 16 tokens, each layer
 *       a read and an activation: 768 launches per request, as the PyTorch tenant's 768 kernels.
 * </ul>
 *
 * @param activation whether each layer also launches {@code relu_step}
 */
public record TenantKernel(String name, String boundness, int layers, long layerBytes, int tokens, boolean activation) {

  public static final TenantKernel BIG = new TenantKernel("big", "memory-bound", 24, 8192L * 8192 * 2, 4, false);
  public static final TenantKernel SMALL = new TenantKernel("small", "launch-bound", 24, 1024L * 1024 * 2, 16, true);
  public static final List<TenantKernel> ALL = List.of(BIG, SMALL);
  /** Elements of the activation vector {@code relu_step} updates. */
  public static final int ACTIVATION_ELEMENTS = 1024;

  public long bytesPerRequest() {
    return layers * layerBytes * tokens;
  }

  public int kernelsPerRequest() {
    return layers * tokens * (activation ? 2 : 1);
  }

  public long bufferBytes() {
    return layers * layerBytes;
  }

  public static Optional<TenantKernel> byName(String name) {
    return ALL.stream().filter(k -> k.name.equals(name)).findFirst();
  }
}
