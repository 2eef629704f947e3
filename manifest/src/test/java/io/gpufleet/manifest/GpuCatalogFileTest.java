package io.gpufleet.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpufleet.manifest.yaml.Location;
import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuModel;
import org.junit.jupiter.api.Test;

class GpuCatalogFileTest {

  private static final String H20 = """
      # Our H20 nodes, as nvidia-smi and GFD report them.
      gpu H20
        product NVIDIA H20
        memory-mib 97871
        compute 9.0
        mig none
        aliases h20
        source nvidia-smi on our nodes
      """;

  @Test
  void extendsTheBuiltInCatalogue() {
    GpuCatalog c = GpuCatalogFile.overBuiltIn("ours.txt", H20);
    assertThat(c.find("NVIDIA-H20")).map(GpuModel::id).hasValue("H20");
    assertThat(c.find("NVIDIA-A10G")).isEqualTo(GpuCatalog.builtIn().find("NVIDIA-A10G"));
    assertThat(GpuCatalogFile.read("ours.txt", H20).models()).extracting(GpuModel::id).containsExactly("H20");
  }

  /** A problem is one ManifestException at the file, line and column, as every input error is. */
  @Test
  void problemsNameFileLineAndColumn() {
    String bad = H20.replace("compute 9.0", "compute 9");
    assertThatThrownBy(() -> GpuCatalogFile.read("ours.txt", bad))
        .isInstanceOfSatisfying(ManifestException.class, e -> {
          assertThat(e.problems()).singleElement().satisfies(p -> {
            assertThat(p.location()).isEqualTo(new Location("ours.txt", 5, 11));
            assertThat(p.message()).isEqualTo("compute: expected a compute capability such as 8.6, found \"9\"");
          });
        });
    assertThatThrownBy(() -> GpuCatalogFile.read("ours.txt", H20.replace("  aliases", "  alias")))
        .isInstanceOfSatisfying(ManifestException.class, e -> assertThat(e.problems().getFirst().toString())
            .startsWith("ours.txt:7:3: unknown key \"alias\""));
  }
}
