package io.gpufleet.autoscaler.provisioning;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.AutoscalerSettings.GpuSizing;
import io.gpufleet.autoscaler.gpu.NvidiaDevicePlugin;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.autoscaler.testing.Fixtures;
import io.gpufleet.engine.scheduler.ResourceVector;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.cloud.Offering;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodRequests;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Tolerations;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Rounds that share one {@link RoundNodes} and leave some nodes out plan as a round built afresh
 * from the other nodes alone, and a round looks only at the nodes that could take a pod at all:
 * seeded fleets of initialised, in-flight and deleting nodes with varied taints and pods, changed
 * between steps (a pod lands, a node goes or comes) while each step asks many leave-out sets.
 */
class RoundNodesTest {

  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final List<List<Taint>> TAINTS = List.of(List.of(), List.of(Fixtures.GPU_TAINT),
      List.of(Taint.of("dedicated", "train", TaintEffect.NO_SCHEDULE)),
      List.of(Taint.of("dedicated", "train", TaintEffect.PREFER_NO_SCHEDULE), Fixtures.GPU_TAINT));
  static final NodePool POOL = ProvisionerTest.onDemand(Fixtures.gpuPool("gpu", "g5", "g6"));
  /** The g5 and g6 types of the built-in catalogue, the pool's. */
  static final List<InstanceType> TYPES = InstanceCatalog.builtIn().types().stream()
      .filter(t -> t.name().startsWith("g5.") || t.name().startsWith("g6.")).toList();
  private final ProvisioningModel model = ProvisioningModel.of(List.of(POOL), InstanceCatalog.builtIn(), List.of(),
      NvidiaDevicePlugin.DEFAULTS, GpuSizing.PHYSICAL);

  @Test
  void roundsLeavingNodesOutPlanAsRoundsWithoutThem() {
    int compared = 0;
    int placedOnExisting = 0;
    for (long seed = 1; seed <= 12; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      Provisioner kept = new Provisioner(model);
      List<StateNode> nodes = nodes(8 + r.nextInt(10), r);
      int podNo = 0;
      for (int step = 0; step < 10; step++) {
        List<Pod> pending = new ArrayList<>();
        for (int i = 1 + r.nextInt(5); i > 0; i--) {
          pending.add(pod("p" + podNo++, TYPES, r));
        }
        for (int ask = 0; ask < 8; ask++) {
          Set<String> leaving = new HashSet<>();
          for (int i = r.nextInt(4); i > 0 && !nodes.isEmpty(); i--) {
            leaving.add(nodes.get(r.nextInt(nodes.size())).name());
          }
          List<StateNode> rest = nodes.stream().filter(n -> !leaving.contains(n.name())).toList();
          ProvisioningPlan a = kept.solveWithout(pending, nodes, leaving, List.of(), OfferingAvailability.ALL, T0);
          ProvisioningPlan b = new Provisioner(model).solve(pending, rest, List.of(), OfferingAvailability.ALL, T0);
          String as = String.format("seed %d step %d leaving %s", seed, step, leaving);
          assertThat(a.onExisting()).as(as).isEqualTo(b.onExisting());
          assertThat(a.errors()).as(as).isEqualTo(b.errors());
          assertThat(a.newClaims()).as(as).isEqualTo(b.newClaims());
          compared++;
          placedOnExisting += a.onExisting().size();
        }
        // The cluster moves on: a pod lands on a node (a new state node), a node goes, one comes.
        if (!nodes.isEmpty()) {
          int i = r.nextInt(nodes.size());
          StateNode n = nodes.get(i);
          List<Pod> pods = new ArrayList<>(n.pods());
          pods.add(pending.getFirst());
          nodes.set(i, new StateNode(n.name(), n.claim(), n.node(), pods, n.terminating(), T0, n.markedForDeletion()));
        }
        if (!nodes.isEmpty() && r.nextInt(3) == 0) {
          nodes.remove(r.nextInt(nodes.size()));
        }
        if (r.nextInt(3) == 0) {
          nodes.add(node(POOL, TYPES.get(r.nextInt(TYPES.size())), r));
        }
      }
    }
    assertThat(compared).isEqualTo(12 * 10 * 8);
    assertThat(placedOnExisting).as("rounds place pods on existing nodes").isPositive();
  }

