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
 * {@link ClusterState#withSchedulingMessages} is {@link ClusterState#withPod} of each pod with its
 * message in turn (repeated keys included): the same pods, pending keys, workload index and ready
 * counts, on 200 seeded images of pending and running pods of two workloads and none.
 */
class SchedulingMessagesTest {

  private static final PodSpec SPEC = PodSpec.of(Container.of("c", "img", ResourceList.of("cpu", "1"),
      ResourceList.of("cpu", "1")));
  private static final List<ObjectRef> WORKLOADS = List.of(new ObjectRef("Deployment", "default", "a"),
      new ObjectRef("Job", "default", "b"));
  private static final Instant T = Instant.parse("2026-01-05T00:00:00Z");

  @Test
  void batchIsEachPodInTurn() {
    SplittableRandom random = new SplittableRandom(20_261_206);
    for (int trial = 0; trial < 200; trial++) {
      ClusterState s = ClusterState.empty(InstanceCatalog.builtIn());
      int n = random.nextInt(1, 300);
      for (int i = 0; i < n; i++) {
        s = s.withPod(pod(random, "p" + i, i));
      }
      List<PodState> all = s.pods().values();
      List<String> keys = new ArrayList<>();
      List<String> messages = new ArrayList<>();
      for (int i = random.nextInt(2 * n); i > 0; i--) {
        keys.add(all.get(random.nextInt(all.size())).key());
        messages.add("m" + random.nextInt(5));
      }
      ClusterState one = s;
      for (int i = 0; i < keys.size(); i++) {
        one = one.withPod(one.pods().get(keys.get(i)).withSchedulingMessage(messages.get(i)));
      }
      ClusterState batch = s.withSchedulingMessages(keys, messages);
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
