package io.gpufleet.nvml;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.gpu.GpuCatalog;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class ProbeDocumentTest {

  @Test
  void theLabelsPatchHoldsExactlyTheLabels() {
    ProbeLabels labels = ProbeLabels.of(NodeProbe.read(new FakeNvml("580", List.of(FakeNvml.h200(0)))),
        GpuCatalog.builtIn());
    ObjectNode patch = ProbeDocument.labelsPatch(labels);
    assertThat(patch.propertyNames()).containsExactly("metadata");
    var l = patch.get("metadata").get("labels");
    assertThat(l.size()).isEqualTo(labels.labels().map().size());
    labels.labels().map().forEach((k, v) -> assertThat(l.get(k).asString()).isEqualTo(v));
  }

  @Test
  void theFullDocumentCarriesWhatNvmlReported() {
    NodeFacts facts = NodeProbe.read(new FakeNvml("580.1", List.of(FakeNvml.h200(0))));
    ObjectNode doc = ProbeDocument.full(facts, ProbeLabels.of(facts, GpuCatalog.builtIn()));
    assertThat(doc.get("driverVersion").asString()).isEqualTo("580.1");
    var gpu = doc.get("gpus").get(0);
    assertThat(gpu.get("memoryMiB").asLong()).isEqualTo(facts.gpus().getFirst().memoryMiB());
    assertThat(gpu.get("mig").get("current").asString()).isEqualTo("Disabled");
    assertThat(gpu.get("computeMode").asString()).isEqualTo("Default");
    assertThat(doc.get("catalogEntry").asString()).isEqualTo("H200-141GB");
  }
}
