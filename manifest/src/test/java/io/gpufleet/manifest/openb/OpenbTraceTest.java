package io.gpufleet.manifest.openb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpufleet.model.gpu.share.ShareNode;
import io.gpufleet.model.gpu.share.SharePod;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The vendored trace, checked against the counts in the reference notes. */
class OpenbTraceTest {

  static final OpenbTrace TRACE = new OpenbTrace(Path.of("..", "data", "openb"));

  @Test
  void theGpuNodeListHas1213NodesAnd6212Gpus() throws IOException {
    List<ShareNode> nodes = TRACE.gpuNodes();
    assertThat(nodes).hasSize(1213);
    assertThat(nodes.stream().mapToInt(ShareNode::cards).sum()).isEqualTo(6212);
    assertThat(nodes.stream().filter(n -> n.cardModel().equals("G2")).mapToInt(ShareNode::cards).sum()).isEqualTo(4392);
  }

  @Test
  void theDefaultTraceHasTheReferenceMix() throws IOException {
    List<SharePod> pods = TRACE.pods("default");
    assertThat(pods).hasSize(8152);
    assertThat(pods.stream().filter(p -> p.request().gpu().cards() == 0).count()).isEqualTo(1088);
    assertThat(pods.stream().filter(p -> p.request().gpu().cards() == 1 && p.request().gpu().milliPerCard() < 1000)
        .count()).isEqualTo(3078);
    assertThat(pods.stream().mapToLong(p -> p.request().gpu().totalMilli()).sum()).isEqualTo(6_086_800);
  }

  @Test
  void everyVariantReads() throws IOException {
    for (String v : OpenbTrace.VARIANTS) {
      assertThat(TRACE.podList(v)).as(v).isNotEmpty();
    }
    assertThat(TRACE.podList("multigpu50")).hasSize(9061).allSatisfy(p -> assertThat(p.history()).isEmpty());
    assertThat(TRACE.pods("gpuspec33").stream().filter(p -> !p.request().models().isAny()).count()).isEqualTo(2388);
  }

  @Test
  void unknownVariantsAndMissingFilesAreClear() {
    assertThatThrownBy(() -> TRACE.podList("cpu999")).hasMessageStartingWith("unknown openb variant \"cpu999\"");
    assertThatThrownBy(() -> new OpenbTrace(Path.of("no-such-dir")).gpuNodes()).isInstanceOf(NoSuchFileException.class);
  }
}
