package io.gpufleet.model.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A MIG instance's part of its card: its compute slices over the card's (7 on the A100/H100 class, 4 on the A30). */
class MigComputeShareTest {

  @ParameterizedTest
  @CsvSource({"H100-80GB, 1g.10gb, 1, 7", "H100-80GB, 3g.40gb, 3, 7", "H100-80GB, 7g.80gb, 7, 7",
      "A100-40GB, 2g.10gb, 2, 7", "A30, 1g.6gb, 1, 4", "A30, 4g.24gb, 4, 4"})
  void computeSlicesOverTheCards(String gpu, String profile, int slices, int of) {
    GpuModel model = GpuCatalog.builtIn().find(gpu).orElseThrow();
    assertThat(model.migProfile(profile).orElseThrow().computeShare(model)).isCloseTo((double) slices / of, within(1e-12));
  }
}
