package io.gpufleet.engine.scheduler.plugin;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.workload.DisruptionBudget;
import io.gpufleet.model.workload.IntOrPercent;
import io.gpufleet.model.workload.PodDisruptionBudget;
import io.gpufleet.model.workload.PodTemplate;
import io.gpufleet.model.workload.Workload;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DisruptionBudgetTest {

  private static final PodSpec SPEC = PodSpec.of(Container.of("c", "img", ResourceList.of("cpu", "1"), ResourceList.EMPTY));

  private static Pod pod(String name, String namespace, Labels labels) {
    return new Pod(new ObjectMeta(name, namespace, labels, Labels.EMPTY, Optional.empty()), SPEC);
  }

  private static PodInfo info(String name, Labels labels) {
    return PodInfo.of(pod(name, "default", labels));
  }

  private static PodDisruptionBudget pdb(String name, Optional<LabelSelector> selector, int minAvailable) {
    return new PodDisruptionBudget(ObjectMeta.named(name), selector, Optional.of(new IntOrPercent.Count(minAvailable)),
        Optional.empty());
  }

  private static final Optional<LabelSelector> WEB = Optional.of(LabelSelector.matching(Labels.of("app", "web")));

  private static List<String> names(List<PodInfo> pods) {
    return pods.stream().map(p -> p.pod().meta().name()).toList();
  }

  @Test
  void eachBudgetGivesItsAllowanceInOrderThenTheRestViolateIt() {
    var split = DefaultPreemption.split(List.of(info("a", Labels.of("app", "web")), info("b", Labels.of("app", "web")),
        info("c", Labels.of("app", "db")), info("d", Labels.of("app", "web"))),
        List.of(new DisruptionBudget(pdb("web", WEB, 1), 1)));
    assertThat(names(split.violating())).containsExactly("b", "d");
    assertThat(names(split.nonViolating())).containsExactly("a", "c");
  }

  @Test
  void anEmptySelectorCoversEveryPodOfItsNamespaceUnlabelledOnesTooAndANullOneNone() {
    List<PodInfo> pods = List.of(info("bare", Labels.EMPTY), PodInfo.of(pod("other", "elsewhere", Labels.EMPTY)));
    var all = DefaultPreemption.split(pods, List.of(new DisruptionBudget(pdb("all", Optional.of(LabelSelector.EVERYTHING), 0), 0)));
    assertThat(names(all.violating())).containsExactly("bare");
    var none = DefaultPreemption.split(pods, List.of(new DisruptionBudget(pdb("none", Optional.empty(), 0), 0)));
    assertThat(none.violating()).isEmpty();
  }

  @Test
  void theStatusCountsTheOwnersDesiredPodsAndTheHealthySelectedOnes() {
    Workload.Deployment web = new Workload.Deployment(ObjectMeta.named("web"), 3, WEB.get(),
        new PodTemplate(Labels.of("app", "web"), Labels.EMPTY, SPEC), Workload.Deployment.DEFAULT_ROLLING,
        Workload.Deployment.DEFAULT_ROLLING);
    List<Pod> pods = List.of(pod("w1", "default", Labels.of("app", "web")), pod("w2", "default", Labels.of("app", "web")),
        pod("w3", "default", Labels.of("app", "web")));
    // minAvailable 1 of 3 expected, two healthy: one disruption allowed.
    assertThat(DisruptionBudget.of(List.of(pdb("web", WEB, 1)), List.of(web), pods, p -> !p.meta().name().equals("w3")))
        .singleElement().satisfies(b -> assertThat(b.disruptionsAllowed()).isEqualTo(1));
    // Without an owning workload the selected pods are the expected count: 3 expected, 3 healthy, minAvailable 1.
    assertThat(DisruptionBudget.of(List.of(pdb("web", WEB, 1)), List.of(), pods, p -> true))
        .singleElement().satisfies(b -> assertThat(b.disruptionsAllowed()).isEqualTo(2));
  }
}
