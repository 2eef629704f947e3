package io.gpufleet.sim.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.queue.api.TopologyAssignment;
import java.util.List;
import org.junit.jupiter.api.Test;

class TopologyUngaterTest {

  private static final TopologyAssignment TWO_HOSTS = new TopologyAssignment(List.of("kubernetes.io/hostname"),
      List.of(new TopologyAssignment.Domain(List.of("x1"), 2), new TopologyAssignment.Domain(List.of("y1"), 1)));
  private static final Pod POD = new Pod(ObjectMeta.named("p"), PodSpec.of().withNodeSelector(Labels.of("pool", "tas")));

  @Test
  void eachNewPodTakesTheFirstDomainWithRoomKeepingItsOwnSelector() {
    Pod first = TopologyUngater.place(POD, TWO_HOSTS, List.of());
    assertThat(first.spec().nodeSelector()).isEqualTo(Labels.of("pool", "tas", "kubernetes.io/hostname", "x1"));
    Labels onX1 = first.spec().nodeSelector();
    assertThat(TopologyUngater.place(POD, TWO_HOSTS, List.of(onX1)).spec().nodeSelector().get("kubernetes.io/hostname"))
        .contains("x1");
    assertThat(TopologyUngater.place(POD, TWO_HOSTS, List.of(onX1, onX1)).spec().nodeSelector()
        .get("kubernetes.io/hostname")).contains("y1");
  }

  @Test
  void aPodBeyondTheAssignedCountsIsLeftWithoutADomain() {
    Labels onX1 = Labels.of("kubernetes.io/hostname", "x1");
    Labels onY1 = Labels.of("kubernetes.io/hostname", "y1");
    assertThat(TopologyUngater.place(POD, TWO_HOSTS, List.of(onX1, onX1, onY1))).isEqualTo(POD);
  }

  @Test
  void aDomainOfSeveralLevelsSelectsEachLevel() {
    TopologyAssignment racks = new TopologyAssignment(List.of("block", "rack"),
        List.of(new TopologyAssignment.Domain(List.of("b1", "r2"), 4)));
    assertThat(TopologyUngater.place(POD, racks, List.of()).spec().nodeSelector())
        .isEqualTo(Labels.of("pool", "tas", "block", "b1", "rack", "r2"));
  }
}
