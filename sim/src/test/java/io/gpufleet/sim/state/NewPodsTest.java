package io.gpufleet.sim.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A batch of new pending pods put into the image at once ({@link ClusterState#withNewPods}) makes the
 * image {@link ClusterState#withPod} of each in turn makes: the pods, every index (each workload's pod
 * keys, the ready counts, the pending keys) with the same entries in the same order, and the version;
 * over seeded images of pods of several workloads in every phase, shaped by puts and removals, and
 * batches of one workload's pods, of several workloads' and of none's.
 */
class NewPodsTest {

  private static final PodSpec SPEC =
      PodSpec.of(Container.of("c", "img", ResourceList.of("cpu", "1"), ResourceList.of("cpu", "1")));
  private static final List<ObjectRef> WORKLOADS = List.of(new ObjectRef("Deployment", "default", "a"),
      new ObjectRef("Job", "default", "b"), new ObjectRef("ReplicaSet", "default", "c"));
  private static final Instant T = Instant.parse("2026-01-05T00:00:00Z");

  @Test
  void aBatchIsThePodsOneAfterAnother() {
    SplittableRandom random = new SplittableRandom(20_261_207);
    for (int trial = 0; trial < 300; trial++) {
      ClusterState s = ClusterState.empty(InstanceCatalog.builtIn());
      int before = random.nextInt(200);
      for (int step = 0; step < before; step++) {
        String name = "p" + random.nextInt(150);
        if (random.nextInt(5) == 0) {
          s = s.withoutPod(ObjectMeta.key("default", name));
        } else {
          PodState.Phase phase = PodState.Phase.values()[random.nextInt(PodState.Phase.values().length)];
          Optional<Instant> ready = random.nextBoolean() ? Optional.of(T) : Optional.empty();
          s = s.withPod(new PodState(new Pod(ObjectMeta.named(name), SPEC), step, owner(name), phase,
              Optional.empty(), T, Optional.empty(), ready, Optional.empty(), Optional.empty(), 0));
        }
      }
      List<PodState> batch = new ArrayList<>();
      Set<String> names = new HashSet<>();
      int n = random.nextInt(1, 120);
      int kind = random.nextInt(3);
      Optional<ObjectRef> one = Optional.of(WORKLOADS.get(random.nextInt(WORKLOADS.size())));
      for (int i = 0; i < n; i++) {
        String name = "n" + random.nextInt(400);
        if (s.pods().containsKey(ObjectMeta.key("default", name)) || !names.add(name)) {
          continue;
        }
        Optional<ObjectRef> workload = switch (kind) {
          case 0 -> one;
          case 1 -> owner(name);
          default -> Optional.empty();
        };
        batch.add(new PodState(new Pod(ObjectMeta.named(name), SPEC), 1000 + i, workload, PodState.Phase.PENDING,
            Optional.empty(), T, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), 0));
      }
      ClusterState each = s;
      for (PodState p : batch) {
        each = each.withPod(p);
      }
      ClusterState all = s.withNewPods(batch);
      assertThat(all.version()).as("trial %d", trial).isEqualTo(each.version());
      assertSame(all.pods(), each.pods());
      assertSame(all.pending(), each.pending());
      assertSame(all.readyByWorkload(), each.readyByWorkload());
      assertThat(all.podsByWorkload().keys()).containsExactlyElementsOf(each.podsByWorkload().keys());
      for (ObjectRef w : each.podsByWorkload().keys()) {
        assertSame(all.podsByWorkload().get(w), each.podsByWorkload().get(w));
      }
    }
  }

  @Test
  void refusesAPodThatIsThereOrNotPending() {
    ClusterState s = ClusterState.empty(InstanceCatalog.builtIn()).withNewPods(List.of(pending("a", 0)));
    assertThatThrownBy(() -> s.withNewPods(List.of(pending("b", 1), pending("a", 2))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> s.withNewPods(List.of(pending("b", 1), pending("b", 2))))
        .isInstanceOf(IllegalArgumentException.class);
    PodState running = new PodState(new Pod(ObjectMeta.named("c"), SPEC), 3, Optional.empty(),
        PodState.Phase.RUNNING, Optional.of("n"), T, Optional.of(T), Optional.empty(), Optional.empty(),
        Optional.empty(), 0);
    assertThatThrownBy(() -> s.withNewPods(List.of(running))).isInstanceOf(IllegalArgumentException.class);
  }

  private static PodState pending(String name, long sequence) {
    return new PodState(new Pod(ObjectMeta.named(name), SPEC), sequence, Optional.empty(), PodState.Phase.PENDING,
        Optional.empty(), T, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), 0);
  }

  /** A pod keeps its workload for life, as the API server's pods do; some have none. */
  private static Optional<ObjectRef> owner(String name) {
    int owner = Math.floorMod(name.hashCode(), WORKLOADS.size() + 1);
    return owner == WORKLOADS.size() ? Optional.empty() : Optional.of(WORKLOADS.get(owner));
  }

  /** The same entries, the same objects, in the same order. */
  private static <K, V> void assertSame(PMap<K, V> a, PMap<K, V> b) {
    assertThat(a.keys()).containsExactlyElementsOf(b.keys());
    for (K k : b.keys()) {
      assertThat(a.get(k)).isSameAs(b.get(k));
    }
  }
}
