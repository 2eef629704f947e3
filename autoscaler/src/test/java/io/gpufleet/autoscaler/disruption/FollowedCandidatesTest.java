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
import io.gpufleet.autoscaler.state.NodeLog;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.autoscaler.termination.DoNotDisrupt;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.workload.DisruptionBudget;
import io.gpufleet.model.workload.PodDisruptionBudget;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The candidate memo following views by the view builder's splices ({@link NodeLog}) against the
 * answers worked out afresh: over seeded sequences of views whose lists change by random splices
 * (nodes coming, going, replaced, a group put back in another order), with chains that restart,
 * views the memo is not asked about, PDBs switching, the PDB set and the NodePool replaced and time
 * passing durations and {@code consolidateAfter} (views come in time order, as the simulation's do:
 * the kept answers assume it), one memo kept across the sequence must list, for
 * every method filter and {@code eventual}, the candidates a new memo lists, match the view's list
 * row by row, and find the next change a pass over every node finds; and it must ask about fewer
 * rows than a pass over every row at every view would.
 */
class FollowedCandidatesTest {

  private static final List<DisruptionMethod.Filter> FILTERS = List.of(Consolidation.FILTER, Emptiness.FILTER,
      (NodeFacts.Filter) (f, now) -> f.node.pods().size() != 1,
      (NodeFacts.Filter) (f, now) -> !f.empty && f.consolidatableBy(now),
      (n, p, now) -> n.pods().size() % 2 == 0);

  @Test
  void aMemoFollowingSplicesAnswersAsAFreshOne() {
    long views = 0;
    long rowViews = 0;
    long asked = 0;
    long ranked = 0;
    for (long seed = 1; seed <= 40; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      NodePool current = pool();
      CandidateMemo kept = new CandidateMemo();
      List<StateNode> nodes = new ArrayList<>();
      int made = 0;
      Instant now = T0.plus(Duration.ofMinutes(5));
      List<PodDisruptionBudget> specs = List.of(PDB_A, PDB_B);
      Map<PodDisruptionBudget, Integer> allowed = new HashMap<>();
      for (int i = 0; i < 20; i++) {
        nodes.add(node(r, current, made++, now));
      }
      NodeLog log = NodeLog.start();
      for (int step = 0; step < 60; step++) {
        now = now.plus(Duration.ofMinutes(r.nextInt(4) == 0 ? 0 : r.nextInt(8)));
        if (r.nextInt(15) == 0) { // the NodePool written again: every node's facts anew
          current = r.nextBoolean() ? pool() : pool(ConsolidationPolicy.WHEN_EMPTY);
        }
        if (r.nextInt(15) == 0) {
          specs = r.nextBoolean() ? List.of(PDB_A, PDB_B) : List.of(PDB_A, PDB_A2, PDB_B);
        }
        if (r.nextInt(12) == 0) { // a list built afresh: a new chain, maybe in another order
          if (r.nextBoolean()) {
            Collections.shuffle(nodes, new java.util.Random(r.nextLong()));
            nodes = new ArrayList<>(nodes);
          }
          log = NodeLog.start();
        } else {
          for (int k = r.nextInt(4); k > 0; k--) {
            int index = made++;
            NodePool pool = current;
            Instant at = now;
            log = RandomSplices.splice(r, nodes, log, null, range -> {
              List<StateNode> out = new ArrayList<>();
              for (int m = RandomSplices.count(r, range); m > 0; m--) {
                out.add(node(r, pool, index * 4 + m + 100_000, at));
              }
              return out;
            });
          }
        }
        for (PodDisruptionBudget b : specs) {
          if (!allowed.containsKey(b) || r.nextInt(3) == 0) {
            allowed.put(b, r.nextInt(3) - 1);
          }
        }
        List<DisruptionBudget> entries = new ArrayList<>();
        for (PodDisruptionBudget b : specs) {
          entries.add(new DisruptionBudget(b, allowed.get(b)));
        }
        ClusterView v = new ClusterView(now, List.of(current), CATALOG, OfferingAvailability.ALL, List.copyOf(nodes),
            List.of(), List.of(), new PdbIndex(entries), Map.of(), log);
        if (r.nextInt(4) == 0) {
          continue; // a view the memo never sees: the next one follows from further back
        }
        views++;
        NodeFacts[] rows = kept.rows(v);
        assertThat(rows).hasSameSizeAs(nodes);
        for (int i = 0; i < rows.length; i++) {
          assertThat(rows[i].node).as("seed %d step %d row %d", seed, step, i).isSameAs(nodes.get(i));
          assertThat(rows[i].at).isEqualTo(i);
          assertThat(kept.listed(rows[i])).isTrue();
        }
        long before = kept.asked;
        for (DisruptionMethod.Filter f : FILTERS) {
          for (boolean eventual : List.of(false, true)) {
            List<Candidate> fresh = Candidates.of(v, eventual, f);
            List<Candidate> followed = kept.of(v, eventual, f);
            assertThat(followed.stream().map(Candidate::name).toList())
                .as("seed %d step %d filter %d eventual %s", seed, step, FILTERS.indexOf(f), eventual)
                .isEqualTo(fresh.stream().map(Candidate::name).toList());
            assertThat(followed).isEqualTo(fresh);
            if (followed instanceof CandidateMemo.Listed l) { // the ranking it followed, as a sort ranks them
              assertThat(l.ranked()).as("seed %d step %d ranked", seed, step).isEqualTo(Consolidation.sorted(fresh));
              ranked++;
            }
            if (f instanceof NodeFacts.Filter) {
              rowViews += rows.length;
            }
          }
        }
        asked += kept.asked - before;
        Instant limit = now.plus(Duration.ofMinutes(30));
        assertThat(kept.nextChange(v, limit)).as("seed %d step %d", seed, step).isEqualTo(nextChange(v, limit));
      }
    }
    assertThat(views).isGreaterThan(1_500);
    assertThat(ranked).isGreaterThan(10_000);
    System.out.printf("views %d, rows x filters %d, asked %d%n", views, rowViews, asked);
    // It follows what changed: far fewer rows asked about than every row at every view.
    assertThat(asked).isLessThan(rowViews / 2);
  }

  /** A managed node, or now and then one with no NodeClaim. */
  private static StateNode node(SplittableRandom r, NodePool pool, int index, Instant now) {
    StateNode n = draw(r, pool, index, now);
    if (r.nextInt(8) == 0) {
      return new StateNode(n.name(), Optional.empty(), n.node(), n.pods(), n.terminating(), n.lastPodEvent(), false,
          Map.of());
    }
    return n;
  }


  /** A pass over every node: the first instant after now a node turns consolidatable or a protection ends. */
  private static Instant nextChange(ClusterView v, Instant limit) {
    Instant next = limit;
    for (StateNode n : v.nodes()) {
      NodePool pool = n.claim().flatMap(c -> v.nodePool(c.nodePool())).orElse(null);
      Instant t = pool == null ? null : Candidates.consolidatableAt(n, pool);
      if (t == null) {
        continue;
      }
      if (t.isAfter(v.now()) && t.isBefore(next)) {
        next = t;
      }
      Optional<Instant> end = DoNotDisrupt.nextExpiry(n, v.now());
      if (end.isPresent() && end.get().isBefore(next)) {
        next = end.get();
      }
    }
    return next;
  }
}
