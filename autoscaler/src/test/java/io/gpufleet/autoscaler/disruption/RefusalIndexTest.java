package io.gpufleet.autoscaler.disruption;

import static io.gpufleet.autoscaler.disruption.CandidateMemoTest.PDB_A;
import static io.gpufleet.autoscaler.disruption.CandidateMemoTest.PDB_A2;
import static io.gpufleet.autoscaler.disruption.CandidateMemoTest.PDB_B;
import static io.gpufleet.autoscaler.disruption.CandidateMemoTest.draw;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.CATALOG;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.T0;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.pool;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.workload.DisruptionBudget;
import io.gpufleet.model.workload.PodDisruptionBudget;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The refresh of the kept refusals visits only the rows that may have changed (rows that came, rows
 * that read the time, budgets or a simulation, rows whose answer read a PDB that switched between
 * blocking and allowing). Over seeded runs of many views in which few nodes change (half of them
 * hand over the very list of state nodes of the view before) and the PDBs' status switches often, as
 * on the week shape, a kept controller must give at every refresh the
 * refusals a fresh controller works out from every node, and the changes since its last call must
 * replay to them; and it must have visited far fewer rows than a refresh of every row would.
 */
class RefusalIndexTest {

  @Test
  void aRefreshOfTheRowsThatMayHaveChangedGivesTheRefusalsOfAFullOne() {
    long visited = 0;
    long rowsSeen = 0;
    int changesSeen = 0;
    for (long seed = 1; seed <= 30; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      // Mostly a WhenEmpty NodePool, whose refusals read only facts and answers, as on the week shape.
      NodePool current = seed % 3 == 0 ? pool() : pool(ConsolidationPolicy.WHEN_EMPTY);
      DisruptionController kept = UnconsolidatableTest.controller(current);
      SortedMap<String, ConsolidationRefusal> recorded = new TreeMap<>();
      List<StateNode> nodes = new ArrayList<>();
      int made = 0;
      Instant now = T0.plus(Duration.ofMinutes(5));
      List<PodDisruptionBudget> specs = List.of(PDB_A, PDB_B);
      for (int i = 0; i < 40; i++) {
        nodes.add(draw(r, current, made++, now));
      }
      List<StateNode> list = List.copyOf(nodes);
      int[] allowed = {1, 1, 1};
      for (int step = 0; step < 80; step++) {
        now = now.plus(Duration.ofSeconds(r.nextInt(600)));
        if (r.nextInt(15) == 0) {
          specs = r.nextBoolean() ? List.of(PDB_A, PDB_B) : List.of(PDB_A, PDB_A2, PDB_B);
        }
        if (r.nextBoolean()) { // else the view's very list of state nodes again, as the view builder hands it out
          for (int i = 0; i < nodes.size(); i++) {
            if (r.nextInt(30) == 0) {
              nodes.set(i, draw(r, current, made++, now));
            }
          }
          if (r.nextInt(3) == 0) {
            nodes.add(r.nextInt(nodes.size() + 1), draw(r, current, made++, now));
          }
          if (r.nextInt(3) == 0) {
            nodes.remove(r.nextInt(nodes.size()));
          }
          list = List.copyOf(nodes);
        }
        for (int i = 0; i < allowed.length; i++) {
          if (r.nextInt(3) == 0) {
            allowed[i] = r.nextInt(3) - 1; // blocking at 0 and below
          }
        }
        List<DisruptionBudget> entries = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
          entries.add(new DisruptionBudget(specs.get(i), allowed[i]));
        }
        ClusterView v = new ClusterView(now, List.of(current), CATALOG, OfferingAvailability.ALL, list, List.of(),
            List.of(), new PdbIndex(entries));
        String at = "seed " + seed + " step " + step;
        if (r.nextInt(3) == 0) { // views the refresh does not see still move the memo on
          kept.poll(v, new SplittableRandom(seed * 1000 + step));
          continue;
        }
        SortedMap<String, ConsolidationRefusal> all = UnconsolidatableTest.controller(current).unconsolidatable(v);
        long before = kept.visits;
        changesSeen += IncrementalPollTest.replay(kept.unconsolidatableChanges(v), recorded);
        visited += kept.visits - before;
        rowsSeen += list.size();
        assertThat(recorded).as(at).isEqualTo(all);
        assertThat(kept.unconsolidatable(v)).as(at).isEqualTo(all);
      }
    }
    assertThat(changesSeen).isGreaterThan(500);
    // Far fewer rows visited than a refresh of every row (the WhenEmpty seeds settle most rows).
    assertThat(visited).isLessThan(rowsSeen / 2);
  }
}
