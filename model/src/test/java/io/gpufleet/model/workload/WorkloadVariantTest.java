package io.gpufleet.model.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.pod.PodSpec;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@link Workload.Variant} stands in for the sealed type in switches, so it must stay one-to-one
 * with the permitted records: a new record fails here until it has a constant of its own.
 */
class WorkloadVariantTest {

  private static final LabelSelector SELECTOR = LabelSelector.matching(Labels.of("app", "a"));
  private static final PodTemplate TEMPLATE = new PodTemplate(Labels.of("app", "a"), Labels.EMPTY, PodSpec.of());

  /** One of each permitted record, with distinct numbers so that a swapped component shows. */
  private static final List<Workload> ONE_OF_EACH = List.of(
      new Workload.Deployment(ObjectMeta.named("d"), 3, SELECTOR, TEMPLATE, new IntOrPercent.Count(2),
          new IntOrPercent.Percent(10)),
      new Workload.ReplicaSet(ObjectMeta.named("rs"), 4, SELECTOR, TEMPLATE),
      new Workload.StatefulSet(ObjectMeta.named("ss"), 5, SELECTOR, TEMPLATE),
      new Workload.Job(ObjectMeta.named("j"), 2, 7, SELECTOR, TEMPLATE, Optional.of(Duration.ofMinutes(3))),
      new Workload.DaemonSet(ObjectMeta.named("ds"), SELECTOR, TEMPLATE));

  @Test
  void eachPermittedRecordHasAVariantOfItsOwn() {
    assertThat(ONE_OF_EACH.stream().map(Object::getClass).collect(Collectors.toSet()))
        .as("one sample of every permitted record")
        .isEqualTo(Set.of(Workload.class.getPermittedSubclasses()));
    assertThat(ONE_OF_EACH.stream().map(Workload::variant).toList())
        .doesNotHaveDuplicates()
        .containsExactlyInAnyOrderElementsOf(EnumSet.allOf(Workload.Variant.class));
  }

  @Test
  void withTemplateReplacesTheTemplateAndKeepsEverythingElse() {
    PodTemplate other = new PodTemplate(Labels.of("app", "b"), Labels.of("note", "x"), PodSpec.of());
    for (Workload w : ONE_OF_EACH) {
      Workload changed = w.withTemplate(other);
      assertThat(changed.getClass()).isEqualTo(w.getClass());
      assertThat(changed.template()).isEqualTo(other);
      assertThat(changed.withTemplate(TEMPLATE)).as(w.kind()).isEqualTo(w);
    }
  }
}
