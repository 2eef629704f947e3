package io.gpufleet.model.gpu;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Which GPUs of a node have MIG mode on and the instances each holds, keyed by GPU index. A GPU
 * absent from the map has MIG mode off. Immutable.
 */
public record MigLayout(SortedMap<Integer, List<MigInstance>> gpus) {

  /** Every GPU whole. */
  public static final MigLayout NONE = new MigLayout(new TreeMap<>());

  public MigLayout {
    TreeMap<Integer, List<MigInstance>> m = new TreeMap<>();
    gpus.forEach((k, v) -> m.put(k, v.stream().sorted().toList()));
    gpus = Collections.unmodifiableSortedMap(m);
  }

  public static MigLayout of(Map<Integer, List<MigInstance>> gpus) {
    return new MigLayout(new TreeMap<>(gpus));
  }

  public boolean migEnabled(int gpuIndex) {
    return gpus.containsKey(gpuIndex);
  }

  /** The instances of a GPU (empty when MIG is off, or on with nothing created). */
  public List<MigInstance> instances(int gpuIndex) {
    return gpus.getOrDefault(gpuIndex, List.of());
  }

  public boolean isEmpty() {
    return gpus.isEmpty();
  }
}
