package io.gpufleet.engine.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.workload.PodTemplate;
import io.gpufleet.model.workload.Workload;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A generated pod name that is taken is drawn again, as the API server retries it (KEP-4420
 * RetryGenerateName, GA in v1.32): names stay unique however many pods a controller makes.
 */
class GeneratedNameRetryTest {

  private static final PodTemplate TEMPLATE = new PodTemplate(Labels.of("app", "web"), Labels.EMPTY,
      PodSpec.of(Container.of("c", "img", ResourceList.of("cpu", "1"), ResourceList.EMPTY)));
  private static final Workload.ReplicaSet RS = new Workload.ReplicaSet(ObjectMeta.named("web"), 3,
      LabelSelector.matching(Labels.of("app", "web")), TEMPLATE);

  @Test
  void aTakenNameIsDrawnAgainFromTheSameStream() {
    Pod first = PodFactory.pod(RS, 0, new SplittableRandom(7));
    SplittableRandom replay = new SplittableRandom(7);
    Pod again = PodFactory.pod(RS, 0, replay, PodFactory.owner(RS), k -> k.equals(first.key()));
    assertThat(again.name()).isNotEqualTo(first.name()).startsWith("web-").hasSize("web-".length() + 5);
    // The second draw of the stream, no other: a run stays reproducible.
    SplittableRandom twice = new SplittableRandom(7);
    PodFactory.pod(RS, 0, twice);
    assertThat(again.name()).isEqualTo(PodFactory.pod(RS, 0, twice).name());
  }

  @Test
  void aHundredThousandReplicasGetAHundredThousandNames() {
    Workload.ReplicaSet big = new Workload.ReplicaSet(ObjectMeta.named("web"), 100_000,
        LabelSelector.matching(Labels.of("app", "web")), TEMPLATE);
    List<Pod> pods = InitialPods.resume(List.of(big), List.of(), List.of(), List.of(), new SplittableRandom(1));
    Set<String> names = new HashSet<>();
    pods.forEach(p -> names.add(p.name()));
    assertThat(pods).hasSize(100_000);
    assertThat(names).hasSize(100_000);
  }
}
