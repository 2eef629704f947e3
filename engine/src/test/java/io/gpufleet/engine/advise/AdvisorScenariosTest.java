package io.gpufleet.engine.advise;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.advise.Trust;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class AdvisorScenariosTest {

  static void print(Advice a) {
    for (Option o : a.ranked()) {
      System.out.printf(Locale.ROOT, "%-34s gpus=%d nodes=%s cost=%s p99=%s slo=%s util=%s head=%.2f blockers=%s%n",
          o.label(), o.gpus(), o.nodes().map(n -> n.nodes() + "x" + n.instanceType()).orElse("-"),
          Say.money(o.monthlyCost()), Say.ms(o.worstP99Ms()), o.sloMet(), Say.percent(o.utilisation()), o.headroom(),
          o.blockers());
    }
    a.defence().forEach(System.out::println);
    a.rules().forEach(r -> System.out.println(r.stance() + ": " + r.sentence()));
    System.out.println();
  }

  @Test
  void fourInferenceReplicasOnA10g() {
    Advice a = Scenarios.advise(List.of(Scenarios.inference(4, 1, 5, 50, Trust.TRUSTED)), "A10G");
    print(a);
    assertThat(a.recommended()).isPresent();
  }

  @Test
  void twelveNotebooksOnL4() {
    Advice a = Scenarios.advise(List.of(Scenarios.notebooks()), "L4");
    print(a);
    assertThat(a.recommended()).isPresent();
  }

  @Test
  void sevenUntrustedTenantsOnH100() {
    Advice a = Scenarios.advise(List.of(Scenarios.inference(7, 4, 2, 100, Trust.UNTRUSTED)), "H100");
    print(a);
    assertThat(a.recommended()).isPresent();
  }
}