  @Test
  void entriesAreInRoundOrderAndHostsAreEveryNodeThatTakesThePod() {
    int hosted = 0;
    int refused = 0;
    for (long seed = 1; seed <= 30; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      List<StateNode> nodes = nodes(5 + r.nextInt(20), r);
      RoundNodes fleet = new RoundNodes(model, nodes, List.of(), new NodeBases());
      List<StateNode> expected = new ArrayList<>();
      nodes.stream().filter(n -> !n.markedForDeletion() && n.isInitialized())
          .sorted(Comparator.comparing(StateNode::name)).forEach(expected::add);
      nodes.stream().filter(n -> !n.markedForDeletion() && !n.isInitialized())
          .sorted(Comparator.comparing(StateNode::name)).forEach(expected::add);
      assertThat(fleet.entries().stream().map(RoundNodes.Entry::node).toList()).isEqualTo(expected);
      for (int i = 0; i < 20; i++) {
        PodSpec spec = pod("q" + i, TYPES, r).spec();
        ResourceVector req = ResourceVector.of(PodRequests.of(spec));
        List<Integer> all = new ArrayList<>();
        for (int k = 0; k < expected.size(); k++) {
          StateNode n = expected.get(k);
          ExistingNode.Base b = ExistingNode.base(n, RoundNodes.allocatable(model, n), List.of(),
              s -> ResourceVector.of(PodRequests.of(s)));
          if (Fit.fits(req, 1, b.free(), b.freePods())
              && Tolerations.firstUntoleratedBlockingOrNull(n.schedulingTaints(), spec.tolerations()) == null
              && n.labels().containsAll(spec.nodeSelector())) {
            all.add(k);
          }
        }
        int[] hosts = fleet.hosts(spec);
        assertThat(hosts).as("seed %d spec %d", seed, i).containsExactly(all.stream().mapToInt(x -> x).toArray());
        hosted += hosts.length;
        refused += expected.size() - hosts.length;
      }
    }
    assertThat(hosted).isPositive();
    assertThat(refused).isPositive();
  }

