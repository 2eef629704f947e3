package io.gpufleet.manifest.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** YAML read as kubectl reads it: aliases, merge keys, limits, and cost linear in the input. */
class YamlReaderTest {

  private final YamlReader reader = new YamlReader();

  private YNode.YMap only(String text) {
    List<YNode> docs = reader.readAll("t.yaml", text);
    assertThat(docs).hasSize(1);
    return (YNode.YMap) docs.getFirst();
  }

  private static String scalar(YNode.YMap m, String... path) {
    YNode n = m;
    for (String p : path) {
      n = ((YNode.YMap) n).entries().get(p).value();
    }
    return ((YNode.YScalar) n).text();
  }

  @Test
  void anAliasIsTheAnchoredNodeNotItsName() {
    YNode.YMap m = only("""
        product: &prod NVIDIA-H100-80GB-HBM3
        spec:
          nodeSelector: {nvidia.com/gpu.product: *prod}
        """);
    assertThat(scalar(m, "spec", "nodeSelector", "nvidia.com/gpu.product")).isEqualTo("NVIDIA-H100-80GB-HBM3");
  }

  @Test
  void anchorsAfterTagsAndPastTheBasicPlaneResolve() {
    YNode.YMap m = only("""
        note: "\uD83D\uDE80 rocket"
        a: !!str &v '5'
        b: [&w x, *w, *v]
        """);
    YNode.YList b = (YNode.YList) m.entries().get("b").value();
    assertThat(b.items()).extracting(n -> ((YNode.YScalar) n).text()).containsExactly("x", "x", "5");
  }

  @Test
  void mergeKeysFoldInTheMappingAndExplicitKeysWinWhereverWritten() {
    YNode.YMap m = only("""
        base: &ctr {image: vllm, gpu: "1", cpu: "4"}
        extra: &more {cpu: "8", memory: 16Gi}
        c:
          cpu: "2"
          <<: [*ctr, *more]
          name: worker
        """);
    YNode.YMap c = (YNode.YMap) m.entries().get("c").value();
    assertThat(c.entries().keySet()).containsExactly("cpu", "name", "image", "gpu", "memory");
    assertThat(scalar(c, "cpu")).isEqualTo("2");
    assertThat(scalar(c, "gpu")).isEqualTo("1");
    assertThat(scalar(c, "memory")).isEqualTo("16Gi");
  }

  @Test
  void aMergeOfAScalarAndAnUnknownAliasAreErrorsWithTheirPlace() {
    assertThatThrownBy(() -> reader.readAll("t.yaml", "a: &x 1\nb:\n  <<: *x\n"))
        .hasMessage("t.yaml:1:4: <<: a merge key takes a mapping or a list of mappings, found the integer 1");
    assertThatThrownBy(() -> reader.readAll("t.yaml", "a: 1\nb: *nope\n"))
        .hasMessage("t.yaml:2:4: unknown alias *nope (no anchor &nope before it in this document)");
  }

  @Test
  void anAnchorDoesNotReachIntoTheNextDocument() {
    assertThatThrownBy(() -> reader.readAll("t.yaml", "a: &x 1\n---\nb: *x\n"))
        .hasMessageContaining("t.yaml:3:4: unknown alias *x");
  }

  @Test
  void anAliasBombIsRefusedAsGoYamlRefusesIt() {
    StringBuilder y = new StringBuilder("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for (int i = 1; i <= 9; i++) {
      y.append("a").append(i).append(": &a").append(i).append(" [");
      for (int j = 0; j < 10; j++) {
        y.append(j == 0 ? "" : ", ").append("*a").append(i - 1);
      }
      y.append("]\n");
    }
    assertThatThrownBy(() -> reader.readAll("bomb.yaml", y.toString()))
        .hasMessageContaining("document contains excessive aliasing");
  }

  @Test
  void theAllowedAliasRatioFollowsGoYaml() {
    assertThat(YamlReader.allowedAliasRatio(400_000)).isEqualTo(0.99);
    assertThat(YamlReader.allowedAliasRatio(4_000_000)).isEqualTo(0.10);
    assertThat(YamlReader.allowedAliasRatio(2_200_000)).isCloseTo(0.545, org.assertj.core.data.Offset.offset(1e-9));
  }

  /** Counts the scanner's reads: each refill re-copies its window, so refills must not grow with the input. */
  private static final class CountingReader extends java.io.Reader {
    private final java.io.Reader in;
    int reads;

    CountingReader(String text) {
      in = new java.io.StringReader(text);
    }

    @Override
    public int read(char[] buf, int off, int len) throws java.io.IOException {
      reads++;
      return in.read(buf, off, len);
    }

    @Override
    public void close() {}
  }

  @Test
  void aLongScalarIsScannedWithoutRefillsThatGrowWithItsLength() {
    for (int size : new int[] {1 << 20, 8 << 20}) {
      String text = "data:\n  key: " + "a".repeat(size) + "\n";
      CountingReader counting = new CountingReader(text);
      YNode.YMap m = (YNode.YMap) reader.parse("long.yaml", text, counting).getFirst();
      assertThat(scalar(m, "data", "key")).hasSize(size);
      // One read fills the buffer, one more sees the end: the same for 1 MiB as for 8 MiB.
      assertThat(counting.reads).as("reads for %d characters", size).isLessThanOrEqualTo(3);
    }
  }

  @Test
  void nestingDeeperThanTheLimitIsSaidInPlainWords() {
    String deep = "[".repeat(YamlReader.MAX_DEPTH + 5) + "]".repeat(YamlReader.MAX_DEPTH + 5);
    assertThatThrownBy(() -> reader.readAll("deep.yaml", deep))
        .hasMessageContaining("input nested deeper than 1000 levels, the most gpufleet reads")
        .hasMessageNotContaining("StreamReadConstraints");
  }
}
