package io.gpufleet.nvml;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.deviceplugin.GfdLabels;
import io.gpufleet.model.gpu.GpuCatalog;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** NVML through FFM on a real card: runs where a GPU is, skipped with the reason elsewhere. */
@Tag("gpu")
class RealNvmlTest {

  @Test
  void readsTheCardsAndLabelsTheNode() {
    NodeFacts facts;
    try (NvmlLibrary nvml = GpuPresent.nvmlOrSkip()) {
      facts = NodeProbe.read(nvml);
    }
    System.out.println("NVML: " + facts);
    assertThat(facts.driverVersion()).matches("\\d+\\.\\d+(\\.\\d+)?");
    assertThat(facts.gpus()).isNotEmpty();
    for (GpuFacts g : facts.gpus()) {
      assertThat(g.name()).isNotBlank();
      assertThat(g.uuid()).startsWith("GPU-");
      assertThat(g.memoryMiB()).isGreaterThan(1024).isGreaterThanOrEqualTo(g.memoryUsedMiB());
      assertThat(g.compute().major()).isGreaterThanOrEqualTo(3);
      g.mig().ifPresent(m -> assertThat(m.current()).isBetween(0, 1));
    }
    ProbeLabels labels = ProbeLabels.of(facts, GpuCatalog.builtIn());
    System.out.println("labels: " + labels);
    assertThat(labels.labels().get(GfdLabels.PRODUCT)).hasValue(facts.gpus().getFirst().name().replace(' ', '-'));
    assertThat(labels.labels().get(GfdLabels.MEMORY)).hasValue(Long.toString(facts.gpus().getFirst().memoryMiB()));
    assertThat(labels.labels().get(GfdLabels.COUNT)).hasValue(Integer.toString(facts.gpus().size()));
  }

  @Test
  void anErrorCodeComesBackWithTheDriversOwnText() {
    try (NvmlLibrary nvml = GpuPresent.nvmlOrSkip()) {
      int count = nvml.deviceCount();
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> nvml.device(count))
          .isInstanceOf(NvmlException.class)
          .satisfies(e -> assertThat(((NvmlException) e).result()).isEqualTo(NvmlReturn.ERROR_INVALID_ARGUMENT))
          .hasMessageContaining("NVML_ERROR_INVALID_ARGUMENT").hasMessageContaining("Invalid Argument");
    }
  }
}
