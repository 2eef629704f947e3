package io.gpufleet.autoscaler.disruption;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.provisioning.NodePoolTemplate;
import io.gpufleet.autoscaler.provisioning.ProvisioningModel;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.NodeLog;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.autoscaler.testing.Fixtures;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.cloud.Offering;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodRequests;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import io.gpufleet.model.taint.Tolerations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link SlackBound#mayConsolidate} answers as the bound's definition worked out from scratch, and a
 * bound that takes the free room of unchanged nodes from the previous one answers as a fresh one:
 * seeded clusters whose nodes change between views (a pod lands or leaves, a node goes or comes),
 * nodes with a few taint lists, pods with and without tolerations and node selectors. A bound
 * following the view builder's splices ({@link NodeLog}) answers as a fresh one too.
 */
class SlackBoundTest {

  private static final Taint DEDICATED = Taint.of("dedicated", "batch", TaintEffect.NO_SCHEDULE);
  private static final String[] TYPES = {"m5.large", "m5.xlarge", "m5.2xlarge", "m5.4xlarge"};

  @Test
  void keptBoundsAnswerAsTheDefinition() {
    NodePool pool = DisruptionViews.pool();
    ProvisioningModel model = DisruptionViews.model(pool);
    SingleNodeConsolidation method = new SingleNodeConsolidation(DisruptionViews.simulation(pool));
    int yes = 0;
    int no = 0;
    for (long seed = 1; seed <= 25; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      List<StateNode> nodes = new ArrayList<>();
      int next = 0;
      for (int i = 4 + r.nextInt(8); i > 0; i--) {
        nodes.add(node(pool, next++, r));
      }
      SlackBound kept = null;
      for (int step = 0; step < 15; step++) {
        ClusterView view = DisruptionViews.view(pool, nodes);
        kept = SlackBound.of(view, model, kept);
        SlackBound fresh = SlackBound.of(view, model);
        List<Candidate> candidates = DisruptionViews.candidates(method, view);
        for (int ask = 0; ask < 10 && !candidates.isEmpty(); ask++) {
          // one, two, or as many as multi-node consolidation asks about at once
          Set<Candidate> picked = new LinkedHashSet<>();
          for (int k = ask % 3 == 2 ? 2 + r.nextInt(8) : 2; k > 0; k--) {
            picked.add(candidates.get(r.nextInt(candidates.size())));
          }
          List<Candidate> some = new ArrayList<>(picked);
          some = ask % 3 == 2 ? some : some.subList(0, 1 + r.nextInt(some.size()));
          boolean expected = definition(some, nodes, model);
          assertThat(kept.mayConsolidate(some)).as("seed %d step %d", seed, step).isEqualTo(expected);
          assertThat(fresh.mayConsolidate(some)).as("seed %d step %d", seed, step).isEqualTo(expected);
          if (expected) {
            yes++;
          } else {
            no++;
          }
        }
        // The cluster moves on; the other nodes stay the same objects.
        int i = r.nextInt(nodes.size());
        StateNode n = nodes.get(i);
        List<Pod> pods = new ArrayList<>(n.pods());
        if (!pods.isEmpty() && r.nextBoolean()) {
          pods.remove(r.nextInt(pods.size()));
        } else {
          pods.add(pod("s" + step + "-" + i, r));
        }
        nodes.set(i, new StateNode(n.name(), n.claim(), n.node(), pods, n.terminating(), n.lastPodEvent(), false));
        if (nodes.size() > 2 && r.nextInt(4) == 0) {
          nodes.remove(r.nextInt(nodes.size()));
        }
        if (r.nextInt(4) == 0) {
          nodes.add(node(pool, next++, r));
        }
      }
    }
    assertThat(yes).isPositive();
    assertThat(no).isPositive();
  }

