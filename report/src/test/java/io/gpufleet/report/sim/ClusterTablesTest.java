package io.gpufleet.report.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodRequests;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.report.smi.SmiView;
import io.gpufleet.sim.state.ClusterState;
import io.gpufleet.sim.state.PodState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ClusterTablesTest {

  /** The bounded heap gives what sorting everything and taking the first rows gives, ties included. */
  @Test
  void firstIsTheSortedHead() {
    SplittableRandom random = new SplittableRandom(33);
    Comparator<int[]> order = Comparator.comparingInt((int[] a) -> a[0]).thenComparingInt(a -> a[1]);
    for (int trial = 0; trial < 500; trial++) {
      List<int[]> all = new ArrayList<>();
      int n = random.nextInt(0, 300);
      for (int i = 0; i < n; i++) {
        all.add(new int[] {random.nextInt(0, 50), i});
      }
      int limit = random.nextInt(0, 350);
      List<int[]> sorted = new ArrayList<>(all);
      sorted.sort(order);
      List<int[]> expected = sorted.subList(0, Math.min(limit, n));
      List<int[]> got = ClusterTables.first(all, order, limit);
      assertEquals(expected.size(), got.size(), "trial " + trial);
      for (int i = 0; i < got.size(); i++) {
        assertEquals(expected.get(i), got.get(i), "trial " + trial + " row " + i);
      }
    }
  }

  /**
   * The nvidia-smi view's pods without a GPU, worked out once per shared spec from the pods without a
   * node, are what the earlier computation (every pod sorted, each spec's requests read per pod) gave.
   */
  @Test
  void unplacedIsTheEarlierFullComputation() {
    SplittableRandom random = new SplittableRandom(3307);
    Instant t = Instant.parse("2026-01-05T00:00:00Z");
    for (int trial = 0; trial < 200; trial++) {
      List<PodSpec> specs = List.of(spec("nvidia.com/gpu", "1"), spec("nvidia.com/gpu", "1"), spec("cpu", "1"),
          spec("nvidia.com/mig-1g.10gb", "1"), spec("nvidia.com/gpu", "2"));
      ClusterState s = ClusterState.empty(InstanceCatalog.builtIn());
      int n = random.nextInt(0, 200);
      for (int i = 0; i < n; i++) {
        PodState.Phase phase = PodState.Phase.values()[random.nextInt(PodState.Phase.values().length)];
        Optional<String> node = random.nextInt(3) == 0 ? Optional.of("n" + random.nextInt(4)) : Optional.empty();
        Optional<String> message = random.nextBoolean() ? Optional.of("m" + random.nextInt(5)) : Optional.empty();
        Pod pod = new Pod(ObjectMeta.named("p" + i), specs.get(random.nextInt(specs.size())));
        s = s.withPod(new PodState(pod, random.nextLong(0, 10_000), Optional.empty(), phase, node, t, Optional.empty(),
            Optional.empty(), Optional.empty(), message, 0));
      }
      assertEquals(earlierUnplaced(s), ClusterTables.unplaced(s), "trial " + trial);
    }
  }

  private static PodSpec spec(String resource, String amount) {
    ResourceList r = ResourceList.of("cpu", "100m", resource, amount);
    return PodSpec.of(Container.of("c", "img", r, r));
  }

  /** The computation before the shared-spec shortcut, kept as the oracle. */
  private static List<SmiView.Unplaced> earlierUnplaced(ClusterState s) {
    List<SmiView.Unplaced> unplaced = new ArrayList<>();
    List<PodState> pods = new ArrayList<>(s.pods().values());
    pods.sort(Comparator.comparingLong(PodState::sequence));
    for (PodState p : pods) {
      boolean wantsGpu = PodRequests.of(p.pod().spec()).names().stream().anyMatch(ResourceName::isNvidiaGpuLike)
          || !p.pod().spec().resourceClaims().isEmpty();
      if (wantsGpu && p.node().isEmpty()) {
        unplaced.add(new SmiView.Unplaced(p.key(), p.isFailed() ? "Failed" : "Pending",
            p.schedulingMessage().orElse("")));
      }
    }
    return unplaced;
  }
}
