package io.gpufleet.lint.rules;

import io.gpufleet.lint.GpuTarget;
import io.gpufleet.lint.LintInput;
import io.gpufleet.lint.Located;
import io.gpufleet.model.cloud.InstanceLabels;
import java.util.List;
import java.util.TreeSet;

/** How findings name the GPU instances a NodePool or the nodes a pod could get. */
final class Offerings {
  private Offerings() {}

  /** At most this many names in a message; the rest are counted. */
  static final int SHOWN = 3;

  /** {@code g5.xlarge, g5.2xlarge, g6.xlarge and 12 more}: the GPU instance types the pool can launch. */
  static String describe(LintInput input, Located<?> pool) {
    TreeSet<String> types = new TreeSet<>();
    for (GpuTarget t : input.targets()) {
      if (t.source() == pool) {
        types.add(t.labels().get(InstanceLabels.INSTANCE_TYPE).orElse(t.name()));
      }
    }
    return names(List.copyOf(types));
  }

  /** The first {@link #SHOWN} names and how many more. */
  static String names(List<String> names) {
    if (names.size() <= SHOWN) {
      return String.join(", ", names);
    }
    return String.join(", ", names.subList(0, SHOWN)) + " and " + (names.size() - SHOWN) + " more";
  }

  /** The distinct Nodes and NodePools among targets, as {@code NodePool/gpu, Node/a}. */
  static String sources(List<GpuTarget> targets) {
    return names(targets.stream().map(t -> t.source().ref().toString()).distinct().sorted().toList());
  }
}
