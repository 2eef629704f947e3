package io.gpufleet.engine.mig;

import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.model.gpu.MigGeometry;
import io.gpufleet.model.gpu.MigInstance;
import io.gpufleet.model.gpu.MigPlacement;
import io.gpufleet.model.gpu.MigProfile;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Places a set of MIG instances ({@code {"3g.40gb": 1, "1g.10gb": 4}}) on one GPU by its placement
 * rules: each instance at one of its profile's allowed start slices, no two sharing a memory slice,
 * compute slices summed within the GPU's (k8s-gpu-semantics §4). Finds a placement whenever one
 * exists (exhaustive search over the few candidates), and says why when none does.
 */
public final class MigPlanner {
  private MigPlanner() {}

  public static MigPlan plan(GpuModel gpu, Map<String, Integer> counts) {
    if (!gpu.migCapable()) {
      return new MigPlan.Rejected("MIG is not supported on " + gpu.productName());
    }
    MigGeometry geo = gpu.migGeometry().orElseThrow();
    SortedMap<String, Integer> wanted = new TreeMap<>(counts);
    List<MigProfile> instances = new ArrayList<>();
    int compute = 0;
    int memory = 0;
    for (var e : wanted.entrySet()) {
      int n = e.getValue();
      if (n < 0) {
        return new MigPlan.Rejected("count of " + e.getKey() + " must be >= 0, found " + n);
      }
      if (n == 0) {
        continue;
      }
      var profile = gpu.migProfile(e.getKey());
      if (profile.isEmpty()) {
        return new MigPlan.Rejected("MIG profile " + e.getKey() + " does not exist on " + gpu.productName()
            + " (its profiles: " + String.join(", ", gpu.migProfiles().stream().map(MigProfile::name).toList()) + ")");
      }
      MigProfile p = profile.get();
      if (n > p.maxInstances()) {
        return new MigPlan.Rejected(gpu.productName() + " holds at most " + p.maxInstances() + " × " + p.name()
            + ", asked for " + n);
      }
      for (int i = 0; i < n; i++) {
        instances.add(p);
      }
      compute += n * p.computeSlices();
      memory += n * p.memorySlices();
    }
    String layout = describe(wanted);
    if (compute > geo.computeSlices()) {
      return new MigPlan.Rejected(layout + " needs " + compute + " compute slices; " + gpu.productName() + " has "
          + geo.computeSlices());
    }
    if (memory > geo.memorySlices()) {
      return new MigPlan.Rejected(layout + " needs " + memory + " memory slices; " + gpu.productName() + " has "
          + geo.memorySlices());
    }
    // Largest first: they have the fewest starts, so the search fails fast.
    instances.sort(Comparator.comparingInt(MigProfile::memorySlices).reversed()
        .thenComparing(MigProfile::name));
    MigPlacement[] chosen = new MigPlacement[instances.size()];
    if (!place(instances, 0, chosen, new boolean[geo.memorySlices()])) {
      return new MigPlan.Rejected(layout + " has no placement on " + gpu.productName()
          + " without two instances sharing a memory slice");
    }
    List<MigInstance> out = new ArrayList<>();
    for (int i = 0; i < chosen.length; i++) {
      out.add(new MigInstance(instances.get(i), chosen[i]));
    }
    return new MigPlan.Placed(out);
  }

  private static boolean place(List<MigProfile> instances, int i, MigPlacement[] chosen, boolean[] used) {
    if (i == instances.size()) {
      return true;
    }
    MigProfile p = instances.get(i);
    // Identical profiles take increasing starts: the same set in another order is no new answer.
    int minStart = i > 0 && instances.get(i - 1) == p ? chosen[i - 1].start() + 1 : 0;
    for (MigPlacement pl : p.placements()) {
      if (pl.start() < minStart || pl.end() > used.length || taken(used, pl)) {
        continue;
      }
      mark(used, pl, true);
      chosen[i] = pl;
      if (place(instances, i + 1, chosen, used)) {
        return true;
      }
      mark(used, pl, false);
    }
    return false;
  }

  private static boolean taken(boolean[] used, MigPlacement pl) {
    for (int s = pl.start(); s < pl.end(); s++) {
      if (used[s]) {
        return true;
      }
    }
    return false;
  }

  private static void mark(boolean[] used, MigPlacement pl, boolean value) {
    for (int s = pl.start(); s < pl.end(); s++) {
      used[s] = value;
    }
  }

  /** {@code 3g.40gb + 4g.40gb + 1g.10gb}, {@code 7 × 1g.10gb}. */
  static String describe(SortedMap<String, Integer> counts) {
    List<String> parts = new ArrayList<>();
    counts.forEach((name, n) -> {
      if (n == 1) {
        parts.add(name);
      } else if (n > 1) {
        parts.add(n + " × " + name);
      }
    });
    return parts.isEmpty() ? "an empty layout" : String.join(" + ", parts);
  }
}