  /**
   * One bound brought from view to view along random splices (nodes coming, going, replaced, marked for
   * deletion, a group put back in another order, a second node of one name, one state node listed twice),
   * chains that restart, views it is never brought to and views it is asked nothing about (its kept sums
   * fall behind, or are dropped), answers as a bound made afresh for each view, and as the definition
   * while no two nodes share a name (the bound then takes the room the candidate holds from the last of
   * them). Candidates include state nodes no longer listed.
   */
  @Test
  void aBoundFollowingSplicesAnswersAsAFreshOne() {
    NodePool pool = DisruptionViews.pool();
    ProvisioningModel model = DisruptionViews.model(pool);
    int yes = 0;
    int no = 0;
    for (long seed = 1; seed <= 30; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      List<StateNode> nodes = new ArrayList<>();
      int made = 0;
      for (int i = 6 + r.nextInt(10); i > 0; i--) {
        nodes.add(node(pool, made++, r));
      }
      List<StateNode> gone = new ArrayList<>();
      NodeLog log = NodeLog.start();
      SlackBound kept = null;
      for (int step = 0; step < 80; step++) {
        if (r.nextInt(15) == 0) { // a list built afresh: a new chain, maybe in another order
          if (r.nextBoolean()) {
            Collections.shuffle(nodes, new Random(r.nextLong()));
          }
          log = NodeLog.start();
        } else {
          for (int k = r.nextInt(4); k > 0; k--) {
            log = splice(r, nodes, gone, log, pool, made++);
          }
        }
        ClusterView view = new ClusterView(DisruptionViews.T0.plus(Duration.ofHours(1)), List.of(pool),
            DisruptionViews.CATALOG, OfferingAvailability.ALL, List.copyOf(nodes), List.of(), List.of(),
            PdbIndex.NONE, Map.of(), log);
        if (r.nextInt(4) == 0) {
          continue; // a view the bound is never brought to: the next one follows from further back
        }
        kept = SlackBound.of(view, model, kept);
        SlackBound fresh = SlackBound.of(view, model);
        Set<String> names = new HashSet<>();
        boolean unique = true;
        List<Candidate> listed = new ArrayList<>();
        for (StateNode n : nodes) {
          if (!n.markedForDeletion()) {
            unique &= names.add(n.name());
          }
          listed.add(Candidates.candidate(n, pool));
        }
        for (int ask = r.nextInt(4); ask > 0 && !listed.isEmpty(); ask--) {
          Set<Candidate> picked = new LinkedHashSet<>();
          for (int k = 1 + r.nextInt(6); k > 0; k--) {
            picked.add(!gone.isEmpty() && r.nextInt(6) == 0 ? Candidates.candidate(gone.get(r.nextInt(gone.size())), pool)
                : listed.get(r.nextInt(listed.size())));
          }
          List<Candidate> some = new ArrayList<>(picked);
          boolean answer = fresh.mayConsolidate(some);
          assertThat(kept.mayConsolidate(some)).as("seed %d step %d", seed, step).isEqualTo(answer);
          if (unique) {
            assertThat(answer).as("seed %d step %d", seed, step).isEqualTo(definition(some, nodes, model));
          }
          if (answer) {
            yes++;
          } else {
            no++;
          }
        }
      }
    }
    assertThat(yes).isPositive();
    assertThat(no).isPositive();
  }

  /** One random splice of {@code nodes} ({@link RandomSplices}); what left goes to {@code gone}. */
  private static NodeLog splice(SplittableRandom r, List<StateNode> nodes, List<StateNode> gone, NodeLog log,
      NodePool pool, int index) {
    return RandomSplices.splice(r, nodes, log, gone, range -> {
      List<StateNode> inserted = new ArrayList<>();
      if (range.size() == 1 && r.nextInt(3) == 0) { // the node changed: a pod came or left, or it is being deleted
        StateNode n = range.getFirst();
        List<Pod> pods = new ArrayList<>(n.pods());
        if (!pods.isEmpty() && r.nextBoolean()) {
          pods.remove(r.nextInt(pods.size()));
        } else {
          pods.add(pod("c" + index, r));
        }
        inserted.add(new StateNode(n.name(), n.claim(), n.node(), pods, n.terminating(), n.lastPodEvent(),
            r.nextInt(3) == 0));
        return inserted;
      }
      for (int k = RandomSplices.count(r, range); k > 0; k--) {
        StateNode n = node(pool, index * 4 + k + 100_000, r);
        if (!nodes.isEmpty() && r.nextInt(20) == 0) { // a second node of a listed one's name
          n = new StateNode(nodes.get(r.nextInt(nodes.size())).name(), n.claim(), n.node(), n.pods(),
              n.terminating(), n.lastPodEvent(), false);
        } else if (!nodes.isEmpty() && r.nextInt(20) == 0) { // a state node listed twice
          n = nodes.get(r.nextInt(nodes.size()));
        }
        inserted.add(n);
      }
      return inserted;
    });
  }

