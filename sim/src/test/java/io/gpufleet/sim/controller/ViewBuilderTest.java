package io.gpufleet.sim.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.Karpenter;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.NodeLog;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.gpu.MigLayout;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectRef;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.workload.DisruptionBudget;
import io.gpufleet.model.workload.IntOrPercent;
import io.gpufleet.model.workload.PodTemplate;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.workload.PodDisruptionBudget;
import io.gpufleet.model.workload.Workload;
import io.gpufleet.sim.ImageListener;
import io.gpufleet.sim.ProgressListener;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationSettings;
import io.gpufleet.sim.scenario.ClusterObject;
import io.gpufleet.sim.scenario.Scenario;
import io.gpufleet.sim.scenario.ScenarioAction;
import io.gpufleet.sim.state.ClusterState;
import io.gpufleet.sim.state.NodeState;
import io.gpufleet.sim.state.PodState;
import io.gpufleet.sim.state.WorkloadState;
import io.gpufleet.sim.testing.Objects;
import io.gpufleet.testing.property.Gen;
import io.gpufleet.testing.property.Property;
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
 * Karpenter's view, followed from image to image by what changed, equals the view built from
 * scratch of every image of a run with launches, scale-downs, consolidation and spot interruptions.
 */
class ViewBuilderTest {

  // A fixed seed: the same four runs every build (a random one once gave a run of 88 images).
  @Test
  void aViewFollowedByChangesEqualsOneBuiltFromScratch() {
    Property.check(20261130L, 4, Gen.longs(1, 10_000), this::aViewFollowedByChangesEqualsOneBuiltFromScratch);
  }

  private void aViewFollowedByChangesEqualsOneBuiltFromScratch(long seed) {
    Scenario churn = Scenario.builder("churn").seed(seed)
        .settings(SimulationSettings.DEFAULTS.withSpotInterruptionsPerHour(2))
        .object(ClusterObject.of(Objects.gpuPool("gpu", List.of("g5", "g6"))))
        .object(ClusterObject.of(Objects.inference("a", 3, 1, Labels.EMPTY)))
        .object(ClusterObject.of(Objects.inference("b", 2, 2, Labels.EMPTY)))
        .then(new ScenarioAction.Wait(Duration.ofMinutes(40)))
        .then(new ScenarioAction.Scale("a", 9))
        .then(new ScenarioAction.Wait(Duration.ofMinutes(40)))
        .then(new ScenarioAction.Scale("b", 0))
        .then(new ScenarioAction.Scale("a", 2))
        .then(new ScenarioAction.Wait(Duration.ofHours(1)))
        .build();
    List<ImageListener.Image> images = new ArrayList<>();
    Simulation.run(churn, ProgressListener.NONE, images::add);
    assertThat(images).hasSizeGreaterThan(50);
    int sameClaimsAndNodes = followedEqualsFresh(images);
    // Most images change no NodeClaim or Node set: those views were followed, not rebuilt.
    assertThat(sameClaimsAndNodes).isGreaterThan(images.size() / 2);
  }

  /**
   * As above with nodes Karpenter does not manage beside its own (a CPU node, one it adopts, one
   * that comes and one that goes mid-run) and PDBs, so the unmanaged part of the list and the PDBs'
   * status are followed too.
   */
  @Test
  void unmanagedNodesAndPdbsAreFollowedToo() {
    for (long seed : new long[] {7, 31, 2026}) {
      Scenario churn = Scenario.builder("mixed").seed(seed)
          .settings(SimulationSettings.DEFAULTS.withSpotInterruptionsPerHour(2))
          .object(ClusterObject.of(Objects.gpuPool("gpu", List.of("g5", "g6"))))
          .object(ClusterObject.of(cpuNode("cpu-b")))
          .object(ClusterObject.of(cpuNode("cpu-a")))
          .object(ClusterObject.of(Objects.adopted("adopted-1", "gpu", "g6.xlarge", "on-demand")))
          .object(ClusterObject.of(Objects.inference("a", 3, 1, Labels.EMPTY)))
          .object(ClusterObject.of(Objects.inference("b", 2, 1, Labels.EMPTY)))
          .object(ClusterObject.of(Objects.minAvailable("pdb-a", "a", 2)))
          .object(ClusterObject.of(Objects.minAvailable("pdb-b", "b", 1)))
          .then(new ScenarioAction.Wait(Duration.ofMinutes(30)))
          .then(new ScenarioAction.Apply(List.of(ClusterObject.of(cpuNode("cpu-0")))))
          .then(new ScenarioAction.Scale("a", 8))
          .then(new ScenarioAction.Wait(Duration.ofMinutes(30)))
          .then(new ScenarioAction.Delete("Node", "cpu-b"))
          .then(new ScenarioAction.Scale("b", 0))
          .then(new ScenarioAction.Scale("a", 1))
          .then(new ScenarioAction.Wait(Duration.ofHours(1)))
          .build();
      List<ImageListener.Image> images = new ArrayList<>();
      Simulation.run(churn, ProgressListener.NONE, images::add);
      assertThat(images).hasSizeGreaterThan(50);
      followedEqualsFresh(images);
      assertThat(images.getLast().state().nodes().keys()).contains("cpu-a", "cpu-0").doesNotContain("cpu-b");
    }
  }

