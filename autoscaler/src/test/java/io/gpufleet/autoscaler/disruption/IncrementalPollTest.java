package io.gpufleet.autoscaler.disruption;

import static io.gpufleet.autoscaler.disruption.CandidateMemoTest.PDB_A;
import static io.gpufleet.autoscaler.disruption.CandidateMemoTest.PDB_A2;
import static io.gpufleet.autoscaler.disruption.CandidateMemoTest.PDB_B;
import static io.gpufleet.autoscaler.disruption.CandidateMemoTest.draw;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.CATALOG;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.T0;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.pool;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.disruption.DisruptionController.RefusalChanges;
import io.gpufleet.autoscaler.state.ClusterView;
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
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The disruption controller's incremental poll ({@link CandidateMemo#rows}, the refusals kept across
 * views) against a controller that sees each view first: over seeded sequences of views in which
 * state nodes are kept, replaced, added, removed and reordered, the NodePool is replaced (other
 * policies, {@code consolidateAfter: Never}, or gone), PDBs change status and set, and time passes
 * consolidateAfter and do-not-disrupt durations, one controller kept across the sequence must give,
 * at every view, the poll's command, the refusals, the changes since the last call (which replayed
 * on a record give the refusals), and the next time a quiet poll's answer may change (worked out
 * here straight from the nodes, as the runtime did before).
 */
class IncrementalPollTest {

  @Test
  void aKeptControllerAnswersAsAFreshOne() {
    Set<String> kinds = new HashSet<>();
    int changesSeen = 0;
    int views = 0;
    for (long seed = 1; seed <= 40; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      NodePool general = pool();
      NodePool current = general;
      DisruptionController kept = UnconsolidatableTest.controller(general);
      SortedMap<String, ConsolidationRefusal> recorded = new TreeMap<>();
      List<StateNode> nodes = new ArrayList<>();
      int made = 0;
      Instant now = T0.plus(Duration.ofMinutes(5));
      List<PodDisruptionBudget> specs = List.of(PDB_A, PDB_B);
      boolean poolGone = false;
      for (int i = 0; i < 6; i++) {
        nodes.add(draw(r, current, made++, now));
      }
      for (int step = 0; step < 30; step++) {
        now = now.plus(Duration.ofMinutes(r.nextInt(20)));
        if (r.nextInt(6) == 0) { // the NodePool written again: another object, maybe other settings, or deleted
          poolGone = r.nextInt(5) == 0;
          current = switch (r.nextInt(4)) {
            case 0 -> pool();
            case 1 -> pool(ConsolidationPolicy.WHEN_EMPTY);
            case 2 -> general.withDisruption(general.disruption().withConsolidateAfter(Optional.empty()));
            default -> general.withTemplate(general.template().withTerminationGracePeriod(
                Optional.of(Duration.ofHours(1))));
          };
        }
        if (r.nextInt(8) == 0) {
          specs = r.nextBoolean() ? List.of(PDB_A, PDB_B) : List.of(PDB_A, PDB_A2, PDB_B);
        }
        for (int i = 0; i < nodes.size(); i++) {
          if (r.nextInt(5) == 0) {
            nodes.set(i, draw(r, current, made++, now));
          }
        }
        if (r.nextInt(4) == 0) { // a node comes, somewhere in the order
          nodes.add(r.nextInt(nodes.size() + 1), draw(r, current, made++, now));
        }
        if (nodes.size() > 2 && r.nextInt(4) == 0) { // a node goes
          nodes.remove(r.nextInt(nodes.size()));
        }
        if (r.nextInt(6) == 0) { // marked for deletion: the same node, a new state node
          int i = r.nextInt(nodes.size());
          StateNode n = nodes.get(i);
          nodes.set(i, new StateNode(n.name(), n.claim(), n.node(), n.pods(), n.terminating(), n.lastPodEvent(),
              true, n.podStarts()));
        }
        List<DisruptionBudget> entries = new ArrayList<>();
        for (PodDisruptionBudget b : specs) {
          entries.add(new DisruptionBudget(b, r.nextInt(3) - 1));
        }
        ClusterView v = new ClusterView(now, poolGone ? List.of() : List.of(current), CATALOG,
            OfferingAvailability.ALL, nodes, List.of(), List.of(), new PdbIndex(entries));
        views++;
        String at = "seed " + seed + " step " + step;
        DisruptionController fresh = UnconsolidatableTest.controller(general);
        // Not every view is polled or explained, as in a run: the kept state must follow anyway.
        if (r.nextInt(3) > 0) {
          assertThat(kept.poll(v, new SplittableRandom(seed * 100 + step))).as(at)
              .isEqualTo(fresh.poll(v, new SplittableRandom(seed * 100 + step)));
        }
        if (r.nextInt(4) == 0) {
          continue;
        }
        SortedMap<String, ConsolidationRefusal> all = UnconsolidatableTest.controller(general).unconsolidatable(v);
        assertThat(kept.unconsolidatable(v)).as(at).isEqualTo(all);
        changesSeen += replay(kept.unconsolidatableChanges(v), recorded);
        assertThat(recorded).as(at).isEqualTo(all);
        all.values().forEach(w -> kinds.add(w.reason() + ": " + w.message().replaceAll("[(\"].*", "")));
        Instant limit = now.plus(Duration.ofMinutes(5));
        assertThat(kept.nextConsolidatableChange(v, limit)).as(at).isEqualTo(nextChange(v, limit));
      }
    }
    assertThat(views).isGreaterThan(1000);
    assertThat(changesSeen).isGreaterThan(200);
    // The sequences reach every kind of refusal the kept map holds.
    assertThat(kinds).contains("DisruptionBlocked: Pdb prevents pod evictions ",
        "DisruptionBlocked: Pod has ", "DisruptionBlocked: already being disrupted",
        "Unconsolidatable: NodePool ");
  }

  /**
   * Replays the changes since the last call on a record, as the runtime records them: a complete answer
   * replaces it. Returns how many claims a partial answer named (0 for a complete one).
   */
  static int replay(RefusalChanges changes, SortedMap<String, ConsolidationRefusal> recorded) {
    int named = 0;
    if (changes.complete()) {
      recorded.keySet().retainAll(changes.changed().keySet());
    } else {
      recorded.keySet().removeAll(changes.gone());
      named = changes.changed().size() + changes.gone().size();
    }
    recorded.putAll(changes.changed());
    return named;
  }

  /** When a quiet poll's answer may next change, from the nodes themselves (the runtime's loop before facts were kept). */
  private static Instant nextChange(ClusterView v, Instant limit) {
    Instant next = limit;
    for (StateNode n : v.nodes()) {
      if (n.claim().isEmpty() || !n.claim().get().isInitialized()) {
        continue;
      }
      Optional<NodePool> p = v.nodePool(n.claim().get().nodePool());
      if (p.isEmpty() || p.get().disruption().consolidateAfter().isEmpty()) {
        continue;
      }
      Instant since = n.lastPodEvent();
      Instant init = n.claim().get().initialized().get();
      if (init.isAfter(since)) {
        since = init;
      }
      Instant t = since.plus(p.get().disruption().consolidateAfter().get());
      if (t.isAfter(v.now()) && t.isBefore(next)) {
        next = t;
      }
      Optional<Instant> unprotected = DoNotDisrupt.nextExpiry(n, v.now());
      if (unprotected.isPresent() && unprotected.get().isBefore(next)) {
        next = unprotected.get();
      }
    }
    return next;
  }
}
