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
 * The role advise needs from a cloud catalogue: which node types carry a GPU model, how many GPUs
 * each, and at what price. {@link #aws()} reads the reference's AWS table (§6); the autoscaler's
 * instance catalogue can stand in for it once merged, through this one method.
 */
@FunctionalInterface
public interface GpuNodeOffers {

  /** Every offer for the GPU catalogue id, in a stable order; empty when none carries it. */
  List<GpuNodeOffer> offers(String gpuModel);

  /** The built-in AWS on-demand table (us-east-1, k8s-gpu-semantics §6). */
  static GpuNodeOffers aws() {
    List<GpuNodeOffer> all = AwsTable.ROWS;
    return gpu -> all.stream().filter(o -> o.gpuModel().equals(gpu)).toList();
  }

  /** A fixed list, for tests and user catalogues. */
  static GpuNodeOffers of(List<GpuNodeOffer> offers) {
    List<GpuNodeOffer> copy = List.copyOf(offers);
    return gpu -> copy.stream().filter(o -> o.gpuModel().equals(gpu)).toList();
  }

  /** Reads {@code aws-gpu-nodes.txt} once. */
  final class AwsTable {
    private AwsTable() {}

    static final List<GpuNodeOffer> ROWS = load();

    private static List<GpuNodeOffer> load() {
      try (InputStream in = GpuNodeOffers.class.getResourceAsStream("aws-gpu-nodes.txt")) {
        if (in == null) {
          throw new IllegalStateException("aws-gpu-nodes.txt is missing from the classpath");
        }
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        List<GpuNodeOffer> out = new ArrayList<>();
        String line;
        int n = 0;
        while ((line = r.readLine()) != null) {
          n++;
          String s = line.strip();
          if (s.isEmpty() || s.startsWith("#")) {
            continue;
          }
          String[] f = s.split("\\s+");
          if (f.length != 7) {
            throw new IllegalStateException("aws-gpu-nodes.txt:" + n + ": expected 7 columns, found " + f.length);
          }
          out.add(new GpuNodeOffer(f[0], f[1], Integer.parseInt(f[2]), millis(f[4]), mebibytes(f[5]),
              Double.parseDouble(f[6])));
        }
        return List.copyOf(out);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private static long millis(String cpu) {
      return Long.parseLong(cpu.substring(0, cpu.length() - 1));
    }

    private static long mebibytes(String mem) {
      return Long.parseLong(mem.substring(0, mem.length() - 2));
    }
  }
}
