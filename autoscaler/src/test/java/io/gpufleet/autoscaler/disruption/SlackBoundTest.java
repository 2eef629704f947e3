package io.gpufleet.autoscaler.disruption;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.provisioning.NodePoolTemplate;
import io.gpufleet.autoscaler.provisioning.ProvisioningModel;
import io.gpufleet.autoscaler.state.ClusterView;
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
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link SlackBound#mayConsolidate} answers as the bound's definition worked out from scratch, and a
 * bound that takes the free room of unchanged nodes from the previous one answers as a fresh one:
 * seeded clusters whose nodes change between views (a pod lands or leaves, a node goes or comes),
 * nodes with a few taint lists, pods with and without tolerations and node selectors.
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
