package io.gpufleet.autoscaler.provisioning;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.AutoscalerSettings.GpuSizing;
import io.gpufleet.autoscaler.gpu.NvidiaDevicePlugin;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.autoscaler.testing.Fixtures;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.cloud.Offering;
import io.gpufleet.model.karpenter.NodeClaimTemplate;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A provisioner that keeps new claims' first answers ({@link FirstClaims}), puts the shared pods in
 * queue order once, plans claims only when asked ({@link Provisioner#simulateWithout}) and takes a
 * round's shortcuts (failures of a spec reused, a spec's hosts scanned on from where its last pod
 * stopped) plans what a round built afresh without any of them plans over the same pods one after the
 * other: seeded fleets,
 * pending pods asked about with many candidates' pods and leave-out sets, while the offerings (types out
 * of stock, and back) and the time change between steps.
 */
class FirstClaimsTest {

  /** The GPU NodePool and a tainted CPU one, so new claims are refused by taint, by requirements or by size. */
  private static final List<NodePool> POOLS = List.of(RoundNodesTest.POOL,
      NodePool.of("general", NodeClaimTemplate.of(NodePoolRequirement.in("karpenter.k8s.aws/instance-family", "m5"))
          .withTaints(List.of(Taint.of("dedicated", "train", TaintEffect.NO_SCHEDULE)))));
  private final ProvisioningModel model = ProvisioningModel.of(POOLS, InstanceCatalog.builtIn(), List.of(),
      NvidiaDevicePlugin.DEFAULTS, GpuSizing.PHYSICAL);

  @Test
  void keptFirstAnswersAndSharedQueuesPlanWhatFreshRoundsPlan() {
    int compared = 0;
    int withClaims = 0;
    int refused = 0;
    for (long seed = 1; seed <= 40; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      Provisioner kept = new Provisioner(model);
      List<StateNode> nodes = RoundNodesTest.nodes(4 + r.nextInt(10), r);
      OfferingAvailability offerings = OfferingAvailability.ALL;
      Instant now = RoundNodesTest.T0;
      int podNo = 0;
      // A few specs the pods share across steps, as a Job's pods share their template's.
      List<PodSpec> specs = new ArrayList<>();
      for (int i = 2 + r.nextInt(5); i > 0; i--) {
        specs.add(RoundNodesTest.pod("s", RoundNodesTest.TYPES, r).spec());
      }
      for (int step = 0; step < 12; step++) {
        List<Pod> shared = new ArrayList<>();
        for (int i = r.nextInt(8); i > 0; i--) {
          shared.add(Fixtures.gpuPod("p" + podNo++, 1).withSpec(specs.get(r.nextInt(specs.size()))));
        }
        List<Pod> sharedList = List.copyOf(shared);
        for (int ask = 0; ask < 6; ask++) {
          List<Pod> own = new ArrayList<>();
          for (int i = r.nextInt(4); i > 0; i--) {
            // a spec of the shared ones, or a new one
            Pod p = RoundNodesTest.pod("c" + podNo++, RoundNodesTest.TYPES, r);
            own.add(r.nextBoolean() ? p.withSpec(specs.get(r.nextInt(specs.size()))) : p);
          }
          Set<String> leaving = new HashSet<>();
          for (int i = r.nextInt(3); i > 0 && !nodes.isEmpty(); i--) {
            leaving.add(nodes.get(r.nextInt(nodes.size())).name());
          }
          SimulatedRound a = kept.simulateWithout(sharedList, own, nodes, leaving, List.of(), offerings, now);
          List<Pod> all = new ArrayList<>(sharedList);
          all.addAll(own);
          ProvisioningPlan b = new ProvisioningRound(model, new RoundNodes(model, nodes, List.of(), new NodeBases()),
              leaving, offerings, now, false, null).run(all);
          String as = String.format("seed %d step %d ask %d", seed, step, ask);
          assertThat(List.copyOf(a.onExisting().entrySet())).as(as).isEqualTo(List.copyOf(b.onExisting().entrySet()));
          assertThat(List.copyOf(a.errors().entrySet())).as(as).isEqualTo(List.copyOf(b.errors().entrySet()));
          assertThat(a.claimCount()).as(as).isEqualTo(b.newClaims().size());
          if (r.nextInt(3) != 0) { // asked or not, as consolidation asks only some
            assertThat(a.newClaims()).as(as).isEqualTo(b.newClaims());
          }
          // the provisioner's own rounds keep the same answers
          ProvisioningPlan c = kept.solveWithout(all, nodes, leaving, List.of(), offerings, now);
          assertThat(c.newClaims()).as(as).isEqualTo(b.newClaims());
          assertThat(List.copyOf(c.errors().entrySet())).as(as).isEqualTo(List.copyOf(b.errors().entrySet()));
          compared++;
          withClaims += b.newClaims().isEmpty() ? 0 : 1;
          refused += b.errors().isEmpty() ? 0 : 1;
        }
        // The offerings change: a type out of stock for a while, or time passes (and may bring it back).
        switch (r.nextInt(4)) {
          case 0 -> {
            InstanceType t = RoundNodesTest.TYPES.get(r.nextInt(RoundNodesTest.TYPES.size()));
            for (Offering o : t.offerings()) {
              offerings = offerings.markUnavailable(t.name(), o.capacityType(), o.zone(),
                  now.plus(Duration.ofMinutes(1 + r.nextInt(20))));
            }
          }
          case 1 -> now = now.plus(Duration.ofMinutes(r.nextInt(15)));
          case 2 -> offerings = new OfferingAvailability(offerings.unavailableUntil()); // equal, not the same
          default -> { } // the same offerings and time
        }
        if (!nodes.isEmpty() && r.nextInt(3) == 0) {
          nodes.remove(r.nextInt(nodes.size()));
        }
        if (r.nextInt(3) == 0) {
          nodes.addAll(RoundNodesTest.nodes(1, r));
        }
      }
    }
    assertThat(compared).isEqualTo(40 * 12 * 6);
    assertThat(withClaims).as("rounds that open new claims").isGreaterThan(1000);
    assertThat(refused).as("rounds with pods nothing takes").isGreaterThan(200);
  }

