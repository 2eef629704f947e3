package io.gpufleet.sim.controller;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The names the resource claim controller gives the claims it makes from templates. */
class ResourceClaimControllerTest {

  @Test
  void theBaseIsPodHyphenEntryHyphen() {
    assertThat(ResourceClaimController.generateName("trainer", "gpu")).isEqualTo("trainer-gpu-");
  }

  @Test
  void aLongBaseIsCutInProportionAndLosesItsTrailingHyphen() {
    // "<60 p>-gpu-" is 65 > 57 characters: 60*57/65 = 52 of the pod's, 3*57/65 = 2 of the entry's.
    assertThat(ResourceClaimController.generateName("p".repeat(60), "gpu")).isEqualTo("p".repeat(52) + "-gp");
  }

  @Test
  void aBaseOfFiftySevenIsKept() {
    String pod = "p".repeat(52);
    assertThat(ResourceClaimController.generateName(pod, "gpu")).isEqualTo(pod + "-gpu-").hasSize(57);
  }
}
