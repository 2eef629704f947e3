package io.gpufleet.engine.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.workload.PodTemplate;
import io.gpufleet.model.workload.Workload;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ControllerSelectorsTest {

  private static final LabelSelector WEB = LabelSelector.matching(Labels.of("app", "web"));
  private static final PodTemplate TEMPLATE = new PodTemplate(Labels.of("app", "web"), Labels.EMPTY,
      PodSpec.of(Container.of("c", "img", ResourceList.of("cpu", "1"), ResourceList.EMPTY)));

  @Test
  void aDeploymentsPodsGetItsSelectorThroughTheirReplicaSet() {
    Workload.Deployment d = new Workload.Deployment(ObjectMeta.named("web"), 3, WEB, TEMPLATE,
        Workload.Deployment.DEFAULT_ROLLING, Workload.Deployment.DEFAULT_ROLLING);
    ControllerSelectors selectors = ControllerSelectors.of(List.of(d));
    var pod = PodFactory.pod(d, 0, new SplittableRandom(1));
    assertThat(pod.meta().owner().orElseThrow().kind()).isEqualTo("ReplicaSet");
    assertThat(selectors.selectorFor(pod)).contains(WEB);
  }

  @Test
  void jobPodsAndPodsOfAnotherNamespaceGetNone() {
    Workload.Job j = new Workload.Job(ObjectMeta.named("batch"), 1, 1, WEB, TEMPLATE, Optional.empty());
    Workload.StatefulSet ss = new Workload.StatefulSet(ObjectMeta.named("db"), 1, WEB, TEMPLATE);
    ControllerSelectors selectors = ControllerSelectors.of(List.of(j, ss));
    assertThat(selectors.selectorFor(PodFactory.pod(j, 0, new SplittableRandom(1)))).isEmpty();
    var ssPod = PodFactory.pod(ss, 0, new SplittableRandom(1));
    assertThat(selectors.selectorFor(ssPod)).contains(WEB);
    var elsewhere = ssPod.withMeta(new ObjectMeta(ssPod.name(), "other", ssPod.meta().labels(), Labels.EMPTY,
        ssPod.meta().owner()));
    assertThat(selectors.selectorFor(elsewhere)).isEmpty();
  }
}
