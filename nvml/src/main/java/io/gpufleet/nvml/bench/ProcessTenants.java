package io.gpufleet.nvml.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Tenants as separate JVMs, as pods are separate processes: each runs {@link TenantMain} from this
 * process's own Java and classpath. All start their loops together once every one has said
 * {@code ready}; each one's stderr goes to a file under {@code scratch}, quoted if it fails.
 */
public record ProcessTenants(String java, String classpath, Path scratch, Optional<Path> cudaLibrary)
    implements Tenants {

  /** The running JVM's own launcher and classpath. */
  public static ProcessTenants ofThisJvm(Path scratch, Optional<Path> cudaLibrary) {
    String java = ProcessHandle.current().info().command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    return new ProcessTenants(java, System.getProperty("java.class.path"), scratch, cudaLibrary);
  }

  @Override
  public List<TenantRun> run(TenantKernel kernel, int count, Arrivals.Settings settings, Map<String, String> env) {
    List<Process> processes = new ArrayList<>();
    List<Path> errors = new ArrayList<>();
    try {
      for (int i = 1; i <= count; i++) {
        List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED",
            "-XX:+UseSerialGC", "-cp", classpath, TenantMain.class.getName(), kernel.name(),
            Double.toString(settings.seconds()), Double.toString(settings.ratePerSecond()),
            Long.toString(settings.seed()), Integer.toString(i)));
        cudaLibrary.ifPresent(p -> command.add(p.toString()));
        Path err = scratch.resolve(kernel.name() + "-n" + count + "-t" + i + ".err");
        ProcessBuilder b = new ProcessBuilder(command).redirectError(err.toFile());
        b.environment().putAll(env);
        errors.add(err);
        processes.add(b.start());
      }
      List<BufferedReader> outs = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        BufferedReader r = new BufferedReader(new InputStreamReader(processes.get(i).getInputStream(),
            StandardCharsets.US_ASCII));
        String line = r.readLine();
        if (!TenantMain.READY.equals(line)) {
          throw failed(kernel, i + 1, processes.get(i), errors.get(i));
        }
        outs.add(r);
      }
      for (Process p : processes) {
        OutputStream in = p.getOutputStream();
        in.write((TenantMain.GO + "\n").getBytes(StandardCharsets.US_ASCII));
        in.flush();
      }
      List<TenantRun> runs = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        StringBuilder text = new StringBuilder();
        String line;
        while ((line = outs.get(i).readLine()) != null) {
          text.append(line).append('\n');
        }
        Process p = processes.get(i);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
          throw failed(kernel, i + 1, p, errors.get(i));
        }
        runs.add(TenantRun.parse(text.toString()));
      }
      return runs;
    } catch (IOException e) {
      throw new BenchFailure("cannot run a tenant process: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BenchFailure("interrupted while tenants ran");
    } finally {
      processes.forEach(Process::destroy);
    }
  }

  private static BenchFailure failed(TenantKernel kernel, int index, Process p, Path err) {
    try {
      p.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    String why;
    try {
      why = Files.readString(err).strip().lines().reduce((a, b) -> b).orElse("no message");
    } catch (IOException e) {
      why = "no message";
    }
    return new BenchFailure("tenant " + index + " of " + kernel.name() + " failed"
        + (p.isAlive() ? "" : " (exit " + p.exitValue() + ")") + ": " + why);
  }
}
