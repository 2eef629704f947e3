package io.gpufleet.nvml.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * What one tenant measured: each request's latency from its arrival to its completion, the time the
 * loop ran, and the GPU time its requests took by device events. A tenant process writes it to
 * stdout in {@link #text()}'s form, one value a line, and the parent reads it back with {@link #parse}.
 */
public record TenantRun(List<Long> latencyNanos, long elapsedNanos, double gpuMillis) {

  private static final String HEADER = "gpufleet-tenant-run 1";

  public TenantRun {
    latencyNanos = List.copyOf(latencyNanos);
  }

  public String text() {
    StringBuilder b = new StringBuilder(HEADER).append('\n');
    b.append("elapsed_ns ").append(elapsedNanos).append('\n');
    b.append("gpu_ms ").append(gpuMillis).append('\n');
    b.append("requests ").append(latencyNanos.size()).append('\n');
    for (long l : latencyNanos) {
      b.append(l).append('\n');
    }
    return b.toString();
  }

  /** Reads {@link #text()}'s form; anything else is an {@link IllegalArgumentException} naming the line. */
  public static TenantRun parse(String text) {
    String[] lines = text.strip().split("\n");
    if (lines.length < 4 || !lines[0].strip().equals(HEADER)) {
      throw new IllegalArgumentException("line 1: expected \"" + HEADER + "\", found \""
          + (lines.length == 0 ? "" : lines[0]) + "\"");
    }
    long elapsed = Long.parseLong(value(lines, 1, "elapsed_ns"));
    double gpu = Double.parseDouble(value(lines, 2, "gpu_ms"));
    int n = Integer.parseInt(value(lines, 3, "requests"));
    if (lines.length != 4 + n) {
      throw new IllegalArgumentException("expected " + n + " latencies, found " + (lines.length - 4));
    }
    List<Long> latencies = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      latencies.add(Long.parseLong(lines[4 + i].strip()));
    }
    return new TenantRun(latencies, elapsed, gpu);
  }

  private static String value(String[] lines, int i, String key) {
    String l = lines[i].strip();
    if (!l.startsWith(key + " ")) {
      throw new IllegalArgumentException("line " + (i + 1) + ": expected \"" + key + " <n>\", found \"" + l + "\"");
    }
    return l.substring(key.length() + 1).strip();
  }
}
