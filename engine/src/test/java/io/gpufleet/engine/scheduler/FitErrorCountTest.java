package io.gpufleet.engine.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

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
}
