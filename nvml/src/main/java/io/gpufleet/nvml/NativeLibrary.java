package io.gpufleet.nvml;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One of the driver's shared libraries, opened once: by an explicit path (a command-line option,
 * else an environment variable), otherwise by its soname through the system loader, as the driver
 * installs it ({@code libnvidia-ml.so.1}, {@code libcuda.so.1}). A library that cannot be opened is
 * {@link GpuUnavailable} with a line saying which name was tried and how to point at another.
 *
 * @param what   the library's role in the user's words ("NVML", "the CUDA driver")
 * @param option the command-line option that overrides the path, for the message
 */
public record NativeLibrary(String what, String soname, String option, String envVariable) {

  /** Where the library will be loaded from: the option, else the environment variable, else the soname. */
  public String resolve(Optional<Path> explicit, Map<String, String> env) {
    if (explicit.isPresent()) {
      return explicit.get().toString();
    }
    String fromEnv = env.get(envVariable);
    return fromEnv != null && !fromEnv.isBlank() ? fromEnv : soname;
  }

  /** Opens the library in {@code arena}; it stays loaded while the arena is open. */
  public Symbols open(Optional<Path> explicit, Map<String, String> env, Arena arena) {
    String target = resolve(explicit, env);
    boolean byPath = !target.equals(soname);
    if (byPath && !Files.isRegularFile(Path.of(target))) {
      throw new GpuUnavailable("no GPU here: " + what + " library " + target + " (from "
          + (explicit.isPresent() ? option : envVariable) + ") does not exist");
    }
    try {
      return new Symbols(byPath ? SymbolLookup.libraryLookup(Path.of(target), arena)
          : SymbolLookup.libraryLookup(target, arena));
    } catch (IllegalArgumentException e) {
      throw new GpuUnavailable("no GPU here: cannot load " + what + " (" + target + "); "
          + (byPath ? "it is not a loadable library for this machine" : "is the NVIDIA driver installed? Give the library's path with "
              + option + " or " + envVariable));
    }
  }

  /** An opened library's functions as downcall handles, each linked once on first use. */
  public static final class Symbols {
    private final SymbolLookup lookup;
    private final Map<String, Optional<MethodHandle>> linked = new HashMap<>();

    Symbols(SymbolLookup lookup) {
      this.lookup = lookup;
    }

    /** A downcall to {@code name}, or empty where this driver's library lacks the symbol. */
    public Optional<MethodHandle> find(String name, FunctionDescriptor descriptor) {
      return linked.computeIfAbsent(name,
          n -> lookup.find(n).map(address -> Linker.nativeLinker().downcallHandle(address, descriptor)));
    }

    /** Calls a function that returns a status code ({@code nvmlReturn_t}, {@code CUresult}). */
    public static int invoke(MethodHandle h, String name, Object... args) {
      try {
        return (int) h.invokeWithArguments(args);
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IllegalStateException(name, t);
      }
    }
  }
}
