package io.gpufleet.engine.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link PodInfo#of(Pod, PodInfo)}: a pod's info made from another pod's of the same spec object is
 * the info worked out of the pod itself; one of another spec, equal or not, lends nothing.
 */
class PodInfoTest {

  @Test
  void infoFromAPodOfTheSameSpecIsTheInfoWorkedOut() {
    SplittableRandom r = new SplittableRandom(20261207L);
    List<PodSpec> specs = new ArrayList<>();
    for (int k = 0; k < 12; k++) {
      ResourceList req = r.nextBoolean() ? ResourceList.EMPTY
          : ResourceList.of("cpu", r.nextInt(1, 4) * 500 + "m", "memory", r.nextInt(1, 4) + "Gi");
      ResourceList lim = r.nextBoolean() ? ResourceList.EMPTY : ResourceList.of("nvidia.com/gpu", "" + r.nextInt(1, 3));
      PodSpec spec = PodSpec.of(Container.of("c", "img", req, lim));
      specs.add(r.nextBoolean() ? spec : spec.withNodeSelector(Labels.of("pool", "gpu")));
    }
    for (int step = 0; step < 500; step++) {
      PodSpec spec = specs.get(r.nextInt(specs.size()));
      Pod pod = new Pod(ObjectMeta.named("p" + step), spec);
      PodSpec lent = switch (r.nextInt(3)) {
        case 0 -> spec;
        // An equal spec, another object.
        case 1 -> spec.withTolerations(new ArrayList<>(spec.tolerations()));
        default -> specs.get(r.nextInt(specs.size()));
      };
      PodInfo other = PodInfo.of(new Pod(ObjectMeta.named("q" + step), lent));
      assertThat(PodInfo.of(pod, other)).as("step %d", step).isEqualTo(PodInfo.of(pod));
      assertThat(PodInfo.of(pod, null)).isEqualTo(PodInfo.of(pod));
    }
  }
}
