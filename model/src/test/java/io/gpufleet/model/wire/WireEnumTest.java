package io.gpufleet.model.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.advise.WorkloadKind;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.deviceplugin.AllocationPolicy;
import io.gpufleet.model.deviceplugin.MigStrategy;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.DisruptionReason;
import io.gpufleet.model.karpenter.RequirementOperator;
import io.gpufleet.model.label.SelectorOperator;
import io.gpufleet.model.pod.PreemptionPolicy;
import io.gpufleet.model.scheduling.SchedulerConfiguration.ScoringStrategyType;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The spellings derived from constant names are the ones the APIs define. The expected strings are
 * the APIs' own (core/v1 types, Karpenter's {@code pkg/apis/v1}, the device plugin's
 * {@code api/config/v1}, the scheduler's config/v1), so a renamed constant that would change what
 * gpufleet reads or writes fails here.
 */
class WireEnumTest {

  private enum Sample implements WireEnum {
    ONE, TWO_WORDS,
    WITH_BODY {
      @Override
      public String toString() {
        return "body";
      }
    }
  }

  private enum Kebab implements WireEnum {
    ON_DEMAND;

    @Override
    public String wireName() {
      return WireEnum.lowerKebab(this);
    }
  }

  @Test
  void upperCamelIsTheDefault() {
    assertThat(WireEnum.wireNames(Sample.class)).containsExactly("One", "TwoWords", "WithBody");
    assertThat(Sample.WITH_BODY.getClass()).isNotEqualTo(Sample.class); // the anonymous-subclass case
  }

  @Test
  void lowerKebabOnRequest() {
    assertThat(Kebab.ON_DEMAND.wireName()).isEqualTo("on-demand");
    assertThat(WireEnum.fromWire(Kebab.class, "on-demand")).contains(Kebab.ON_DEMAND);
  }

  @Test
  void lookupIsExactAndRoundTrips() {
    assertThat(WireEnum.fromWire(Sample.class, "TwoWords")).contains(Sample.TWO_WORDS);
    assertThat(WireEnum.fromWire(Sample.class, "twowords")).isEmpty();
    assertThat(WireEnum.fromWire(Sample.class, "TWO_WORDS")).isEmpty();
    assertThat(WireEnum.fromWire(Sample.class, "")).isEmpty();
    for (Sample s : Sample.values()) {
      assertThat(WireEnum.fromWire(Sample.class, s.wireName())).contains(s);
    }
  }

  @Test
  void theApisSpellings() {
    assertThat(WireEnum.wireNames(SelectorOperator.class))
        .containsExactly("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt");
    assertThat(WireEnum.wireNames(RequirementOperator.class))
        .containsExactly("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt", "Gte", "Lte");
    assertThat(WireEnum.wireNames(TaintEffect.class)).containsExactly("NoSchedule", "PreferNoSchedule", "NoExecute");
    assertThat(WireEnum.wireNames(Toleration.Operator.class)).containsExactly("Equal", "Exists");
    assertThat(WireEnum.wireNames(PreemptionPolicy.class)).containsExactly("PreemptLowerPriority", "Never");
    assertThat(WireEnum.wireNames(ConsolidationPolicy.class))
        .containsExactly("WhenEmpty", "WhenEmptyOrUnderutilized", "Balanced");
    assertThat(WireEnum.wireNames(DisruptionReason.class)).containsExactly("Underutilized", "Empty", "Drifted");
    assertThat(WireEnum.wireNames(CapacityType.class)).containsExactly("reserved", "spot", "on-demand");
    assertThat(WireEnum.wireNames(MigStrategy.class)).containsExactly("none", "single", "mixed");
    assertThat(WireEnum.wireNames(AllocationPolicy.class)).containsExactly("distributed", "packed");
    assertThat(WireEnum.wireNames(ScoringStrategyType.class))
        .containsExactly("LeastAllocated", "MostAllocated", "RequestedToCapacityRatio");
    assertThat(WireEnum.wireNames(WorkloadKind.class)).containsExactly("inference", "notebook", "dev", "batch");
  }

  @Test
  void messagesPrintTheWireName() {
    assertThat(List.of(TaintEffect.NO_EXECUTE, CapacityType.ON_DEMAND).toString()).isEqualTo("[NoExecute, on-demand]");
  }
}
