package io.gpufleet.manifest.openb;

import io.gpufleet.model.gpu.share.ShareNode;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads an openb node list, {@code sn,cpu_milli,memory_mib,gpu,model}: one node per row, its CPU in
 * milli-cores, memory in MiB, GPU count and GPU model (empty for a CPU-only node).
 */
public final class OpenbNodeList {

  public static final List<String> HEADER = List.of("sn", "cpu_milli", "memory_mib", "gpu", "model");

  private OpenbNodeList() {}

  /** The nodes in file order; {@code file} names the source in error messages. */
  public static List<ShareNode> read(String file, Reader in) throws IOException {
    List<ShareNode> nodes = new ArrayList<>();
    Set<String> names = new HashSet<>();
    CsvRows.read(file, in, List.of(HEADER), row -> {
      String name = row.text(0).trim();
      if (name.isEmpty()) {
        throw row.error(0, "a node name", row.text(0));
      }
      if (!names.add(name)) {
        throw row.error(0, "a name not used before", row.text(0));
      }
      long cpu = row.integer(1, 0, Integer.MAX_VALUE);
      long memory = row.integer(2, 0, Long.MAX_VALUE);
      int gpus = (int) row.integer(3, 0, 64);
      String model = row.text(4).trim();
      if (gpus > 0 && model.isEmpty()) {
        throw row.error(4, "a GPU model for a node with " + gpus + " GPUs", row.text(4));
      }
      if (gpus == 0 && !model.isEmpty()) {
        throw row.error(4, "no GPU model for a node without GPUs", row.text(4));
      }
      nodes.add(new ShareNode(name, cpu, memory, gpus, model));
    });
    return nodes;
  }
}
