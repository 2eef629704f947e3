package io.gpufleet.sim.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.collect.PMap;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.ResourceList;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The list of state nodes kept by single changes equals the one built from scratch after each of
 * many random changes, NodeClaims of one hash among them; and the claims' order it keeps is the claims
 * map's iteration order.
 */
class ViewNodesTest {

  private static final String[] COLLIDING = {"Aa", "BB", "AaAa", "AaBB", "BBAa", "BBBB"};
  private static final InstanceType TYPE = InstanceCatalog.builtIn().find("g6.xlarge").orElseThrow();

  @Test
  void orderIsThePersistentMapsIterationOrder() {
    SplittableRandom r = new SplittableRandom(20261206L);
    PMap<String, Integer> m = PMap.empty();
    List<String> live = new ArrayList<>();
    for (int step = 0; step < 3000; step++) {
      if (live.isEmpty() || r.nextInt(3) > 0) {
        String k = "gpu-" + Long.toString(r.nextLong() >>> 20, 36);
        m = m.put(k, step);
        if (!live.contains(k)) {
          live.add(k);
        }
      } else {
        m = m.remove(live.remove(r.nextInt(live.size())));
      }
      if (step % 100 == 0) {
        List<String> sorted = new ArrayList<>(m.keys());
        sorted.sort(Comparator.comparingLong(ViewNodes::order));
        assertThat(m.keys()).isEqualTo(sorted);
      }
    }
  }

  @Test
  void changesAppliedOneByOneEqualABuildFromScratch() {
    SplittableRandom r = new SplittableRandom(33L);
    Map<String, StateNode> claims = new HashMap<>(); // claim name -> its state node
    Map<String, StateNode> unmanaged = new HashMap<>();
    PMap<String, Boolean> claimOrder = PMap.empty();
    ViewNodes kept = new ViewNodes();
    kept.reset(List.of(), List.of());
    int collisions = 0;
    for (int step = 0; step < 2000; step++) {
      Map<String, StateNode> claimChanges = new LinkedHashMap<>();
      Map<String, StateNode> nodeChanges = new LinkedHashMap<>();
      for (int k = 1 + r.nextInt(3); k > 0; k--) {
        // "Aa" and "BB" (and their pairs) share a hash, so a place in the claims' order.
        String name = r.nextInt(8) == 0 ? COLLIDING[r.nextInt(COLLIDING.length)] : "n" + r.nextInt(60);
        switch (r.nextInt(4)) {
          case 0 -> { // a claim comes, changes or registers under a node name of its own
            String nodeName = r.nextBoolean() ? name : "ip-" + name;
            if (!unmanaged.containsKey(nodeName) && !nodeChanges.containsKey(nodeName)
                && claims.values().stream().noneMatch(n -> n.name().equals(nodeName) && !n.claim().get().name().equals(name))
                && claimChanges.values().stream().noneMatch(n -> n != null && n.name().equals(nodeName))) {
              claimChanges.put(name, node(nodeName, Optional.of(name), step));
            }
          }
          case 1 -> claimChanges.put(name, null);
          case 2 -> {
            if (claims.values().stream().noneMatch(n -> n.name().equals(name))
                && claimChanges.values().stream().noneMatch(n -> n != null && n.name().equals(name))) {
              nodeChanges.put(name, node(name, Optional.empty(), step));
            }
          }
          default -> nodeChanges.put(name, null);
        }
      }
      claimChanges.keySet().removeIf(nodeChanges::containsKey);
      claimChanges.forEach((k, v) -> {
        if (v == null) {
          claims.remove(k);
        } else {
          claims.put(k, v);
        }
      });
      nodeChanges.forEach((k, v) -> {
        if (v == null) {
          unmanaged.remove(k);
        } else {
          unmanaged.put(k, v);
        }
      });
      List<String> claimsBefore = claimOrder.keys();
      for (String k : claimChanges.keySet()) {
        claimOrder = claims.containsKey(k) ? claimOrder.put(k, true) : claimOrder.remove(k);
      }
      ViewNodes fresh = new ViewNodes();
      List<StateNode> managed = new ArrayList<>();
      claimOrder.forEach((k, v) -> managed.add(claims.get(k)));
      List<String> names = new ArrayList<>(unmanaged.keySet());
      names.sort(null);
      fresh.reset(managed, names.stream().map(unmanaged::get).toList());
      List<String> everyClaim = new ArrayList<>(claimsBefore);
      everyClaim.addAll(claimOrder.keys());
      boolean shared = claimChanges.keySet().stream().anyMatch(k -> everyClaim.stream()
          .anyMatch(o -> !o.equals(k) && ViewNodes.order(o) == ViewNodes.order(k)));
      // A NodeClaim sharing its place with another is put in the claims map's order, not left to a
      // build from scratch.
      assertThat(kept.apply(claimChanges, nodeChanges, claimOrder)).as("step %d", step).isTrue();
      collisions += shared ? 1 : 0;
      assertThat(fresh.irregular()).isFalse();
      assertThat(kept.nodes()).as("step %d", step).isEqualTo(fresh.nodes());
      assertThat(kept.byName().asMap()).as("step %d", step).isEqualTo(fresh.byName().asMap());
      // Each NodeClaim's state node by its name: the very objects of the list, one a claim.
      assertThat(kept.claimNodes().asMap()).as("step %d", step).isEqualTo(fresh.claimNodes().asMap());
      assertThat(kept.claimNodes().size()).isEqualTo(claims.size());
      kept.claimNodes().forEach((name, n) -> assertThat(kept.nodes()).anyMatch(x -> x == n));
    }
    assertThat(collisions).isPositive();
  }

  @Test
  void twoStateNodesOfOneNameAreIrregular() {
    ViewNodes v = new ViewNodes();
    v.reset(List.of(), List.of(node("a", Optional.empty(), 0)));
    assertThat(v.apply(Map.of("c", node("a", Optional.of("c"), 1)), Map.of(), PMap.empty())).isFalse();
    assertThat(v.irregular()).isTrue();
    v.reset(List.of(node("a", Optional.of("c"), 1)), List.of(node("a", Optional.empty(), 0)));
    assertThat(v.irregular()).isTrue();
    assertThat(v.byName().get("a").claim()).isEmpty(); // the later of two of one name, as a view built from scratch
  }

  private static StateNode node(String name, Optional<String> claim, int step) {
    Optional<NodeClaim> c = claim.map(k -> new NodeClaim(k, "gpu", TYPE, TYPE.offerings().getFirst(), Labels.EMPTY,
        Labels.EMPTY, List.of(), List.of(), ResourceList.EMPTY, "1", Optional.empty(), Optional.empty(),
        Instant.EPOCH.plusSeconds(step), Optional.empty(), Optional.empty(), Optional.empty(),
        name.equals(k) ? Optional.empty() : Optional.of(name), Optional.empty(), Optional.empty()));
    return new StateNode(name, c, Optional.of(Node.of(name, Labels.EMPTY, List.of(), ResourceList.EMPTY)), List.of(),
        Set.of(), Instant.EPOCH.plusSeconds(step), false);
  }
}
