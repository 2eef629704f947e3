package io.gpufleet.sim.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.collect.PMap;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.meta.ObjectRef;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link ClusterState#withPods} is {@link ClusterState#withPod} for each pod in turn: the same pods,
 * pending keys, workload index and ready counts, whether the batch only sets scheduling messages
 * (the one-pass path) or also moves pods out of Pending or to Ready (the pod-by-pod path).
 */
class WithPodsTest {

  private static final PodSpec SPEC = PodSpec.of(Container.of("c", "img", ResourceList.of("cpu", "1"),
      ResourceList.of("cpu", "1")));
  private static final List<ObjectRef> WORKLOADS = List.of(new ObjectRef("Deployment", "default", "a"),
      new ObjectRef("Job", "default", "b"));
  private static final Instant T = Instant.parse("2026-01-05T00:00:00Z");

  @Test
  void batchIsThePodsOneAfterAnother() {
    SplittableRandom random = new SplittableRandom(20_261_206);
    for (int trial = 0; trial < 200; trial++) {
      ClusterState s = ClusterState.empty(InstanceCatalog.builtIn());
      int n = random.nextInt(1, 300);
      for (int i = 0; i < n; i++) {
        s = s.withPod(pod(random, "p" + i, i));
      }
      List<PodState> all = s.pods().values();
      boolean messagesOnly = random.nextBoolean();
      List<String> keys = new ArrayList<>();
      List<PodState> changed = new ArrayList<>();
      for (int i = random.nextInt(2 * n); i > 0; i--) {
        PodState p = all.get(random.nextInt(all.size()));
        keys.add(p.key());
        changed.add(messagesOnly || random.nextInt(3) > 0 ? p.withSchedulingMessage("m" + random.nextInt(5))
            : p.bound("node", T));
      }
      ClusterState one = s;
      for (PodState p : changed) {
        one = one.withPod(p);
      }
      ClusterState batch = s.withPods(keys, changed);
      assertThat(entries(batch.pods())).as("trial %d", trial).isEqualTo(entries(one.pods()));
      assertThat(entries(batch.pending())).isEqualTo(entries(one.pending()));
      assertThat(entries(batch.podsByWorkload())).isEqualTo(entries(one.podsByWorkload()));
      for (ObjectRef w : WORKLOADS) {
        assertThat(batch.readyCount(w)).isEqualTo(one.readyCount(w));
      }
    }
  }

  private static PodState pod(SplittableRandom random, String name, long sequence) {
    int owner = random.nextInt(WORKLOADS.size() + 1);
    Optional<ObjectRef> workload = owner == WORKLOADS.size() ? Optional.empty() : Optional.of(WORKLOADS.get(owner));
    PodState.Phase phase = random.nextInt(3) > 0 ? PodState.Phase.PENDING : PodState.Phase.RUNNING;
    Optional<Instant> ready = random.nextBoolean() ? Optional.of(T) : Optional.empty();
    return new PodState(new Pod(ObjectMeta.named(name), SPEC), sequence, workload, phase, Optional.empty(), T,
        Optional.empty(), ready, Optional.empty(), Optional.empty(), 0);
  }

  private static <K, V> Map<K, V> entries(PMap<K, V> p) {
    Map<K, V> out = new HashMap<>();
    p.forEach(out::put);
    return out;
  }
}
