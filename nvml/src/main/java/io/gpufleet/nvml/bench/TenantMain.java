package io.gpufleet.nvml.bench;

import io.gpufleet.nvml.GpuUnavailable;
import io.gpufleet.nvml.cuda.CudaDriver;
import io.gpufleet.nvml.cuda.CudaException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;

/**
 * One tenant process of {@code bench-sharing}, started by {@link ProcessTenants} from the same
 * classpath: it sets up its kernel, runs three warm-up requests, prints {@code ready}, waits for
 * {@code go} on stdin so that all tenants start together, runs its loop and prints its
 * {@link TenantRun}. Any failure is one line on stderr and exit code 3.
 *
 * <p>Arguments: {@code KERNEL SECONDS RATE SEED INDEX [CUDA_LIBRARY]}.
 */
public final class TenantMain {
  private TenantMain() {}

  static final String READY = "ready";
  static final String GO = "go";
  static final int WARM_UP_REQUESTS = 3;

  public static void main(String[] args) {
    PrintStream out = System.out;
    try {
      TenantKernel kernel = TenantKernel.byName(args[0])
          .orElseThrow(() -> new IllegalArgumentException("unknown kernel " + args[0]));
      Arrivals.Settings settings = new Arrivals.Settings(Double.parseDouble(args[1]), Double.parseDouble(args[2]),
          Long.parseLong(args[3]));
      int index = Integer.parseInt(args[4]);
      Optional<Path> library = args.length > 5 ? Optional.of(Path.of(args[5])) : Optional.empty();
      try (CudaDriver cuda = CudaDriver.open(library, System.getenv());
           DeviceWorkload workload = new DeviceWorkload(cuda, kernel)) {
        for (int i = 0; i < WARM_UP_REQUESTS; i++) {
          workload.request();
        }
        out.println(READY);
        out.flush();
        String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII)).readLine();
        if (!GO.equals(line)) {
          throw new IllegalStateException("expected \"" + GO + "\" on stdin, found " + line);
        }
        TenantRun run = TenantLoop.run(workload, settings.forTenant(index), settings.durationNanos(), Ticker.SYSTEM);
        out.print(run.text());
        out.flush();
      }
    } catch (GpuUnavailable | CudaException | IllegalArgumentException | IllegalStateException | IOException e) {
      System.err.println("tenant: " + e.getMessage());
      System.exit(3);
    }
  }
}
