package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A NodePool's limits less what its NodeClaims (and those planned in this round) may use. */
final class RemainingLimits {
  private final Map<ResourceName, Long> left = new HashMap<>();

  RemainingLimits(ResourceList limits) {
    limits.quantities().forEach((k, v) -> left.put(k, units(k, v)));
  }

  private static long units(ResourceName name, Quantity q) {
    return name.equals(ResourceName.CPU) ? q.milliValue() : q.value();
  }

  void subtract(ResourceList capacity) {
    for (var e : left.entrySet()) {
      if (e.getKey().name().equals("nodes")) {
        e.setValue(e.getValue() - 1);
      } else {
        e.setValue(e.getValue() - units(e.getKey(), capacity.getOrZero(e.getKey())));
      }
    }
  }

  boolean nodesExhausted() {
    Long nodes = left.get(ResourceName.of("nodes"));
    return nodes != null && nodes <= 0;
  }

  /** Instance types whose capacity fits in what is left ({@code filterByRemainingResources}). */
  List<TypeOption> filter(List<TypeOption> types) {
    List<TypeOption> out = new ArrayList<>(types.size());
    for (TypeOption o : types) {
      boolean ok = true;
      for (var e : left.entrySet()) {
        if (e.getKey().name().equals("nodes")) {
          continue;
        }
        if (units(e.getKey(), o.capacity().getOrZero(e.getKey())) > e.getValue()) {
          ok = false;
          break;
        }
      }
      if (ok) {
        out.add(o);
      }
    }
    return out;
  }

  /**
   * Subtracts the largest capacity among the claim's options: until launched, a claim that could
   * become an 8-GPU box counts as one ({@code subtractMax}, reference §1.1).
   */
  void subtractMax(List<TypeOption> options) {
    for (var e : left.entrySet()) {
      if (e.getKey().name().equals("nodes")) {
        e.setValue(e.getValue() - 1);
        continue;
      }
      long max = 0;
      for (TypeOption o : options) {
        max = Math.max(max, units(e.getKey(), o.capacity().getOrZero(e.getKey())));
      }
      e.setValue(e.getValue() - max);
    }
  }
}
