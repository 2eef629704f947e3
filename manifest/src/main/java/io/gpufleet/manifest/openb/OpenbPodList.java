package io.gpufleet.manifest.openb;

import io.gpufleet.model.gpu.share.CardModelAllowList;
import io.gpufleet.model.gpu.share.GpuDemand;
import io.gpufleet.model.gpu.share.ShareRequest;
import io.gpufleet.model.gpu.share.SharePod;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Reads an openb pod list in either schema: the full one,
 * {@code name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time},
 * or the five-column one of the multigpu variants. {@code gpu_milli} is per GPU; a fraction (below
 * 1000) only on one GPU; {@code gpu_spec} lists the accepted models joined by {@code |}.
 */
public final class OpenbPodList {

  public static final List<String> HEADER = List.of("name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli",
      "gpu_spec", "qos", "pod_phase", "creation_time", "deletion_time", "scheduled_time");
  public static final List<String> SHORT_HEADER = HEADER.subList(0, 5);

  private static final Set<String> QOS = Set.of("LS", "BE", "Burstable", "Guaranteed");
  private static final Set<String> PHASES = Set.of("Running", "Succeeded", "Failed", "Pending");

  private OpenbPodList() {}

  /** The pods in file order; {@code file} names the source in error messages. */
  public static List<OpenbPod> read(String file, Reader in) throws IOException {
    List<OpenbPod> pods = new ArrayList<>();
    Set<String> names = new HashSet<>();
    CsvRows.read(file, in, List.of(HEADER, SHORT_HEADER), row -> {
      String name = row.text(0).trim();
      if (name.isEmpty()) {
        throw row.error(0, "a pod name", row.text(0));
      }
      if (!names.add(name)) {
        throw row.error(0, "a name not used before", row.text(0));
      }
      long cpu = row.integer(1, 0, Integer.MAX_VALUE);
      long memory = row.integer(2, 0, Long.MAX_VALUE);
      int cards = (int) row.integer(3, 0, 64);
      int milli = (int) row.integer(4, 0, GpuDemand.MILLI_PER_CARD);
      if (cards > 0 && milli == 0) {
        throw row.error(4, "1..1000 milli-GPU for a pod with num_gpu " + cards, row.text(4));
      }
      if (cards > 1 && milli != GpuDemand.MILLI_PER_CARD) {
        throw row.error(4, "1000 (a pod on " + cards + " GPUs takes them whole)", row.text(4));
      }
      if (cards == 0 && milli != 0) {
        throw row.error(4, "0 for a pod with num_gpu 0", row.text(4));
      }
      GpuDemand gpu = GpuDemand.of(cards, milli);
      CardModelAllowList models = CardModelAllowList.ANY;
      Optional<OpenbPod.History> history = Optional.empty();
      if (row.fields().length == HEADER.size()) {
        models = CardModelAllowList.of(Arrays.stream(row.text(5).split("\\|")).map(String::trim)
            .filter(s -> !s.isEmpty()).toList());
        String qos = row.text(6).trim();
        if (!QOS.contains(qos)) {
          throw row.error(6, "one of BE, Burstable, Guaranteed, LS", row.text(6));
        }
        String phase = row.text(7).trim();
        if (!PHASES.contains(phase)) {
          throw row.error(7, "one of Failed, Pending, Running, Succeeded", row.text(7));
        }
        long created = row.integer(8, 0, Long.MAX_VALUE);
        history = Optional.of(new OpenbPod.History(qos, phase, created, optionalTime(row, 9), optionalTime(row, 10)));
      }
      pods.add(new OpenbPod(new SharePod(name, new ShareRequest(cpu, memory, gpu, models)), history));
    });
    return pods;
  }

  private static OptionalLong optionalTime(CsvRows.Row row, int column) {
    return row.text(column).isBlank() ? OptionalLong.empty() : OptionalLong.of(row.integer(column, 0, Long.MAX_VALUE));
  }
}
