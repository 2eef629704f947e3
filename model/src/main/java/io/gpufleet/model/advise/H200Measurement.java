package io.gpufleet.model.advise;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Our measurement of time-slicing and MPS on one NVIDIA H200 (2026-11-30,
 * {@code shared/data/h200-sharing/README.md}): the two workloads it ran and its closed-loop rows,
 * which calibrate the performance model. The open-loop runs were kept aside to check the model's
 * predictions, so they are not here.
 */
public final class H200Measurement {
  private H200Measurement() {}

  /** The GPU catalogue id of the card measured. */
  public static final String GPU = "H200-141GB";

  /**
   * {@code big}: 24 layers of 8192 × 8192 bf16 weights, 4 decode steps per request, batch 1 — 1.61B
   * parameters, so 12.885 GB read per request.
   */
  public static final RequestDemand.ModelWeights BIG = new RequestDemand.ModelWeights(24.0 * 8192 * 8192, 2, 4);

  /**
   * {@code small}: 24 layers of 1024 × 1024, 16 steps: per step and layer one matmul and one relu,
   * so 768 kernel launches per request (and 0.8 GB read, 0.2 ms at the card's bandwidth).
   */
  public static final RequestDemand.KernelStream SMALL = new RequestDemand.KernelStream(16 * 24 * 2);

  /** The rows with their workloads, as the advice names its calibration. */
  public static MeasuredSharing builtIn() {
    return new MeasuredSharing("the built-in rows of one NVIDIA H200 (2026-11-30, shared/data/h200-sharing, "
        + closedLoopRows().size() + " closed-loop rows)", GPU, BIG, SMALL, closedLoopRows());
  }

  /**
   * Every closed-loop row, in the README's order: time-slicing, MPS with the daemon's defaults, then
   * MPS with each client capped as the device plugin runs it ({@code mps-capped}, its second table).
   */
  public static List<ClosedLoopRow> closedLoopRows() {
    return Rows.ALL;
  }

  private static final class Rows {
    static final List<ClosedLoopRow> ALL = load();

    private static List<ClosedLoopRow> load() {
      try (InputStream in = H200Measurement.class.getResourceAsStream("h200-closed-loop.csv")) {
        if (in == null) {
          throw new IllegalStateException("h200-closed-loop.csv is missing from the classpath");
        }
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        List<ClosedLoopRow> out = new ArrayList<>();
        String line;
        boolean header = true;
        while ((line = r.readLine()) != null) {
          if (line.isBlank() || line.startsWith("#")) {
            continue;
          }
          if (header) {
            header = false;
            continue;
          }
          String[] f = line.split(",");
          out.add(new ClosedLoopRow(f[0], f[1], Integer.parseInt(f[2]), Double.parseDouble(f[3]),
              Double.parseDouble(f[4]), Double.parseDouble(f[5])));
        }
        return List.copyOf(out);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
