package io.gpufleet.nvml;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.deviceplugin.GfdLabels;
import io.gpufleet.model.gpu.ComputeCapability;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.label.Labels;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProbeLabelsTest {

  private static NodeFacts h200s(int n) {
    List<FakeNvml.Card> cards = new java.util.ArrayList<>();
    for (int i = 0; i < n; i++) {
      cards.add(FakeNvml.h200(i));
    }
    return NodeProbe.read(new FakeNvml("580.159.04", cards));
  }

  @Test
  void anH200NodeGetsGfdsLabelsForItsCards() {
    ProbeLabels probe = ProbeLabels.of(h200s(2), GpuCatalog.builtIn());
    assertThat(probe.catalogEntry()).hasValue("H200-141GB");
    assertThat(probe.warnings()).isEmpty();
    Labels l = probe.labels();
    assertThat(l.get(GfdLabels.PRODUCT)).hasValue("NVIDIA-H200");
    assertThat(l.get(GfdLabels.COUNT)).hasValue("2");
    assertThat(l.get(GfdLabels.MEMORY)).hasValue("143771");
    assertThat(l.get("nvidia.com/gpu.compute.major")).hasValue("9");
    assertThat(l.get(GfdLabels.FAMILY)).hasValue("hopper");
    assertThat(l.get(GfdLabels.MIG_CAPABLE)).hasValue("true");
    // Exactly GFD's labels: the bare node registered has no other.
    assertThat(l.map().keySet()).allMatch(GfdLabels::ownedByGfd);
  }

  @Test
  void nvmlsMemoryAndComputeCapabilityWinOverTheCatalogue() {
    FakeNvml.Card odd = new FakeNvml.Card("NVIDIA H200", "GPU-x", 140000L << 20, 0, new ComputeCapability(9, 0),
        new Nvml.MigModes(0, 0), List.of(), 0, null);
    ProbeLabels probe = ProbeLabels.of(NodeProbe.read(new FakeNvml("580", List.of(odd))), GpuCatalog.builtIn());
    assertThat(probe.labels().get(GfdLabels.MEMORY)).hasValue("140000");
  }

  @Test
  void aCardTheCatalogueDoesNotKnowIsLabelledFromNvmlWithAWarning() {
    FakeNvml.Card card = new FakeNvml.Card("NVIDIA Future GPU 9000", "GPU-f", 200000L << 20, 0,
        new ComputeCapability(12, 1), null, List.of(), 0, null);
    ProbeLabels probe = ProbeLabels.of(NodeProbe.read(new FakeNvml("600", List.of(card))), GpuCatalog.builtIn());
    assertThat(probe.catalogEntry()).isEmpty();
    assertThat(probe.warnings()).singleElement().asString().contains("not in gpufleet's GPU catalogue");
    assertThat(probe.labels().get(GfdLabels.PRODUCT)).hasValue("NVIDIA-Future-GPU-9000");
    assertThat(probe.labels().get(GfdLabels.FAMILY)).hasValue("blackwell");
    assertThat(probe.labels().get(GfdLabels.MIG_CAPABLE)).hasValue("false");
  }

  @Test
  void mixedModelsAreLabelledByGpuZeroWithAWarning() {
    FakeNvml.Card t4 = new FakeNvml.Card("Tesla T4", "GPU-t4", 15360L << 20, 0, new ComputeCapability(7, 5), null,
        List.of(), 0, null);
    ProbeLabels probe = ProbeLabels.of(NodeProbe.read(new FakeNvml("580", List.of(FakeNvml.h200(0), t4))),
        GpuCatalog.builtIn());
    assertThat(probe.warnings()).singleElement().asString().contains("GPU 1 is Tesla T4");
    assertThat(probe.labels().get(GfdLabels.PRODUCT)).hasValue("NVIDIA-H200");
  }
}
