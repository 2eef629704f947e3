package io.gpufleet.sim.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.meta.ObjectRef;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The ready count kept as pods change is the count the API server made before: the workload's pods
 * (from the index) that are Ready, read on every image of seeded runs of pod changes and removals.
 */
class ReadyCountTest {

  @Test
  void keptCountIsTheRecount() {
    SplittableRandom random = new SplittableRandom(3_333);
    PodSpec spec = PodSpec.of(Container.of("c", "img", ResourceList.of("cpu", "1"), ResourceList.of("cpu", "1")));
    List<ObjectRef> workloads = List.of(new ObjectRef("Deployment", "default", "a"), new ObjectRef("Job", "default", "b"),
        new ObjectRef("StatefulSet", "default", "c"));
    Instant t = Instant.parse("2026-01-05T00:00:00Z");
    for (int trial = 0; trial < 100; trial++) {
      ClusterState s = ClusterState.empty(InstanceCatalog.builtIn());
      for (int step = 0; step < 300; step++) {
        String name = "p" + random.nextInt(40);
        if (random.nextInt(5) == 0) {
          s = s.withoutPod(ObjectMeta.key("default", name));
        } else {
          // A pod keeps its workload for life, as the API server's pods do.
          int owner = name.hashCode() % (workloads.size() + 1);
          Optional<ObjectRef> workload = owner == workloads.size() ? Optional.empty()
              : Optional.of(workloads.get(Math.floorMod(owner, workloads.size())));
          PodState.Phase phase = PodState.Phase.values()[random.nextInt(PodState.Phase.values().length)];
          Optional<Instant> ready = random.nextBoolean() ? Optional.of(t) : Optional.empty();
          Optional<Instant> deleting = random.nextInt(4) == 0 ? Optional.of(t) : Optional.empty();
          s = s.withPod(new PodState(new Pod(ObjectMeta.named(name), spec), step, workload, phase, Optional.empty(), t,
              Optional.empty(), ready, deleting, Optional.empty(), 0));
        }
        for (ObjectRef w : workloads) {
          assertThat(s.readyCount(w)).as("trial %d step %d %s", trial, step, w).isEqualTo(recount(s, w));
        }
      }
    }
  }

  /** ApiServer's count before the index: each pod of the workload's key set, checked. */
  private static int recount(ClusterState s, ObjectRef workload) {
    var keys = s.podsByWorkload().get(workload);
    if (keys == null) {
      return 0;
    }
    int[] n = new int[1];
    keys.forEach((k, v) -> {
      if (s.pods().get(k).isReady()) {
        n[0]++;
      }
    });
    return n[0];
  }
}
