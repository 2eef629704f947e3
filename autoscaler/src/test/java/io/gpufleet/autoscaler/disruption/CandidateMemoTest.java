package io.gpufleet.autoscaler.disruption;

import static io.gpufleet.autoscaler.disruption.DisruptionViews.CATALOG;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.T0;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.node;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.pod;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.pool;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.workload.DisruptionBudget;
import io.gpufleet.model.workload.IntOrPercent;
import io.gpufleet.model.workload.PodDisruptionBudget;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The candidate memo against the checks worked out afresh: over seeded sequences of views in which
 * some state nodes are kept and others replaced, PDBs' status and set change, the NodePool object is
 * replaced, time passes do-not-disrupt durations and consolidateAfter, one memo kept across the
 * sequence must give, for every node, method filter and {@code eventual}, what a new memo gives.
 */
class CandidateMemoTest {

  static final PodDisruptionBudget PDB_A = pdb("a", "a");
  static final PodDisruptionBudget PDB_B = pdb("b", "b");
  /** A second budget over the pods of {@code a}: eviction refuses pods under two. */
  static final PodDisruptionBudget PDB_A2 = pdb("a2", "a");

  private static PodDisruptionBudget pdb(String name, String app) {
    return new PodDisruptionBudget(ObjectMeta.named(name), LabelSelector.matching(Labels.of("app", app)),
        Optional.empty(), Optional.of(new IntOrPercent.Count(1)));
  }

  private static final List<DisruptionMethod.Filter> FILTERS = List.of((n, p, now) -> true, Consolidation.FILTER,
      Emptiness.FILTER, (n, p, now) -> n.pods().size() % 2 == 0);

  @Test
  void aKeptMemoAnswersAsAFreshOne() {
    int answers = 0;
    int named = 0;
    Set<String> kinds = new HashSet<>();
    for (long seed = 1; seed <= 60; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      NodePool general = pool();
      NodePool graced = general.withTemplate(general.template().withTerminationGracePeriod(
          Optional.of(Duration.ofHours(1))));
      CandidateMemo kept = new CandidateMemo();
      List<StateNode> nodes = new ArrayList<>();
      int made = 0;
      Instant now = T0.plus(Duration.ofMinutes(5));
      NodePool current = general;
      List<PodDisruptionBudget> specs = List.of(PDB_A, PDB_B);
      for (int i = 0; i < 6; i++) {
        nodes.add(draw(r, current, made++, now));
      }
      for (int step = 0; step < 25; step++) {
        now = now.plus(Duration.ofMinutes(r.nextInt(20)));
        if (r.nextInt(6) == 0) { // the NodePool written again: another object, maybe other settings
          current = switch (r.nextInt(3)) {
            case 0 -> pool();
            case 1 -> graced;
            default -> pool(ConsolidationPolicy.WHEN_EMPTY);
          };
        }
        if (r.nextInt(8) == 0) {
          specs = r.nextBoolean() ? List.of(PDB_A, PDB_B) : List.of(PDB_A, PDB_A2, PDB_B);
        }
        for (int i = 0; i < nodes.size(); i++) {
          if (r.nextInt(4) == 0) {
            nodes.set(i, draw(r, current, made++, now));
          }
        }
        List<DisruptionBudget> entries = new ArrayList<>();
        for (PodDisruptionBudget b : specs) {
          entries.add(new DisruptionBudget(b, r.nextInt(3) - 1));
        }
        ClusterView v = new ClusterView(now, List.of(current), CATALOG, OfferingAvailability.ALL, nodes, List.of(),
            List.of(), new PdbIndex(entries));
        for (DisruptionMethod.Filter f : FILTERS) {
          for (boolean eventual : List.of(false, true)) {
            for (StateNode n : nodes) {
              Optional<String> fresh = new CandidateMemo().rejection(n, v, eventual, f);
              assertThat(kept.rejection(n, v, eventual, f)).as("seed %d step %d node %s", seed, step, n.name())
                  .isEqualTo(fresh);
              kinds.add(fresh.map(s -> s.replaceAll("\\(.*", "")).orElse("candidate"));
              answers++;
            }
            List<Candidate> all = Candidates.of(v, eventual, f);
            assertThat(kept.of(v, eventual, f)).isEqualTo(all);
            // One node's candidate, as validation asks it: by its claim's name, by its node's, or by none.
            List<String> names = new ArrayList<>(List.of("no-such-claim"));
            for (StateNode n : nodes) {
              names.add(n.name());
              n.claim().ifPresent(c -> names.add(c.name()));
            }
            for (String name : names) {
              assertThat(kept.candidate(v, name, eventual, f)).as("seed %d step %d name %s", seed, step, name)
                  .isEqualTo(all.stream().filter(c -> c.name().equals(name)).findFirst());
              named++;
            }
          }
        }
      }
    }
    assertThat(answers).isGreaterThan(10_000);
    assertThat(named).isGreaterThan(10_000);
    // The sequences reach every kind of answer the memo keeps.
    assertThat(kinds).contains("candidate", Candidates.FILTERED, "Pdb prevents pod evictions ",
        "Eviction does not support multiple PDBs ", "Pod has \"karpenter.sh/do-not-disrupt\" annotation ");
  }

  /** A node of {@code pool} with up to three pods: plain, under a PDB, do-not-disrupt for good or for 30 minutes. */
  static StateNode draw(SplittableRandom r, NodePool pool, int index, Instant now) {
    List<Pod> pods = new ArrayList<>();
    Map<String, Instant> starts = new HashMap<>();
    for (int j = r.nextInt(4); j > 0; j--) {
      Pod p = pod("p" + index + "-" + j);
      p = switch (r.nextInt(5)) {
        case 0 -> p;
        case 1 -> labelled(p, "a");
        case 2 -> labelled(p, "b");
        case 3 -> DisruptionViews.doNotDisrupt(p);
        default -> p.withMeta(p.meta().withAnnotations(Labels.of("karpenter.sh/do-not-disrupt", "30m")));
      };
      pods.add(p);
      starts.put(p.key(), now.minus(Duration.ofMinutes(r.nextInt(40))));
    }
    StateNode n = node(pool, "m5.large", 1000 + index, now.minus(Duration.ofMinutes(r.nextInt(20))),
        pods.toArray(Pod[]::new));
    Set<String> terminating = r.nextInt(5) == 0 && !pods.isEmpty() ? Set.of(pods.getFirst().key()) : Set.of();
    return new StateNode(n.name(), n.claim(), n.node(), n.pods(), terminating, n.lastPodEvent(), false, starts);
  }

  static Pod labelled(Pod p, String app) {
    return p.withMeta(p.meta().withLabels(p.meta().labels().with("app", app)));
  }
}
