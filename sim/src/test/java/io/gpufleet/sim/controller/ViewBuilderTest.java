package io.gpufleet.sim.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.gpu.MigLayout;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectRef;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.sim.ImageListener;
import io.gpufleet.sim.ProgressListener;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationSettings;
import io.gpufleet.sim.scenario.ClusterObject;
import io.gpufleet.sim.scenario.Scenario;
import io.gpufleet.sim.scenario.ScenarioAction;
import io.gpufleet.sim.state.ClusterState;
import io.gpufleet.sim.state.NodeState;
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
    ViewBuilder following = new ViewBuilder(o -> 0L);
    Instant t = Instant.EPOCH;
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
      ClusterView fresh = new ViewBuilder(o -> 0L).view(s, t);
      assertThat(followed.nodes()).as("step %d", step).isEqualTo(fresh.nodes());
      assertThat(followed.byName()).as("step %d", step).isEqualTo(fresh.byName());
    }
  }

  private static Node cpuNode(String name) {
    return Node.of(name, Labels.of("kubernetes.io/hostname", name, "topology.kubernetes.io/zone", "us-east-1a"),
        List.of(), ResourceList.of("cpu", "16", "memory", "64Gi", "pods", "110"));
  }

  /** Compares each image's followed view with a fresh one; how many images kept the NodeClaim and Node sets. */
  private static int followedEqualsFresh(List<ImageListener.Image> images) {
    // The API server's workload versions, as the images show them: bumped when a workload's pods change.
    Map<ObjectRef, Long> versions = new HashMap<>();
    ViewBuilder following = new ViewBuilder(o -> versions.getOrDefault(o, 0L));
    int sameClaimsAndNodes = 0;
    for (int i = 0; i < images.size(); i++) {
      ImageListener.Image image = images.get(i);
      if (i > 0) {
        bump(versions, images.get(i - 1).state(), image.state());
      }
      ClusterView followed = following.view(image.state(), image.time());
      ClusterView fresh = new ViewBuilder(o -> versions.getOrDefault(o, 0L)).view(image.state(), image.time());
      assertThat(followed.nodes()).as("image %d", i).isEqualTo(fresh.nodes());
      assertThat(followed.byName()).as("image %d", i).isEqualTo(fresh.byName());
      assertThat(followed.pendingPods()).isEqualTo(fresh.pendingPods());
      assertThat(followed.daemonSets()).isEqualTo(fresh.daemonSets());
      assertThat(followed.pdbs().entries()).as("image %d", i).isEqualTo(fresh.pdbs().entries());
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

  /** Bumps the version of every workload whose pods changed from one image to the next. */
  private static void bump(Map<ObjectRef, Long> versions, ClusterState before, ClusterState after) {
    Set<ObjectRef> changed = new HashSet<>();
    before.podsByWorkload().diff(after.podsByWorkload(), (o, was, now) -> changed.add(o));
    before.pods().diff(after.pods(), (k, was, now) -> {
      for (ClusterState s : new ClusterState[] {before, after}) {
        s.podsByWorkload().forEach((o, keys) -> {
          if (keys.containsKey(k)) {
            changed.add(o);
          }
        });
      }
    });
    changed.forEach(o -> versions.merge(o, 1L, Long::sum));
  }
}
