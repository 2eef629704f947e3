package io.gpufleet.autoscaler.requirement;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.label.Labels;
import io.gpufleet.model.label.Requirement;
import io.gpufleet.testing.property.Gen;
import io.gpufleet.testing.property.Property;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RequirementsTest {

  @Test
  void explainsIncompatibilityInKarpentersWords() {
    Requirements pool = Requirements.ofSelector(List.of(Requirement.in("karpenter.k8s.aws/instance-family", "g5", "g6")));
    Requirements pod = Requirements.ofSelector(List.of(Requirement.in("karpenter.k8s.aws/instance-family", "p5")));
    assertThat(pool.incompatibility(pod, Requirements.WELL_KNOWN)).contains("key karpenter.k8s.aws/instance-family, "
        + "karpenter.k8s.aws/instance-family In [p5] not in karpenter.k8s.aws/instance-family In [g5 g6]");
    assertThat(pool.incompatibility(Requirements.ofLabels(Labels.of("team", "ml")), Requirements.WELL_KNOWN))
        .contains("label \"team\" does not have known values");
    assertThat(pool.incompatibility(Requirements.ofLabels(Labels.of("topology.kubernetes.io/zone", "us-east-1a")),
        Requirements.WELL_KNOWN)).isEmpty();
    assertThat(pool.incompatibility(Requirements.ofSelector(List.of(Requirement.notIn("team", "a"))), Set.of()))
        .isEmpty();
  }

  @Test
  void boundsAndAbsenceIntersect() {
    ValueSet gpus = ValueSet.greaterThan(1).intersect(ValueSet.lessThan(5));
    assertThat(gpus.admits("4")).isTrue();
    assertThat(gpus.admits("8")).isFalse();
    assertThat(gpus.intersect(ValueSet.in(List.of("1", "8"))).isEmpty()).isTrue();
    assertThat(ValueSet.greaterThan(3).intersect(ValueSet.lessThan(4)).isEmpty()).isTrue();
    assertThat(ValueSet.notIn(List.of("a")).intersect(ValueSet.doesNotExist()).isEmpty()).isFalse();
    assertThat(ValueSet.exists().intersect(ValueSet.doesNotExist()).isEmpty()).isTrue();
    assertThat(ValueSet.greaterThan(2).describe()).isEqualTo("Exists >2");
  }

  /** Intersection is what both admit, for every label value, present or absent. */
  @Test
  void intersectionAdmitsExactlyWhatBothAdmit() {
    Property.check(20261206L, 300, Gen.ints(0, 5), Gen.ints(0, 5), Gen.ints(0, 9), Gen.ints(0, 9),
        this::intersectionAdmitsExactlyWhatBothAdmit);
  }

  private void intersectionAdmitsExactlyWhatBothAdmit(int a, int b, int x, int y) {
    ValueSet[] sets = {ValueSet.in(List.of(Integer.toString(x), "7")), ValueSet.notIn(List.of(Integer.toString(y))),
        ValueSet.exists(), ValueSet.doesNotExist(), ValueSet.greaterThan(x), ValueSet.lessThan(y)};
    ValueSet s = sets[a];
    ValueSet t = sets[b];
    ValueSet both = s.intersect(t);
    boolean any = false;
    for (String v : new String[] {null, "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "x"}) {
      boolean expected = s.admits(v) && t.admits(v);
      assertThat(both.admits(v)).as(s + " ∩ " + t + " at " + v).isEqualTo(expected);
      any |= expected;
    }
    if (any) {
      assertThat(both.isEmpty()).isFalse();
    }
  }
}
