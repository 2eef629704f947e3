package io.gpufleet.nvml.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.gpufleet.nvml.GpuUnavailable;
import io.gpufleet.nvml.NativeLibrary;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The CUDA driver API ({@code libcuda.so.1}) through {@code java.lang.foreign}: the calls the tenant
 * kernels need, with the signatures of {@code cuda.h} (CUDA 13.0; the {@code _v2} entry points
 * its macros name for {@code cuMemAlloc}, {@code cuMemFree}, {@code cuMemsetD32}, {@code
 * cuMemcpyDtoH}, {@code cuEventDestroy} and {@code cuDevicePrimaryCtxRelease}). One instance per
 * process, used from one thread: a context is current per thread.
 */
public final class CudaDriver implements AutoCloseable {

  public static final NativeLibrary LIBRARY =
      new NativeLibrary("the CUDA driver", "libcuda.so.1", "--cuda-library", "GPUFLEET_CUDA");

  /** {@code CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT}. */
  static final int ATTRIBUTE_MULTIPROCESSORS = 16;
  /** {@code CUDA_ERROR_NO_DEVICE}, {@code CUDA_ERROR_INSUFFICIENT_DRIVER}, {@code CUDA_ERROR_SYSTEM_DRIVER_MISMATCH}. */
  private static final int NO_DEVICE = 100;
  private static final int INSUFFICIENT_DRIVER = 35;
  private static final int SYSTEM_DRIVER_MISMATCH = 803;

  private final Arena arena;
  private final NativeLibrary.Symbols symbols;
  private final MethodHandle launch;

  /** A device's primary context, current on the thread that retained it. */
  public record Context(int device, long handle) {}

  /** A loaded module and its kernels by name. */
  public record Module(long handle) {}

  /** A kernel of a module. */
  public record Kernel(String name, long handle) {}

  /** A CUDA event. */
  public record Event(long handle) {}

