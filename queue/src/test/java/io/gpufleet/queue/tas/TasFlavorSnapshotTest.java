package io.gpufleet.queue.tas;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.queue.api.ResourceFlavor;
import io.gpufleet.queue.api.Topology;
import io.gpufleet.queue.api.TopologyAssignment;
import io.gpufleet.queue.api.TopologyRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Placement invariants over seeded random block/rack/host trees: a placement holds exactly the pods
 * asked for, no host gets more than it fits, a required level's pods share one domain of it, and a
 * pod set is refused only when it cannot fit (in one domain of a required level; anywhere otherwise).
 */
class TasFlavorSnapshotTest {

  private static final List<String> LEVELS = List.of("block", "rack", Topology.HOSTNAME);

  @Test
  void placementsHoldTheirPodsWithinCapacityAndTheRequiredDomain() {
    SplittableRandom random = new SplittableRandom(20261206L);
    for (int round = 0; round < 400; round++) {
      Map<String, Labels> hosts = new TreeMap<>();
      Map<String, Integer> fits = new HashMap<>();
      List<TopologyNode> nodes = new ArrayList<>();
      int blocks = 1 + random.nextInt(3);
      for (int b = 0; b < blocks; b++) {
        int racks = 1 + random.nextInt(3);
        for (int r = 0; r < racks; r++) {
          int count = 1 + random.nextInt(4);
          for (int h = 0; h < count; h++) {
            String host = "h" + b + r + h;
            int cpus = random.nextInt(5);
            Labels labels = Labels.of("block", "b" + b, "rack", "b" + b + "r" + r, Topology.HOSTNAME, host);
            hosts.put(host, labels);
            fits.put(host, cpus);
            nodes.add(TopologyNode.ready(Node.of(host, labels, List.of(), ResourceList.of("cpu", String.valueOf(cpus),
                "pods", "10"))));
          }
        }
      }
      int count = 1 + random.nextInt(12);
      String level = LEVELS.get(random.nextInt(3));
      Optional<TopologyRequest> request = switch (random.nextInt(3)) {
        case 0 -> Optional.of(TopologyRequest.required(level));
        case 1 -> Optional.of(TopologyRequest.preferred(level));
        default -> Optional.of(TopologyRequest.unconstrainedRequest());
      };
      TasFlavorSnapshot s = new TasFlavorSnapshot(ResourceFlavor.named("f").withTopology("t"), new Topology("t", LEVELS),
          nodes);
      TasFlavorSnapshot.Outcome o = s.assign(request, false, count, new TreeMap<>(Map.of(ResourceName.CPU, 1000L)),
          PodSpec.of(), Map.of(), false);
      int total = fits.values().stream().mapToInt(Integer::intValue).sum();
      boolean required = request.get().required().isPresent();
      int bestDomain = required ? bestDomain(hosts, fits, level) : total;
      String what = "round " + round + ": " + request.get() + " x" + count;
      if (bestDomain >= count) {
        assertThat(o.failure()).as(what).isEmpty();
        TopologyAssignment a = o.assignment().orElseThrow();
        assertThat(a.levels()).isEqualTo(List.of(Topology.HOSTNAME));
        assertThat(a.domains().stream().mapToInt(TopologyAssignment.Domain::count).sum()).as(what).isEqualTo(count);
        a.domains().forEach(d -> assertThat(d.count()).as(what).isPositive().isLessThanOrEqualTo(fits.get(
            d.values().getFirst())));
        if (required) {
          assertThat(a.domains().stream().map(d -> hosts.get(d.values().getFirst()).get(level).orElseThrow()).distinct())
              .as(what).hasSize(1);
        }
      } else {
        assertThat(o.failure()).as(what).isNotEmpty();
      }
    }
  }

  /** The most pods any one domain of {@code level} fits. */
  private static int bestDomain(Map<String, Labels> hosts, Map<String, Integer> fits, String level) {
    Map<String, Integer> perDomain = new HashMap<>();
    hosts.forEach((h, l) -> perDomain.merge(l.get(level).orElseThrow(), fits.get(h), Integer::sum));
    return perDomain.values().stream().mapToInt(Integer::intValue).max().orElse(0);
  }
}