  @Test
  void queueIsTheComparatorsStableSortAndMergesAsOne() {
    SplittableRandom r = new SplittableRandom(7);
    for (int trial = 0; trial < 200; trial++) {
      List<Pod> a = new ArrayList<>();
      List<Pod> b = new ArrayList<>();
      for (int i = r.nextInt(12); i > 0; i--) {
        a.add(Fixtures.gpuPod("a" + i, 1, Integer.toString(1 + r.nextInt(4)), (1 + r.nextInt(3)) + "Gi"));
      }
      for (int i = r.nextInt(5); i > 0; i--) {
        b.add(Fixtures.gpuPod("b" + i, 1, Integer.toString(1 + r.nextInt(4)), (1 + r.nextInt(3)) + "Gi"));
      }
      RoundNodes fleet = new RoundNodes(model, List.of(), List.of(), new NodeBases());
      List<Pod> both = new ArrayList<>(a);
      both.addAll(b);
      var order = Provisioner.queueOrder(both, fleet::request);
      // the keyed sort is the comparator's own stable sort, ties (same CPU and memory) as given
      List<Pod> byComparator = new ArrayList<>(both);
      byComparator.sort(Provisioner.queueComparator(fleet::request));
      assertThat(order).as("trial %d", trial).isEqualTo(byComparator);
      var merged = Provisioner.merge(Provisioner.queueOrder(a, fleet::request), Provisioner.queueOrder(b, fleet::request),
          Provisioner.queueComparator(fleet::request));
      assertThat(merged).as("trial %d", trial).isEqualTo(order);
      // how many of a's come before b's first and b's last, as read off the merge and as found by walking it
      var sortedA = Provisioner.queueOrder(a, fleet::request);
      var sortedB = Provisioner.queueOrder(b, fleet::request);
      int walked = sortedB.isEmpty() ? sortedA.size() : merged.indexOf(sortedB.getFirst());
      assertThat(Provisioner.sharedBefore(merged, 0, sortedA.size())).as("trial %d", trial).isEqualTo(walked);
      int walkedLast = sortedB.isEmpty() ? sortedA.size() : merged.indexOf(sortedB.getLast()) - (sortedB.size() - 1);
      assertThat(Provisioner.sharedBefore(merged, sortedB.size() - 1, sortedA.size())).as("trial %d", trial)
          .isEqualTo(walkedLast);
    }
  }
}
