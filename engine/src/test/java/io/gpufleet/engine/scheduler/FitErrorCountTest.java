package io.gpufleet.engine.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.ResourceList;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * FitError's reason counts, which tally the first distinct statuses by identity and count the rest
 * one by one, against a count node by node: the same for any mix of shared, equal and lone statuses,
 * more distinct ones than are tallied included.
 */
class FitErrorCountTest {

  private static final List<String> REASONS = List.of("Insufficient cpu", "Insufficient memory",
      "Insufficient nvidia.com/gpu", "Too many pods", "node(s) had untolerated taint(s)");

  @Test
  void reasonCountsAreTheNodeByNodeCounts() {
    SplittableRandom random = new SplittableRandom(20261206L);
    for (int round = 0; round < 300; round++) {
      // A pool of statuses, some objects equal but not the same, some with two reasons.
      List<Status> pool = new ArrayList<>();
      int poolSize = 1 + random.nextInt(40);
      for (int k = 0; k < poolSize; k++) {
        String first = REASONS.get(random.nextInt(REASONS.size()));
        pool.add(random.nextBoolean() ? Status.unschedulable("P", first)
            : Status.unresolvable("P", first, REASONS.get(random.nextInt(REASONS.size()))));
      }
      int nodes = 1 + random.nextInt(300);
      Map<String, Status> statuses = new LinkedHashMap<>();
      Map<String, Integer> expected = new TreeMap<>();
      for (int i = 0; i < nodes; i++) {
        if (random.nextInt(10) == 0) {
          continue; // a node not evaluated
        }
        // Runs of one status as well as alternation.
        Status s = random.nextInt(3) == 0 && i > 0 && statuses.containsKey("n" + (i - 1))
            ? statuses.get("n" + (i - 1)) : pool.get(random.nextInt(pool.size()));
        statuses.put("n" + i, s);
        for (String r : s.reasons()) {
          expected.merge(r, 1, Integer::sum);
        }
      }
      Optional<Status> absent = random.nextBoolean() ? Optional.empty()
          : Optional.of(Status.unresolvable("NodeAffinity", "node(s) didn't match Pod's node affinity/selector"));
      int total = nodes + random.nextInt(5);
      if (absent.isPresent() && total > statuses.size()) {
        expected.merge(absent.get().reasons().getFirst(), total - statuses.size(), Integer::sum);
      }
      FitError error = new FitError(total, statuses, absent, "", "");
      assertThat(error.histogram()).as("round %d", round).isEqualTo(expected);
    }
  }

  /**
   * {@link FitError#nodesWith}, which DefaultPreemption reads when no pod can be a victim, kept with a
   * cycle's statuses: the nodes whose own status, or the absent status for those not evaluated, has
   * the code, as {@code statusOf} gives them node by node; the same asked again, of an error derived
   * for PostFilter's message, and of an error over a map of the same statuses.
   */
  @Test
  void nodesWithACodeAreCountedNodeByNode() {
    SplittableRandom random = new SplittableRandom(20261207L);
    for (int round = 0; round < 200; round++) {
      int nodes = 1 + random.nextInt(120);
      List<Node> list = new ArrayList<>();
      for (int i = 0; i < nodes; i++) {
        list.add(Node.of("n" + i, Labels.EMPTY, List.of(), ResourceList.of("cpu", "8", "pods", "10")));
      }
      ClusterSnapshot snapshot = ClusterSnapshot.of(list);
      Status[] failures = new Status[nodes];
      Map<String, Status> byName = new LinkedHashMap<>();
      int evaluated = 0;
      for (int i = 0; i < nodes; i++) {
        int pick = random.nextInt(4);
        if (pick == 0) {
          continue; // left out by PreFilter
        }
        failures[i] = pick == 1 ? Status.unschedulable("P", REASONS.get(random.nextInt(REASONS.size())))
            : Status.unresolvable("P", REASONS.get(random.nextInt(REASONS.size())));
        byName.put("n" + i, failures[i]);
        evaluated++;
      }
      Optional<Status> absent = switch (random.nextInt(3)) {
        case 0 -> Optional.empty();
        case 1 -> Optional.of(Status.unschedulable("NodeName", "node(s) didn't match the requested node name"));
        default -> Optional.of(Status.unresolvable("NodeAffinity", "node(s) didn't match Pod's node affinity/selector"));
      };
      FitError cycle = FitError.ofCycle(snapshot, failures, evaluated, absent);
      FitError mapped = new FitError(nodes, byName, absent, "", "");
      for (Status.Code code : Status.Code.values()) {
        int expected = 0;
        for (int i = 0; i < nodes; i++) {
          Status s = failures[i] != null ? failures[i] : absent.orElse(null);
          expected += s != null && s.code() == code ? 1 : 0;
        }
        assertThat(cycle.nodesWith(snapshot, code)).as("round %d, %s", round, code).isEqualTo(expected);
        assertThat(cycle.nodesWith(snapshot, code)).as("asked again").isEqualTo(expected);
        assertThat(cycle.withPostFilterMessage("m").nodesWith(snapshot, code)).as("derived").isEqualTo(expected);
        assertThat(mapped.nodesWith(snapshot, code)).as("over a map").isEqualTo(expected);
      }
    }
  }
}