  /**
   * The bound as its class comment states it, from scratch: for each pod spec of the candidates, in
   * every resource of the catalogue's types plus pods, the pods need no more than the free room of
   * the other nodes that take the spec plus the largest type cheaper than the candidates.
   */
  private static boolean definition(List<Candidate> candidates, List<StateNode> nodes, ProvisioningModel model) {
    Set<ResourceName> dims = new LinkedHashSet<>(List.of(ResourceName.CPU, ResourceName.MEMORY,
        ResourceName.of("ephemeral-storage"), ResourceName.PODS));
    List<InstanceType> types = new ArrayList<>();
    for (NodePoolTemplate t : model.templates()) {
      types.addAll(t.instanceTypes());
    }
    types.forEach(t -> dims.addAll(t.allocatable().names()));
    double price = candidates.stream().mapToDouble(Candidate::price).sum();
    Set<String> leaving = new HashSet<>();
    Map<PodSpec, Integer> counts = new IdentityHashMap<>();
    for (Candidate c : candidates) {
      leaving.add(c.node().name());
      c.reschedulable().forEach(p -> counts.merge(p.spec(), 1, Integer::sum));
    }
    for (var e : counts.entrySet()) {
      PodSpec spec = e.getKey();
      for (ResourceName d : dims) {
        long want = d.equals(ResourceName.PODS) ? 1 : units(d, PodRequests.of(spec));
        long room = 0;
        for (StateNode n : nodes) {
          if (n.markedForDeletion() || leaving.contains(n.name())
              || Tolerations.firstUntoleratedBlockingOrNull(n.schedulingTaints(), spec.tolerations()) != null
              || !n.labels().containsAll(spec.nodeSelector())
              || !spec.nodeAffinity().requiredMatches(n.name(), n.labels())) {
            continue;
          }
          var c = n.claim().orElseThrow();
          ResourceList alloc = n.node().orElseThrow().allocatable().max(NodePoolTemplate.effectiveAllocatable(
              c.instanceType(), c.labels(), model.advertiser(), model.sizing()));
          long free = units(d, alloc);
          for (Pod p : n.pods()) {
            free -= d.equals(ResourceName.PODS) ? 1 : units(d, PodRequests.of(p.spec()));
          }
          room += Math.max(0, free);
        }
        long extra = 0;
        for (InstanceType t : types) {
          if (t.offerings().stream().mapToDouble(Offering::pricePerHour).min().orElse(Double.MAX_VALUE) < price) {
            extra = Math.max(extra, units(d, t.allocatable()));
          }
        }
        if (want * e.getValue() > room + extra) {
          return false;
        }
      }
    }
    return true;
  }

  private static long units(ResourceName d, ResourceList r) {
    var q = r.getOrZero(d);
    return d.equals(ResourceName.CPU) ? q.milliValue() : q.value();
  }

  private static StateNode node(NodePool pool, int seed, SplittableRandom r) {
    List<Pod> pods = new ArrayList<>();
    for (int i = r.nextInt(4); i > 0; i--) {
      pods.add(pod("n" + seed + "-" + i, r));
    }
    StateNode n = DisruptionViews.node(pool, TYPES[r.nextInt(TYPES.length)], seed,
        DisruptionViews.T0.minus(Duration.ofHours(1)), pods.toArray(Pod[]::new));
    List<Taint> taints = switch (r.nextInt(3)) {
      case 0 -> List.of();
      case 1 -> List.of(DEDICATED);
      default -> List.of(Taint.of("dedicated", "batch", TaintEffect.PREFER_NO_SCHEDULE));
    };
    Node k = n.node().orElseThrow();
    return new StateNode(n.name(), n.claim(), Optional.of(Node.of(k.name(), k.labels(), taints, k.allocatable())),
        n.pods(), n.terminating(), n.lastPodEvent(), false);
  }

  /** A CPU pod; some tolerate the dedicated taint, some select a node type. */
  private static Pod pod(String name, SplittableRandom r) {
    Pod p = Fixtures.cpuPod(name, Integer.toString(1 + r.nextInt(6)), (1 + r.nextInt(12)) + "Gi");
    PodSpec spec = p.spec();
    if (r.nextInt(3) == 0) {
      spec = spec.withTolerations(List.of(Toleration.exists("dedicated", TaintEffect.NO_SCHEDULE)));
    }
    if (r.nextInt(4) == 0) {
      spec = spec.withNodeSelector(Labels.of("node.kubernetes.io/instance-type", TYPES[r.nextInt(TYPES.length)]));
    }
    return p.withSpec(spec);
  }
}
