package io.gpufleet.engine.advise;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.deviceplugin.SharingMode;
import io.gpufleet.model.deviceplugin.SharingMode.Family;
import io.gpufleet.model.advise.Burstiness;
import io.gpufleet.model.advise.HostResources;
import io.gpufleet.model.advise.LatencySlo;
import io.gpufleet.model.advise.Load;
import io.gpufleet.model.advise.RequestDemand;
import io.gpufleet.model.advise.Trust;
import io.gpufleet.model.advise.WorkloadKind;
import io.gpufleet.model.advise.WorkloadProfile;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The sharing module's rules of thumb, reproduced where they hold, and said to be overruled where
 * the numbers disagree.
 */
class AdvisorScenariosTest {

  private static RuleCheck check(Advice a, String rule) {
    return a.rules().stream().filter(r -> r.rule().id().equals(rule)).findFirst().orElseThrow();
  }

  private static Option pick(Advice a) {
    return a.recommended().orElseThrow();
  }

  @Test
  void strictSloOnABigGpuGoesExclusive() {
    // 1.23 ms per request alone on an H100; a 2.5 ms p99 at 50 req/s leaves no room to share or to slow
    // down on a slice.
    Advice a = Scenarios.advise(List.of(Scenarios.inference(4, 1, 50, 2.5, Trust.TRUSTED)), "H100");
    assertThat(pick(a).mode()).isEqualTo(new SharingMode.Exclusive());
    assertThat(pick(a).gpus()).isEqualTo(4);
    assertThat(check(a, "strict-slo").stance()).isEqualTo(RuleCheck.Stance.AGREES);
    assertThat(a.ranked()).filteredOn(o -> o.mode() instanceof SharingMode.TimeSlicing && o.gpus() < 4)
        .allMatch(o -> !o.sloMet());
  }

  @Test
  void untrustedTenantsOnABigGpuGetMig() {
    Advice a = Scenarios.advise(List.of(Scenarios.inference(7, 4, 2, 100, Trust.UNTRUSTED)), "H100");
    assertThat(pick(a).mode().families()).containsExactly(Family.MIG);
    assertThat(pick(a).label()).isEqualTo("MIG 1g.10gb");
    assertThat(pick(a).gpus()).isEqualTo(1);
    assertThat(check(a, "isolation-big-gpu").stance()).isEqualTo(RuleCheck.Stance.AGREES);
    assertThat(check(a, "untrusted-no-shared-context").stance()).isEqualTo(RuleCheck.Stance.CONSTRAINS);
    assertThat(a.ranked()).filteredOn(o -> o.mode().families().contains(Family.TIME_SLICING)
        || o.mode().families().contains(Family.MPS)).isNotEmpty().noneMatch(Option::admissible);
  }

  @Test
  void notebooksTimeSliceAnyGpuAndMemoryDecidesHowMany() {
    Advice a = Scenarios.advise(List.of(Scenarios.notebooks()), "L4");
    assertThat(pick(a).mode()).isEqualTo(new SharingMode.TimeSlicing(6));
    assertThat(pick(a).gpus()).isEqualTo(2);
    assertThat(pick(a).fewerGpus()).singleElement().asString().contains("notebook-12 would run out of GPU memory");
    assertThat(check(a, "utilisation-any-gpu").stance()).isEqualTo(RuleCheck.Stance.AGREES);
  }

  @Test
  void manySmallKernelsOfOneTeamGoMps() {
    // 8 launch-bound replicas at 45 req/s: 360 req/s is more than time-slicing serves on a card (330),
    // well inside what MPS serves (838).
    var small = new WorkloadProfile("small", WorkloadKind.INFERENCE, 8, new RequestDemand.KernelStream(768), 1024,
        new Load(45, Burstiness.POISSON), Optional.of(new LatencySlo(100)), Trust.TRUSTED, HostResources.NONE);
    Advice a = Scenarios.advise(List.of(small), "H100");
    assertThat(pick(a).mode().families()).containsExactly(Family.MPS);
    assertThat(pick(a).gpus()).isEqualTo(1);
    assertThat(check(a, "small-kernels-one-team").stance()).isEqualTo(RuleCheck.Stance.AGREES);
    Option sliced = a.ranked().stream().filter(o -> o.mode() instanceof SharingMode.TimeSlicing).findFirst().orElseThrow();
    assertThat(sliced.gpus()).isGreaterThan(1);
  }

  @Test
  void noMigOnA10gL4OrL40s() {
    for (String gpu : List.of("A10G", "L4", "L40S")) {
      Advice a = Scenarios.advise(List.of(Scenarios.inference(2, 1, 5, 50, Trust.TRUSTED)), gpu);
      Option mig = a.ranked().stream().filter(o -> o.mode().families().contains(Family.MIG)).findFirst().orElseThrow();
      assertThat(mig.admissible()).as(gpu).isFalse();
      assertThat(mig.blockers().getFirst()).contains("MIG does not exist on");
      assertThat(check(a, "mig-hardware").stance()).isEqualTo(RuleCheck.Stance.CONSTRAINS);
      assertThat(a.ranked()).filteredOn(o -> o.mode().families().contains(Family.MIG)).hasSize(1);
    }
  }

  @Test
  void saysSoWhenTheNumbersOverruleTheStrictSloRule() {
    Advice a = Scenarios.advise(List.of(Scenarios.inference(4, 1, 5, 50, Trust.TRUSTED)), "A10G");
    assertThat(pick(a).mode()).isEqualTo(new SharingMode.TimeSlicing(4));
    RuleCheck strict = check(a, "strict-slo");
    assertThat(strict.stance()).isEqualTo(RuleCheck.Stance.OVERRULED);
    assertThat(strict.sentence()).contains("overrule").contains("exclusive also meets the SLO");
    assertThat(a.defence()).contains(strict.sentence());
    // Four replicas on one card: the defence offers the two-node variant.
    assertThat(pick(a).risks()).contains(Risks.SHARED_FATE);
    assertThat(a.spread()).hasValueSatisfying(o -> {
      assertThat(o.nodes().orElseThrow().nodes()).isGreaterThanOrEqualTo(2);
      assertThat(o.sloMet()).isTrue();
    });
  }

  @Test
  void whenNothingMeetsTheSloTheClosestIsShownAndSaidToMiss() {
    Advice a = Scenarios.advise(List.of(Scenarios.inference(2, 16, 5, 20, Trust.TRUSTED)), "A10G");
    assertThat(a.ranked()).filteredOn(Option::admissible).noneMatch(Option::sloMet);
    assertThat(a.defence().get(1)).contains("MISSING its 20.0 ms SLO");
  }

  @Test
  void sameInputsSameAdvice() {
    Advice a = Scenarios.advise(List.of(Scenarios.notebooks()), "L4");
    Advice b = Scenarios.advise(List.of(Scenarios.notebooks()), "L4");
    assertThat(a.defence()).isEqualTo(b.defence());
    assertThat(a.ranked().stream().map(Option::label).toList()).isEqualTo(b.ranked().stream().map(Option::label).toList());
  }
}
