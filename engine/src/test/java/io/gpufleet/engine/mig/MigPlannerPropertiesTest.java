package io.gpufleet.engine.mig;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.model.gpu.MigGeometry;
import io.gpufleet.model.gpu.MigInstance;
import io.gpufleet.model.gpu.MigPlacement;
import io.gpufleet.model.gpu.MigProfile;
import io.gpufleet.testing.property.Gen;
import io.gpufleet.testing.property.Property;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * For every MIG-capable catalogue GPU and random mig-parted layouts: a placed layout never overlaps,
 * never exceeds memory or compute slices, uses only allowed starts and is exactly what was asked;
 * a rejected layout truly has no placement (checked against an independent exhaustive search).
 */
class MigPlannerPropertiesTest {

  record Case(GpuModel gpu, Map<String, Integer> counts) {}

  /** Fixed, so every build runs the same samples. */
  private static final long SEED = 20261206L;

  static Gen<Case> layouts() {
    List<GpuModel> migGpus = GpuCatalog.builtIn().models().stream().filter(GpuModel::migCapable).toList();
    return Gen.of(migGpus).flatMap(gpu -> {
      List<Gen<Integer>> perProfile = new ArrayList<>();
      for (MigProfile p : gpu.migProfiles()) {
        // Most profiles absent, so layouts are often feasible; counts sometimes beyond the
        // maximum, so invalid layouts are generated too.
        perProfile.add(Gen.frequencyOf(3, Gen.just(0), 1, Gen.ints(1, p.maxInstances() + 1)));
      }
      return Gen.tuple(perProfile.toArray(Gen<?>[]::new)).map(list -> {
        Map<String, Integer> counts = new TreeMap<>();
        for (int i = 0; i < list.size(); i++) {
          if (list.<Integer>get(i) > 0) {
            counts.put(gpu.migProfiles().get(i).name(), list.get(i));
          }
        }
        return new Case(gpu, counts);
      });
    });
  }

  @Test
  void placedLayoutsAreValidAndRejectedOnesImpossible() {
    Property.check(SEED, 1000, layouts(), MigPlannerPropertiesTest::placedLayoutsAreValidAndRejectedOnesImpossible);
  }

  private static void placedLayoutsAreValidAndRejectedOnesImpossible(Case c) {
    MigPlan plan = MigPlanner.plan(c.gpu(), c.counts());
    boolean feasible = Oracle.feasible(c.gpu(), c.counts());
    switch (plan) {
      case MigPlan.Placed placed -> {
        assertThat(feasible).as("oracle agrees %s fits on %s", c.counts(), c.gpu()).isTrue();
        checkValid(c, placed.instances());
      }
      case MigPlan.Rejected rejected -> {
        assertThat(feasible).as("%s on %s was rejected (%s) but fits", c.counts(), c.gpu(), rejected.reason())
            .isFalse();
        assertThat(rejected.reason()).isNotBlank();
      }
    }
  }

  /** Both outcomes and every MIG-capable model are exercised, or the property proves little. */
  @Test
  void coversEveryGpuAndBothOutcomes() {
    Map<String, Integer> outcomes = new TreeMap<>();
    Map<String, Integer> gpus = new TreeMap<>();
    Property.check(SEED, 1000, layouts(), c -> {
      boolean placed = MigPlanner.plan(c.gpu(), c.counts()) instanceof MigPlan.Placed;
      outcomes.merge(placed ? "placed" : "rejected", 1, Integer::sum);
      gpus.merge(c.gpu().id(), 1, Integer::sum);
    });
    assertThat(outcomes).as("outcomes of 1000 layouts").hasEntrySatisfying("placed", n -> assertThat(n).isGreaterThan(100))
        .hasEntrySatisfying("rejected", n -> assertThat(n).isGreaterThan(100));
    for (GpuModel g : GpuCatalog.builtIn().models()) {
      if (g.migCapable()) {
        assertThat(gpus).as("layouts per GPU").containsKey(g.id());
      }
    }
  }

  private static void checkValid(Case c, List<MigInstance> instances) {
    MigGeometry geo = c.gpu().migGeometry().orElseThrow();
    int compute = 0;
    Map<String, Integer> counted = new TreeMap<>();
    for (int i = 0; i < instances.size(); i++) {
      MigInstance a = instances.get(i);
      assertThat(a.profile().placements()).contains(a.placement());
      assertThat(a.placement().end()).isLessThanOrEqualTo(geo.memorySlices());
      for (int j = i + 1; j < instances.size(); j++) {
        assertThat(a.placement().overlaps(instances.get(j).placement())).as("%s vs %s", a, instances.get(j)).isFalse();
      }
      compute += a.profile().computeSlices();
      counted.merge(a.profile().name(), 1, Integer::sum);
    }
    assertThat(compute).isLessThanOrEqualTo(geo.computeSlices());
    assertThat(counted).isEqualTo(new TreeMap<>(c.counts()));
  }

  /** Tries every combination of placements per profile: slow, obvious, independent of the planner. */
  static final class Oracle {
    static boolean feasible(GpuModel gpu, Map<String, Integer> counts) {
      MigGeometry geo = gpu.migGeometry().orElseThrow();
      List<MigProfile> profiles = new ArrayList<>();
      List<Integer> ns = new ArrayList<>();
      int compute = 0;
      for (var e : counts.entrySet()) {
        MigProfile p = gpu.migProfile(e.getKey()).orElse(null);
        if (p == null || e.getValue() > p.maxInstances()) {
          return false;
        }
        profiles.add(p);
        ns.add(e.getValue());
        compute += e.getValue() * p.computeSlices();
      }
      return compute <= geo.computeSlices() && search(profiles, ns, 0, new ArrayList<>(), geo);
    }

    private static boolean search(List<MigProfile> profiles, List<Integer> ns, int k, List<MigPlacement> used,
        MigGeometry geo) {
      if (k == profiles.size()) {
        return true;
      }
      for (List<MigPlacement> combo : combinations(profiles.get(k).placements(), ns.get(k))) {
        List<MigPlacement> next = new ArrayList<>(used);
        boolean ok = true;
        for (MigPlacement p : combo) {
          if (p.end() > geo.memorySlices() || next.stream().anyMatch(p::overlaps)) {
            ok = false;
            break;
          }
          next.add(p);
        }
        if (ok && search(profiles, ns, k + 1, next, geo)) {
          return true;
        }
      }
      return false;
    }

    private static List<List<MigPlacement>> combinations(List<MigPlacement> items, int n) {
      List<List<MigPlacement>> out = new ArrayList<>();
      choose(items, n, 0, new ArrayList<>(), out);
      return out;
    }

    private static void choose(List<MigPlacement> items, int n, int from, List<MigPlacement> cur,
        List<List<MigPlacement>> out) {
      if (cur.size() == n) {
        out.add(List.copyOf(cur));
        return;
      }
      for (int i = from; i < items.size(); i++) {
        cur.add(items.get(i));
        choose(items, n, i + 1, cur, out);
        cur.removeLast();
      }
    }
  }
}