  /**
   * A fleet brought forward by {@link RoundNodes#next} from the last round's is the fleet built
   * afresh from the same list: the same entries (state nodes, offers, taints) in the same order, the
   * same positions by name and the same hosts (a followed fleet's moved from the last one's, only its new
   * entries tested), after each of many random changes to the list (a state
   * node replaced in place, initialised, marked for deletion, runs of nodes coming and going, a node
   * moving, a second node of one name, the whole list shuffled).
   */
  @Test
  void fleetFollowedByChangesIsTheFleetBuiltAfresh() {
    int followed = 0;
    int rebuilt = 0;
    for (long seed = 1; seed <= 40; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      List<StateNode> nodes = nodes(10 + r.nextInt(40), r);
      NodeBases bases = new NodeBases();
      RoundNodes fleet = RoundNodes.next(model, nodes, List.of(), bases, null);
      List<PodSpec> specs = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        specs.add(pod("s" + i, TYPES, r).spec());
      }
      for (int step = 0; step < 60; step++) {
        change(nodes, r);
        RoundNodes before = fleet;
        fleet = RoundNodes.next(model, List.copyOf(nodes), List.of(), bases, before);
        RoundNodes fresh = new RoundNodes(model, nodes, List.of(), new NodeBases());
        String as = "seed " + seed + " step " + step;
        assertThat(fleet.nodes()).as(as).isEqualTo(nodes);
        assertThat(fleet.entries()).as(as).hasSameSizeAs(fresh.entries());
        for (int k = 0; k < fresh.entries().size(); k++) {
          RoundNodes.Entry a = fleet.entries().get(k);
          RoundNodes.Entry b = fresh.entries().get(k);
          assertThat(a.node()).as(as + " entry " + k).isSameAs(b.node());
          assertThat(a.base()).as(as + " entry " + k).isEqualTo(b.base());
        }
        Set<String> names = new HashSet<>(List.of("absent", "zzz"));
        nodes.forEach(n -> names.add(n.name()));
        for (String name : names) {
          assertThat(fleet.positionsOf(name)).as(as + " " + name).containsExactly(fresh.positionsOf(name));
        }
        for (PodSpec spec : specs) {
          assertThat(fleet.hosts(spec)).as(as).containsExactly(fresh.hosts(spec));
        }
        boolean kept = !before.entries().isEmpty() && fleet.entries().stream()
            .anyMatch(e -> before.entries().stream().anyMatch(x -> x == e));
        followed += kept ? 1 : 0;
        rebuilt += kept ? 0 : 1;
      }
    }
    assertThat(followed).as("fleets brought forward").isGreaterThan(1200);
    assertThat(rebuilt).as("fleets built again (many changes, two nodes of one name)").isPositive();
  }

  /** One random change to the list of state nodes. */
  private static void change(List<StateNode> nodes, SplittableRandom r) {
    int kind = r.nextInt(20);
    if (nodes.size() < 4 || kind < 3) {
      for (int i = 1 + r.nextInt(kind == 0 ? 7 : 2), at = r.nextInt(nodes.size() + 1); i > 0; i--) {
        nodes.add(at, node(POOL, TYPES.get(r.nextInt(TYPES.size())), r));
      }
      return;
    }
    int at = r.nextInt(nodes.size());
    StateNode n = nodes.get(at);
    switch (kind) {
      case 3, 4 -> {
        for (int i = 1 + r.nextInt(kind == 3 ? 6 : 2); i > 0 && at < nodes.size(); i--) {
          nodes.remove(at);
        }
      }
      case 5 -> nodes.add(r.nextInt(nodes.size()), nodes.remove(at));
      case 6 -> { // another state node of the same name
        nodes.add(r.nextInt(nodes.size() + 1), new StateNode(n.name(), n.claim(), n.node(), n.pods(), n.terminating(),
            n.lastPodEvent(), r.nextBoolean(), n.podStarts()));
      }
      case 7 -> {
        if (r.nextInt(4) == 0) {
          Collections.shuffle(nodes, new Random(r.nextLong()));
        }
      }
      case 8, 9 -> nodes.set(at, new StateNode(n.name(), n.claim(), n.node(), n.pods(), n.terminating(),
          n.lastPodEvent(), !n.markedForDeletion(), n.podStarts()));
      case 10, 11 -> { // initialised, or back in flight
        NodeClaim c = n.claim().orElseThrow();
        StateNode m = n.isInitialized()
            ? new StateNode(n.name(), Optional.of(Launcher.nodeClaim(POOL, c.instanceType(), c.offering(),
                ResourceList.EMPTY, T0, r)), Optional.empty(), List.of(), Set.of(), T0, n.markedForDeletion(), Map.of())
            : new StateNode(n.name(), Optional.of(c.withRegistered(T0, n.name()).withInitialized(T0)),
                Optional.of(Node.of(n.name(), c.labels(), TAINTS.get(r.nextInt(TAINTS.size())),
                    c.instanceType().allocatable())), List.of(), Set.of(), T0, n.markedForDeletion(), Map.of());
        nodes.set(at, m);
      }
      default -> { // a pod lands or leaves
        List<Pod> pods = new ArrayList<>(n.pods());
        if (!pods.isEmpty() && r.nextBoolean()) {
          pods.removeLast();
        } else {
          pods.add(Fixtures.gpuPod(n.name() + "-x" + r.nextInt(1000), 1));
        }
        nodes.set(at, new StateNode(n.name(), n.claim(), n.node(), pods, n.terminating(), T0, n.markedForDeletion(),
            Map.of()));
      }
    }
  }

  /** So many random nodes of the pool's types ({@link #node}). */
  static List<StateNode> nodes(int count, SplittableRandom r) {
    List<StateNode> nodes = new ArrayList<>();
    for (int i = count; i > 0; i--) {
      nodes.add(node(POOL, TYPES.get(r.nextInt(TYPES.size())), r));
    }
    return nodes;
  }

  /** A GPU, CPU-only or pinned pod, tolerating the GPU taint or not. */
  static Pod pod(String name, List<InstanceType> types, SplittableRandom r) {
    Pod p = switch (r.nextInt(3)) {
      case 0 -> Fixtures.gpuPod(name, 1 + r.nextInt(4), Integer.toString(1 + r.nextInt(16)), (4 + r.nextInt(60)) + "Gi");
      case 1 -> Fixtures.cpuPod(name, Integer.toString(1 + r.nextInt(8)), (1 + r.nextInt(32)) + "Gi");
      default -> {
        Pod g = Fixtures.gpuPod(name, 1);
        String type = types.get(r.nextInt(types.size())).name();
        yield g.withSpec(g.spec().withNodeSelector(Labels.of("node.kubernetes.io/instance-type", type)));
      }
    };
    return r.nextInt(5) == 0 ? p.withSpec(p.spec().withTolerations(List.of())) : p;
  }

  /** An initialised, in-flight or deleting node with some GPU pods on it and one of a few taint lists. */
  private static StateNode node(NodePool pool, InstanceType t, SplittableRandom r) {
    Offering o = t.offerings().stream().filter(x -> x.capacityType() == CapacityType.ON_DEMAND).findFirst()
        .orElseThrow();
    NodeClaim c = Launcher.nodeClaim(pool, t, o, ResourceList.EMPTY, T0, r).withLaunched(T0);
    List<Pod> pods = new ArrayList<>();
    for (int i = r.nextInt(3); i > 0; i--) {
      pods.add(Fixtures.gpuPod(c.name() + "-" + i, 1 + r.nextInt(2)));
    }
    boolean deleting = r.nextInt(6) == 0;
    if (r.nextInt(4) == 0) {
      return new StateNode(c.name(), Optional.of(c), Optional.empty(), List.of(), Set.of(), T0, deleting, Map.of());
    }
    c = c.withRegistered(T0, c.name()).withInitialized(T0);
    Node n = Node.of(c.name(), c.labels(), TAINTS.get(r.nextInt(TAINTS.size())), t.allocatable());
    return new StateNode(c.name(), Optional.of(c), Optional.of(n), pods, Set.of(), T0, deleting, Map.of());
  }
}