  private CudaDriver(Arena arena, NativeLibrary.Symbols symbols) {
    this.arena = arena;
    this.symbols = symbols;
    this.launch = function("cuLaunchKernel", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT,
        JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
  }

  /** Loads the driver library and calls {@code cuInit(0)}; no library, driver or device is {@link GpuUnavailable}. */
  public static CudaDriver open(Optional<Path> explicit, Map<String, String> env) {
    Arena arena = Arena.ofShared();
    try {
      CudaDriver cuda = new CudaDriver(arena, LIBRARY.open(explicit, env, arena));
      int rc = cuda.call("cuInit", FunctionDescriptor.of(JAVA_INT, JAVA_INT), 0);
      if (rc == NO_DEVICE || rc == INSUFFICIENT_DRIVER || rc == SYSTEM_DRIVER_MISMATCH) {
        throw new GpuUnavailable("no GPU here: cuInit: " + cuda.errorName(rc) + " (" + cuda.errorText(rc) + ")");
      }
      cuda.check("cuInit", rc);
      return cuda;
    } catch (RuntimeException e) {
      arena.close();
      throw e;
    }
  }

  /** Retains device {@code ordinal}'s primary context and makes it current on this thread. */
  public Context primaryContext(int ordinal) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment dev = a.allocate(JAVA_INT);
      check("cuDeviceGet", call("cuDeviceGet", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), dev, ordinal));
      int device = dev.get(JAVA_INT, 0);
      MemorySegment ctx = a.allocate(ADDRESS);
      check("cuDevicePrimaryCtxRetain", call("cuDevicePrimaryCtxRetain",
          FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), ctx, device));
      long handle = ctx.get(ADDRESS, 0).address();
      check("cuCtxSetCurrent", call("cuCtxSetCurrent", FunctionDescriptor.of(JAVA_INT, ADDRESS),
          MemorySegment.ofAddress(handle)));
      return new Context(device, handle);
    }
  }

  public void release(Context context) {
    check("cuDevicePrimaryCtxRelease_v2", call("cuDevicePrimaryCtxRelease_v2",
        FunctionDescriptor.of(JAVA_INT, JAVA_INT), context.device()));
  }

  public String deviceName(Context context) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment buf = a.allocate(256);
      check("cuDeviceGetName", call("cuDeviceGetName", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT),
          buf, 256, context.device()));
      return buf.getString(0);
    }
  }

  public int multiprocessors(Context context) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment v = a.allocate(JAVA_INT);
      check("cuDeviceGetAttribute", call("cuDeviceGetAttribute", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT,
          JAVA_INT), v, ATTRIBUTE_MULTIPROCESSORS, context.device()));
      return v.get(JAVA_INT, 0);
    }
  }

  /** {@code cuModuleLoadData} on a NUL-terminated PTX image: the driver JIT-compiles it for the card. */
  public Module loadPtx(String ptx) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment image = a.allocateFrom(ptx, StandardCharsets.UTF_8);
      MemorySegment module = a.allocate(ADDRESS);
      check("cuModuleLoadData", call("cuModuleLoadData", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), module,
          image));
      return new Module(module.get(ADDRESS, 0).address());
    }
  }

  public Kernel kernel(Module module, String name) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment fn = a.allocate(ADDRESS);
      check("cuModuleGetFunction", call("cuModuleGetFunction", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS,
          ADDRESS), fn, MemorySegment.ofAddress(module.handle()), a.allocateFrom(name)));
      return new Kernel(name, fn.get(ADDRESS, 0).address());
    }
  }

  public void unload(Module module) {
    check("cuModuleUnload", call("cuModuleUnload", FunctionDescriptor.of(JAVA_INT, ADDRESS),
        MemorySegment.ofAddress(module.handle())));
  }

  /** {@code cuMemAlloc_v2}: device memory, returned as its device address. */
  public long alloc(long bytes) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment p = a.allocate(JAVA_LONG);
      check("cuMemAlloc_v2", call("cuMemAlloc_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG), p, bytes));
      return p.get(JAVA_LONG, 0);
    }
  }

  public void free(long devicePointer) {
    check("cuMemFree_v2", call("cuMemFree_v2", FunctionDescriptor.of(JAVA_INT, JAVA_LONG), devicePointer));
  }

  /** {@code cuMemsetD32_v2}: {@code count} 32-bit words set to {@code value}. */
  public void fill32(long devicePointer, int value, long count) {
    check("cuMemsetD32_v2", call("cuMemsetD32_v2", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_LONG),
        devicePointer, value, count));
  }

  /** {@code cuMemcpyDtoH_v2} into a host segment. */
  public void copyToHost(MemorySegment host, long devicePointer, long bytes) {
    check("cuMemcpyDtoH_v2", call("cuMemcpyDtoH_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG),
        host, devicePointer, bytes));
  }

  /** {@code cuMemcpyHtoD_v2} from a host segment. */
  public void copyToDevice(long devicePointer, MemorySegment host, long bytes) {
    check("cuMemcpyHtoD_v2", call("cuMemcpyHtoD_v2", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, JAVA_LONG),
        devicePointer, host, bytes));
  }

  /**
   * {@code cuLaunchKernel} on the default stream with a one-dimensional grid; {@code params} is the
   * {@code void*[]} of pointers to each argument, built once by the caller and reused.
   */
  public void launch(Kernel kernel, int blocks, int threads, MemorySegment params) {
    int rc;
    try {
      rc = (int) launch.invokeExact(MemorySegment.ofAddress(kernel.handle()), blocks, 1, 1, threads, 1, 1, 0,
          MemorySegment.NULL, params, MemorySegment.NULL);
    } catch (Throwable t) {
      throw new IllegalStateException("cuLaunchKernel", t);
    }
    check("cuLaunchKernel", rc);
  }

  public Event event() {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment e = a.allocate(ADDRESS);
      check("cuEventCreate", call("cuEventCreate", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), e, 0));
      return new Event(e.get(ADDRESS, 0).address());
    }
  }

  public void record(Event event) {
    check("cuEventRecord", call("cuEventRecord", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS),
        MemorySegment.ofAddress(event.handle()), MemorySegment.NULL));
  }

  public void synchronize(Event event) {
    check("cuEventSynchronize", call("cuEventSynchronize", FunctionDescriptor.of(JAVA_INT, ADDRESS),
        MemorySegment.ofAddress(event.handle())));
  }

  /** {@code cuEventElapsedTime}: milliseconds between two recorded, completed events. */
  public float elapsedMs(Event start, Event end) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment ms = a.allocate(JAVA_FLOAT);
      check("cuEventElapsedTime", call("cuEventElapsedTime", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS,
          ADDRESS), ms, MemorySegment.ofAddress(start.handle()), MemorySegment.ofAddress(end.handle())));
      return ms.get(JAVA_FLOAT, 0);
    }
  }

  public void destroy(Event event) {
    check("cuEventDestroy_v2", call("cuEventDestroy_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS),
        MemorySegment.ofAddress(event.handle())));
  }

  public void synchronizeContext() {
    check("cuCtxSynchronize", call("cuCtxSynchronize", FunctionDescriptor.of(JAVA_INT)));
  }

  @Override
  public void close() {
    arena.close();
  }

  String errorName(int code) {
    return errorString("cuGetErrorName", code, "CUDA_ERROR_" + code);
  }

  String errorText(int code) {
    return errorString("cuGetErrorString", code, "");
  }

  private String errorString(String function, int code, String fallback) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment out = a.allocate(ADDRESS);
      int rc = call(function, FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS), code, out);
      MemorySegment s = out.get(ADDRESS, 0);
      return rc != 0 || s.equals(MemorySegment.NULL) ? fallback : s.reinterpret(512).getString(0);
    }
  }

  private void check(String function, int rc) {
    if (rc != 0) {
      throw new CudaException(function, rc, errorName(rc), errorText(rc));
    }
  }

  private MethodHandle function(String name, FunctionDescriptor descriptor) {
    return symbols.find(name, descriptor).orElseThrow(() -> new GpuUnavailable("no GPU here: " + LIBRARY.soname() + " lacks " + name
            + "; the CUDA driver is too old"));
  }

  private int call(String name, FunctionDescriptor descriptor, Object... args) {
    return NativeLibrary.Symbols.invoke(function(name, descriptor), name, args);
  }
}