  /**
   * Images changed at random, a few NodeClaims and Nodes at a time (coming, going, registering,
   * pairing with another node or none, being deleted), each followed from the last and compared with
   * a view built from scratch.
   */
  @Test
  void randomClaimAndNodeChangesAreFollowed() {
    SplittableRandom r = new SplittableRandom(20261206L);
    InstanceType type = InstanceCatalog.builtIn().find("g6.xlarge").orElseThrow();
    ClusterState s = ClusterState.empty(InstanceCatalog.builtIn());
    ViewBuilder following = new ViewBuilder();
    Instant t = Instant.EPOCH;
    ClusterView last = null;
    int replayed = 0;
    for (int step = 0; step < 3000; step++) {
      for (int k = 1 + r.nextInt(3); k > 0; k--) {
        // "Aa" and "BB" share a hash, so a place in the claims map's order.
        String claim = r.nextInt(10) == 0 ? (r.nextBoolean() ? "Aa" : "BB") : "c" + r.nextInt(20);
        String node = r.nextInt(3) == 0 ? claim : "n" + r.nextInt(20);
        switch (r.nextInt(6)) {
          case 0 -> s = s.withClaim(new NodeClaim(claim, "gpu", type, type.offerings().getFirst(), Labels.EMPTY,
              Labels.EMPTY, List.of(), List.of(), ResourceList.EMPTY, "1", Optional.empty(), Optional.empty(), t,
              Optional.of(t), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
              Optional.empty()));
          case 1 -> {
            NodeClaim c = s.claims().get(claim);
            if (c != null) {
              s = s.withClaim(r.nextBoolean() ? c.withRegistered(t, node) : c.withDeletionRequested(t));
            }
          }
          case 2 -> s = s.claims().get(claim) == null ? s : s.withoutClaim(claim);
          case 3, 4 -> {
            Node n = cpuNode(node);
            NodeState ns = NodeState.joining(n, r.nextInt(3) == 0 ? Optional.empty() : Optional.of(claim),
                Optional.empty(), t, true, true, 1, MigLayout.of(Map.of()));
            s = s.withNode(ns).withSnapshot(s.nodes().get(node) == null ? s.snapshot().addNode(n) : s.snapshot());
          }
          default -> s = s.nodes().get(node) == null ? s
              : s.withoutNode(node).withSnapshot(s.snapshot().removeNode(node));
        }
      }
      t = t.plusSeconds(1);
      ClusterView followed = following.view(s, t);
      ClusterView fresh = new ViewBuilder().view(s, t);
      assertThat(followed.nodes()).as("step %d", step).isEqualTo(fresh.nodes());
      assertThat(followed.byName()).as("step %d", step).isEqualTo(fresh.byName());
      // A few claims' state nodes found by position come in the view's order, as a walk finds them.
      Set<String> some = new HashSet<>();
      for (int k = r.nextInt(5); k > 0; k--) {
        some.add(r.nextInt(10) == 0 ? (r.nextBoolean() ? "Aa" : "BB") : "c" + r.nextInt(20));
      }
      assertThat(following.inViewOrder(followed, some)).as("step %d", step).containsExactlyElementsOf(
          followed.nodes().stream().filter(n -> n.claim().isPresent() && some.contains(n.claim().get().name()))
              .toList());
      assertThat(following.deleting(followed)).as("step %d", step).containsExactlyElementsOf(Karpenter.deleting(fresh));
      // The splices from the last view's log entry to this one's make this list of the last one's.
      if (last != null && reachable(last.nodeLog(), followed.nodeLog())) {
        List<StateNode> list = new ArrayList<>(last.nodes());
        for (NodeLog e = last.nodeLog(); e != followed.nodeLog(); ) {
          e = e.next();
          list.subList(e.at(), e.at() + e.removed()).clear();
          list.addAll(e.at(), e.inserted());
        }
        assertThat(list).as("step %d", step).containsExactlyElementsOf(followed.nodes());
        replayed++;
      }
      last = followed;
    }
    // Hundreds of views followed the last by splices (others were built afresh: these changes often make two
    // state nodes share a name, which rebuilds the list).
    assertThat(replayed).isGreaterThan(300);
  }

