package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.autoscaler.requirement.ValueSet;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A NodePool's {@code minValues}: per requirement key, how many distinct values the instance types
 * left for a NodeClaim must still span. Karpenter's default MinValuesPolicy is Strict: a NodeClaim
 * whose remaining types fall short cannot take the pod ({@code K:pkg/cloudprovider/types.go}
 * SatisfiesMinValues, called from {@code scheduling/nodeclaim.go}). When a key appears twice the
 * larger minValues holds (instance_selection_test.go, "max of the minValues").
 */
record MinValues(Map<String, Integer> byKey) {

  static final MinValues NONE = new MinValues(Map.of());

  MinValues {
    byKey = Map.copyOf(byKey);
  }

  static MinValues of(NodePool pool) {
    Map<String, Integer> m = new TreeMap<>();
    for (NodePoolRequirement r : pool.template().requirements()) {
      r.minValues().ifPresent(n -> m.merge(r.key(), n, Math::max));
    }
    return m.isEmpty() ? NONE : new MinValues(m);
  }

  boolean isEmpty() {
    return byKey.isEmpty();
  }

  /** The keys whose distinct values across {@code options} stay below their minValues, sorted. */
  List<String> unmet(List<TypeOption> options) {
    List<String> out = new ArrayList<>();
    for (var e : new TreeMap<>(byKey).entrySet()) {
      Set<String> values = new HashSet<>();
      for (TypeOption o : options) {
        o.requirements().get(e.getKey()).filter(ValueSet::isFinite).ifPresent(v -> values.addAll(v.values()));
      }
      if (values.size() < e.getValue()) {
        out.add(e.getKey());
      }
    }
    return out;
  }

  /**
   * How many of {@code ordered}, from the first, it takes to span every minValues; all of them when
   * they never do, 0 without minValues ({@code K:pkg/cloudprovider/types.go} SatisfiesMinValues'
   * minNeededInstanceTypes).
   */
  int neededPrefix(List<TypeOption> ordered) {
    if (byKey.isEmpty()) {
      return 0;
    }
    Map<String, Set<String>> values = new TreeMap<>();
    for (int i = 0; i < ordered.size(); i++) {
      boolean all = true;
      for (var e : byKey.entrySet()) {
        Set<String> seen = values.computeIfAbsent(e.getKey(), k -> new HashSet<>());
        ordered.get(i).requirements().get(e.getKey()).filter(ValueSet::isFinite).ifPresent(v -> seen.addAll(v.values()));
        all &= seen.size() >= e.getValue();
      }
      if (all) {
        return i + 1;
      }
    }
    return ordered.size();
  }

  boolean satisfiedBy(List<TypeOption> options) {
    return byKey.isEmpty() || unmet(options).isEmpty();
  }
}
