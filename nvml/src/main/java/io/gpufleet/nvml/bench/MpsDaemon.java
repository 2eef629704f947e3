package io.gpufleet.nvml.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The command's own MPS control daemon ({@code nvidia-cuda-mps-control -d}), with its pipe and log
 * directories private to this run under {@code root}, so it neither finds nor disturbs a daemon the
 * node already runs. It changes nothing on the card: no compute mode, clocks or MIG; {@code quit}
 * stops it and the MPS server it started.
 */
public record MpsDaemon(Path root, String controlCommand) implements MpsControl {

  public static final String PIPE_DIRECTORY = "CUDA_MPS_PIPE_DIRECTORY";
  public static final String LOG_DIRECTORY = "CUDA_MPS_LOG_DIRECTORY";
  public static final String ACTIVE_THREAD_PERCENTAGE = "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE";

  /** What a client of this daemon needs in its environment. */
  public Map<String, String> environment() {
    return Map.of(PIPE_DIRECTORY, root.resolve("pipe").toString(), LOG_DIRECTORY, root.resolve("log").toString());
  }

  @Override
  public Map<String, String> start() {
    try {
      Files.createDirectories(root.resolve("pipe"));
      Files.createDirectories(root.resolve("log"));
    } catch (IOException e) {
      throw new BenchFailure("cannot create the MPS directories under " + root + ": " + e.getMessage());
    }
    Process p = launch(List.of(controlCommand, "-d"));
    if (!finished(p, 30) || p.exitValue() != 0) {
      throw new BenchFailure("the MPS control daemon did not start (" + controlCommand + " -d exited "
          + (p.isAlive() ? "late" : p.exitValue()) + "); its log is in " + root.resolve("log"));
    }
    return environment();
  }

  @Override
  public void stop() {
    Process p = launch(List.of(controlCommand));
    try {
      p.getOutputStream().write("quit\n".getBytes(StandardCharsets.US_ASCII));
      p.getOutputStream().close();
    } catch (IOException e) {
      throw new BenchFailure("cannot tell the MPS control daemon to quit: " + e.getMessage());
    }
    if (!finished(p, 30)) {
      throw new BenchFailure("the MPS control daemon did not acknowledge quit within 30 s");
    }
  }

  private Process launch(List<String> command) {
    ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(root.resolve("control.out").toFile()));
    b.environment().putAll(environment());
    try {
      return b.start();
    } catch (IOException e) {
      throw new BenchFailure("MPS is not available here: cannot run " + controlCommand + " (" + e.getMessage() + ")");
    }
  }

  private static boolean finished(Process p, int seconds) {
    try {
      return p.waitFor(seconds, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