  private static boolean reachable(NodeLog from, NodeLog to) {
    for (NodeLog e = from; e != null; e = e.next()) {
      if (e == to) {
        return true;
      }
    }
    return false;
  }

  /**
   * PDB status followed from image to image by what changed (pods coming, going, getting Ready or
   * being deleted, relabelled into another PDB's selection, workloads scaled or retemplated, PDBs
   * coming, going and changing) equals each PDB's status worked out from scratch.
   */
  @Test
  void randomPodWorkloadAndPdbChangesAreFollowed() {
    SplittableRandom r = new SplittableRandom(20261207L);
    ClusterState s = ClusterState.empty(InstanceCatalog.builtIn());
    ViewBuilder following = new ViewBuilder();
    Instant t = Instant.EPOCH;
    String[] apps = {"a", "b", "c", "d"};
    long sequence = 0;
    int views = 0;
    int allowing = 0;
    int daemonSets = 0;
    Map<String, PodDisruptionBudget> removed = new HashMap<>();
    // DaemonSets coming, going, applied anew or as the same object, their status changing: drawn apart,
    // so the PDBs' changes stay as they were.
    SplittableRandom daemons = new SplittableRandom(20261208L);
    Map<String, Workload.DaemonSet> applied = new HashMap<>();
    for (int step = 0; step < 4000; step++) {
      if (daemons.nextInt(3) == 0) {
        String name = "ds-" + apps[daemons.nextInt(apps.length)];
        Workload.DaemonSet d = applied.get(name);
        ObjectRef dsRef = new ObjectRef("DaemonSet", "default", name);
        WorkloadState was = s.workloads().get(dsRef);
        switch (daemons.nextInt(4)) {
          case 0 -> {
            Labels l = Labels.of("app", name);
            d = new Workload.DaemonSet(new ObjectMeta(name, "default", l, Labels.EMPTY, Optional.empty()),
                LabelSelector.matching(l), new PodTemplate(l, Labels.EMPTY,
                    Objects.gpuSpec(0, "100m", "64Mi", "agent:" + daemons.nextInt(3))));
            applied.put(name, d);
            s = s.withWorkload(was == null ? new WorkloadState(dsRef, d, 0, 0) : was.withWorkload(d));
          }
          case 1 -> s = d == null ? s : s.withWorkload(new WorkloadState(dsRef, d, 0, 0));
          case 2 -> s = was == null ? s : s.withWorkload(was.withSucceeded(was.succeeded() + 1));
          default -> s = was == null ? s : s.withoutWorkload(dsRef);
        }
      }
      for (int k = 1 + r.nextInt(3); k > 0; k--) {
        String app = apps[r.nextInt(apps.length)];
        ObjectRef ref = WorkloadState.keyOf(Objects.inference(app, 1, 1, Labels.EMPTY));
        String pod = "p" + r.nextInt(24);
        PodState ps = s.pods().get("default/" + pod);
        switch (r.nextInt(13)) {
          // Workloads change now and then only, so a PDB may be gone and back with no workload changing.
          case 0 -> {
            if (step % 3 != 0) {
              continue;
            }
            // A workload (re)applied with another scale, or, now and then, templating another app's pods.
            Workload.Deployment d = Objects.inference(app, r.nextInt(6), 1, Labels.EMPTY);
            if (r.nextInt(4) == 0) {
              Labels other = Labels.of("app", apps[r.nextInt(apps.length)]);
              d = new Workload.Deployment(d.meta(), d.replicas(), d.selector(),
                  new PodTemplate(other, Labels.EMPTY, d.template().spec()), d.maxSurge(), d.maxUnavailable());
            }
            WorkloadState old = s.workloads().get(ref);
            s = s.withWorkload(old == null ? new WorkloadState(ref, d, 0, 0) : old.withWorkload(d));
          }
          case 1 -> s = s.workloads().get(ref) == null || r.nextInt(9) != 0 ? s : s.withoutWorkload(ref);
          case 2 -> {
            // A PDB applied anew, deleted, or put back as the very object it was.
            PodDisruptionBudget was = s.pdbs().get("default/pdb-" + app);
            if (was != null && r.nextBoolean()) {
              removed.put(app, was);
              s = s.withoutPdb(was.meta().key());
            } else {
              // minAvailable counts read only the Ready pods; maxUnavailable reads the owners' scale too.
              s = s.withPdb(removed.containsKey(app) && r.nextBoolean() ? removed.get(app)
                  : r.nextBoolean() ? Objects.minAvailable("pdb-" + app, app, r.nextInt(3))
                  : maxUnavailable("pdb-" + app, app, r.nextInt(3)));
            }
          }
          case 3, 4 -> {
            if (ps == null) {
              Pod p = new Pod(new ObjectMeta(pod, "default", Labels.of("app", app), Labels.EMPTY, Optional.empty()),
                  Objects.gpuSpec(1, "1", "1Gi", "x"));
              // Now and then a pod of no workload, or one another PDB's selector picks out.
              int pick = r.nextInt(10);
              Optional<ObjectRef> owner = pick == 0 ? Optional.empty() : pick == 1
                  ? Optional.of(WorkloadState.keyOf(Objects.inference(apps[r.nextInt(apps.length)], 1, 1,
                      Labels.EMPTY)))
                  : Optional.of(ref);
              s = s.withPod(new PodState(p, sequence++, owner, PodState.Phase.PENDING, Optional.empty(), t,
                  Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), 0));
            }
          }
          case 5, 6 -> s = ps == null || !ps.isPending() ? s : s.withPod(ps.bound("n1", t).started());
          case 7, 8 -> s = ps == null || ps.phase() != PodState.Phase.RUNNING ? s : s.withPod(ps.readyAt(t));
          case 9 -> s = ps == null ? s : s.withPod(ps.deleting(t));
          case 10 -> s = ps == null ? s : s.withPod(ps.withSchedulingMessage("step " + step));
          default -> s = ps == null || r.nextBoolean() ? s : s.withoutPod(ps.key());
        }
      }
      t = t.plusSeconds(1);
      // Now and then an image passes with no view of it.
      if (r.nextInt(4) != 0) {
        views++;
        allowing += ViewBuilder.pdbs(s).entries().stream().anyMatch(e -> e.disruptionsAllowed() > 0) ? 1 : 0;
        ClusterView followed = following.view(s, t);
        assertThat(followed.pdbs().entries()).as("step %d", step).isEqualTo(ViewBuilder.pdbs(s).entries());
        assertThat(followed.daemonSets()).as("step %d", step).isEqualTo(new ViewBuilder().daemonSets(s));
        daemonSets += followed.daemonSets().isEmpty() ? 0 : 1;
      }
    }
    assertThat(views).isGreaterThan(2500);
    assertThat(allowing).as("views with a PDB allowing a disruption").isGreaterThan(views / 4);
    assertThat(daemonSets).as("views with a DaemonSet").isGreaterThan(views / 2);
  }

  private static PodDisruptionBudget maxUnavailable(String name, String app, int n) {
    return new PodDisruptionBudget(ObjectMeta.named(name), LabelSelector.matching(Labels.of("app", app)),
        Optional.empty(), Optional.of(new IntOrPercent.Count(n)));
  }

  /** A PDB deleted and put back as the same object is worked out again when its pods changed meanwhile. */
  @Test
  void aPdbPutBackAfterItsPodsChangedIsWorkedOutAgain() {
    Workload.Deployment d = Objects.inference("a", 2, 1, Labels.EMPTY);
    ObjectRef ref = WorkloadState.keyOf(d);
    PodDisruptionBudget pdb = Objects.minAvailable("pdb-a", "a", 0);
    ClusterState s = ClusterState.empty(InstanceCatalog.builtIn()).withWorkload(new WorkloadState(ref, d, 0, 0))
        .withPdb(Objects.minAvailable("pdb-b", "b", 0)).withPdb(pdb);
    Instant t = Instant.EPOCH;
    for (String name : List.of("a-0", "a-1")) {
      Pod p = new Pod(new ObjectMeta(name, "default", Labels.of("app", "a"), Labels.EMPTY, Optional.empty()),
          Objects.gpuSpec(1, "1", "1Gi", "x"));
      s = s.withPod(new PodState(p, 0, Optional.of(ref), PodState.Phase.PENDING, Optional.empty(), t,
          Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), 0).bound("n1", t).started()
          .readyAt(t));
    }
    ViewBuilder following = new ViewBuilder();
    assertThat(following.view(s, t).pdbs().entries()).extracting(DisruptionBudget::disruptionsAllowed)
        .containsExactly(2, 0);
    s = s.withoutPdb(pdb.meta().key());
    following.view(s, t.plusSeconds(1));
    s = s.withPod(s.pods().get("default/a-0").deleting(t)).withPdb(Objects.minAvailable("pdb-c", "c", 0));
    following.view(s, t.plusSeconds(2));
    s = s.withPdb(pdb);
    assertThat(following.view(s, t.plusSeconds(3)).pdbs().entries()).extracting(DisruptionBudget::disruptionsAllowed)
        .containsExactly(1, 0, 0);
  }

  private static Node cpuNode(String name) {
    return Node.of(name, Labels.of("kubernetes.io/hostname", name, "topology.kubernetes.io/zone", "us-east-1a"),
        List.of(), ResourceList.of("cpu", "16", "memory", "64Gi", "pods", "110"));
  }

  /** Compares each image's followed view with a fresh one; how many images kept the NodeClaim and Node sets. */
  private static int followedEqualsFresh(List<ImageListener.Image> images) {
    ViewBuilder following = new ViewBuilder();
    int sameClaimsAndNodes = 0;
    for (int i = 0; i < images.size(); i++) {
      ImageListener.Image image = images.get(i);
      ClusterView followed = following.view(image.state(), image.time());
      ClusterView fresh = new ViewBuilder().view(image.state(), image.time());
      assertThat(followed.nodes()).as("image %d", i).isEqualTo(fresh.nodes());
      assertThat(followed.byName()).as("image %d", i).isEqualTo(fresh.byName());
      assertThat(followed.pendingPods()).isEqualTo(fresh.pendingPods());
      assertThat(followed.daemonSets()).isEqualTo(fresh.daemonSets());
      // The deleting nodes the list keeps (claims deleting or candidates of a command in flight), as a walk finds them.
      assertThat(following.deleting(followed)).as("image %d", i).containsExactlyElementsOf(Karpenter.deleting(fresh));
      assertThat(followed.pdbs().entries()).as("image %d", i).isEqualTo(fresh.pdbs().entries())
          .isEqualTo(ViewBuilder.pdbs(image.state()).entries());
      if (i > 0) {
        // What following relies on: a node whose scheduler entry changed has a new NodeState too.
        var before = images.get(i - 1).state();
        for (var info : image.state().snapshot().nodes()) {
          var was = before.snapshot().node(info.name());
          if (was.isPresent() && was.get() != info) {
            assertThat(image.state().nodes().get(info.name())).as("image %d, node %s", i, info.name())
                .isNotSameAs(before.nodes().get(info.name()));
          }
        }
      }
      if (i > 0 && images.get(i - 1).state().claims().keys().equals(image.state().claims().keys())
          && images.get(i - 1).state().nodes().keys().equals(image.state().nodes().keys())) {
        sameClaimsAndNodes++;
      }
    }
    return sameClaimsAndNodes;
  }
}
