package io.gpufleet.nvml;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.gpufleet.model.gpu.ComputeCapability;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * {@link Nvml} bound to the driver's {@code libnvidia-ml.so.1} through {@code java.lang.foreign}.
 * Signatures, struct layouts and buffer sizes are those of NVML's {@code nvml.h}: {@code nvmlDevice_t}
 * is a pointer; {@code nvmlMemory_t} is three {@code unsigned long long} (total, free, used);
 * {@code nvmlUtilization_t} two {@code unsigned int} (gpu, memory); names and UUIDs fit 96 bytes
 * ({@code NVML_DEVICE_NAME_V2_BUFFER_SIZE}, {@code NVML_DEVICE_UUID_V2_BUFFER_SIZE}) and the driver
 * version 80 ({@code NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE}).
 */
public final class NvmlLibrary implements Nvml {

  public static final NativeLibrary LIBRARY =
      new NativeLibrary("NVML", "libnvidia-ml.so.1", "--nvml-library", "GPUFLEET_NVML");

  private static final int NAME_BUFFER = 96;
  private static final int UUID_BUFFER = 96;
  private static final int DRIVER_VERSION_BUFFER = 80;
  private static final FunctionDescriptor RETURN_ONLY = FunctionDescriptor.of(JAVA_INT);
  private static final FunctionDescriptor ONE_POINTER = FunctionDescriptor.of(JAVA_INT, ADDRESS);
  private static final FunctionDescriptor HANDLE_POINTER = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);

  private final Arena arena;
  private final NativeLibrary.Symbols symbols;

  private NvmlLibrary(Arena arena, NativeLibrary.Symbols symbols) {
    this.arena = arena;
    this.symbols = symbols;
  }

  /**
   * Loads NVML (the explicit path, else {@code $GPUFLEET_NVML}, else {@code libnvidia-ml.so.1}) and
   * calls {@code nvmlInit_v2}. No library, no driver or no GPU is {@link GpuUnavailable}.
   */
  public static NvmlLibrary open(Optional<Path> explicit, Map<String, String> env) {
    Arena arena = Arena.ofShared();
    try {
      NvmlLibrary nvml = new NvmlLibrary(arena, LIBRARY.open(explicit, env, arena));
      int rc = nvml.call("nvmlInit_v2", RETURN_ONLY);
      if (rc != 0) {
        NvmlReturn r = NvmlReturn.of(rc);
        String text = nvml.errorString(rc);
        if (r.meansNoGpu()) {
          throw new GpuUnavailable("no GPU here: NVML did not start: " + r.headerName() + " (" + text + ")");
        }
        throw new NvmlException("nvmlInit_v2", rc, text);
      }
      return nvml;
    } catch (RuntimeException e) {
      arena.close();
      throw e;
    }
  }

  @Override
  public String driverVersion() {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment buf = a.allocate(DRIVER_VERSION_BUFFER);
      check("nvmlSystemGetDriverVersion", call("nvmlSystemGetDriverVersion",
          FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), buf, DRIVER_VERSION_BUFFER));
      return buf.getString(0);
    }
  }

  @Override
  public int deviceCount() {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment n = a.allocate(JAVA_INT);
      check("nvmlDeviceGetCount_v2", call("nvmlDeviceGetCount_v2", ONE_POINTER, n));
      return n.get(JAVA_INT, 0);
    }
  }

  @Override
  public Handle device(int index) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment h = a.allocate(ADDRESS);
      check("nvmlDeviceGetHandleByIndex_v2", call("nvmlDeviceGetHandleByIndex_v2",
          FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS), index, h));
      return new Handle(h.get(ADDRESS, 0).address());
    }
  }

  @Override
  public String name(Handle device) {
    return string("nvmlDeviceGetName", device, NAME_BUFFER);
  }

  @Override
  public String uuid(Handle device) {
    return string("nvmlDeviceGetUUID", device, UUID_BUFFER);
  }

  @Override
  public Memory memory(Handle device) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment m = a.allocate(3 * JAVA_LONG.byteSize(), JAVA_LONG.byteAlignment());
      check("nvmlDeviceGetMemoryInfo", call("nvmlDeviceGetMemoryInfo", HANDLE_POINTER, pointer(device), m));
      return new Memory(m.get(JAVA_LONG, 0), m.get(JAVA_LONG, 8), m.get(JAVA_LONG, 16));
    }
  }

  @Override
  public ComputeCapability computeCapability(Handle device) {
    int[] v = twoInts("nvmlDeviceGetCudaComputeCapability", device);
    return new ComputeCapability(v[0], v[1]);
  }

  @Override
  public MigModes migMode(Handle device) {
    int[] v = twoInts("nvmlDeviceGetMigMode", device);
    return new MigModes(v[0], v[1]);
  }

  @Override
  public int maxMigDeviceCount(Handle device) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment n = a.allocate(JAVA_INT);
      check("nvmlDeviceGetMaxMigDeviceCount", call("nvmlDeviceGetMaxMigDeviceCount", HANDLE_POINTER,
          pointer(device), n));
      return n.get(JAVA_INT, 0);
    }
  }

  @Override
  public Optional<Handle> migDevice(Handle device, int index) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment h = a.allocate(ADDRESS);
      int rc = call("nvmlDeviceGetMigDeviceHandleByIndex", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS),
          pointer(device), index, h);
      if (rc == NvmlReturn.ERROR_NOT_FOUND.code()) {
        return Optional.empty();
      }
      check("nvmlDeviceGetMigDeviceHandleByIndex", rc);
      return Optional.of(new Handle(h.get(ADDRESS, 0).address()));
    }
  }

  @Override
  public int computeMode(Handle device) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment m = a.allocate(JAVA_INT);
      check("nvmlDeviceGetComputeMode", call("nvmlDeviceGetComputeMode", HANDLE_POINTER, pointer(device), m));
      return m.get(JAVA_INT, 0);
    }
  }

  @Override
  public Utilization utilization(Handle device) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment u = a.allocate(2 * JAVA_INT.byteSize(), JAVA_INT.byteAlignment());
      check("nvmlDeviceGetUtilizationRates", call("nvmlDeviceGetUtilizationRates", HANDLE_POINTER,
          pointer(device), u));
      return new Utilization(u.get(JAVA_INT, 0), u.get(JAVA_INT, 4));
    }
  }

  @Override
  public void close() {
    try {
      call("nvmlShutdown", RETURN_ONLY);
    } finally {
      arena.close();
    }
  }

  /** {@code nvmlErrorString}: the driver's text for a code; empty if the library lacks it. */
  String errorString(int code) {
    MethodHandle h = symbols.find("nvmlErrorString", FunctionDescriptor.of(ADDRESS, JAVA_INT)).orElse(null);
    if (h == null) {
      return "";
    }
    try {
      MemorySegment s = (MemorySegment) h.invoke(code);
      return s.equals(MemorySegment.NULL) ? "" : s.reinterpret(256).getString(0);
    } catch (Throwable t) {
      throw new IllegalStateException("nvmlErrorString", t);
    }
  }

  private String string(String function, Handle device, int size) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment buf = a.allocate(size);
      check(function, call(function, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT), pointer(device),
          buf, size));
      return buf.getString(0);
    }
  }

  /** A call of the form {@code f(device, int* a, int* b)}. */
  private int[] twoInts(String function, Handle device) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment first = a.allocate(JAVA_INT);
      MemorySegment second = a.allocate(JAVA_INT);
      check(function, call(function, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS), pointer(device), first,
          second));
      return new int[] {first.get(JAVA_INT, 0), second.get(JAVA_INT, 0)};
    }
  }

  private static MemorySegment pointer(Handle h) {
    return MemorySegment.ofAddress(h.address());
  }

  private void check(String function, int rc) {
    if (rc != 0) {
      throw new NvmlException(function, rc, errorString(rc));
    }
  }

  private int call(String name, FunctionDescriptor descriptor, Object... args) {
    MethodHandle h = symbols.find(name, descriptor).orElseThrow(() -> new NvmlException(name,
        NvmlReturn.ERROR_FUNCTION_NOT_FOUND.code(), "not in this driver's NVML library"));
    return NativeLibrary.Symbols.invoke(h, name, args);
  }
}
