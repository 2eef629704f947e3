package io.gpufleet.report.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import tools.jackson.core.io.JsonStringEncoder;

class JsonTextTest {

  /** quoted's plain-ASCII shortcut writes what Jackson's encoder writes, for every kind of character. */
  @Test
  void aQuotedStringIsJacksonsWithOrWithoutTheShortcut() {
    SplittableRandom r = new SplittableRandom(20261206L);
    char[] special = {'"', '\\', '\n', '\t', '\u0000', '\u001f', '\u007f', '\u0080', '\u00e9', '\u2028', '/', '<', '~'};
    for (int t = 0; t < 5_000; t++) {
      StringBuilder s = new StringBuilder();
      int n = r.nextInt(12);
      boolean ascii = r.nextBoolean();
      for (int i = 0; i < n; i++) {
        s.append(ascii || r.nextInt(4) > 0 ? (char) (0x20 + r.nextInt(0x5f)) : special[r.nextInt(special.length)]);
      }
      StringBuilder jackson = new StringBuilder("\"");
      JsonStringEncoder.getInstance().quoteAsString(s.toString(), jackson);
      assertThat(JsonText.quoted(new StringBuilder(), s.toString()).toString()).as("%s", s)
          .isEqualTo(jackson.append('"').toString());
    }
  }

  @Test
  void unorderedMapsAreWrittenWithSortedKeysAndOrderedOnesKeepTheirOrder() {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("z", 1);
    root.put("a", Map.of("idle", 2, "allocated", 1, "m", 3));
    Map<String, Object> hash = new HashMap<>();
    for (String k : List.of("q", "b", "x", "c")) {
      hash.put(k, k);
    }
    root.put("h", List.of(hash, Set.of("s3", "s1", "s2")));
    String json = JsonText.write(root);
    assertThat(json).containsSubsequence("\"z\"", "\"a\"", "\"h\"");
    assertThat(json).containsSubsequence("\"allocated\"", "\"idle\"", "\"m\"");
    assertThat(json).containsSubsequence("\"b\"", "\"c\"", "\"q\"", "\"x\"");
    assertThat(json).containsSubsequence("\"s1\"", "\"s2\"", "\"s3\"");
    assertThat(json).endsWith("}\n");
  }

  @Test
  void theSameTreeBuiltInAnyInsertionOrderGivesTheSameBytesWhenItsMapsHaveNoOrder() {
    Map<String, Object> one = new HashMap<>();
    Map<String, Object> two = new HashMap<>(64);
    List<String> keys = List.of("k1", "k9", "k3", "alpha", "omega", "beta");
    keys.forEach(k -> one.put(k, k.length()));
    keys.reversed().forEach(k -> two.put(k, k.length()));
    assertThat(JsonText.write(one)).isEqualTo(JsonText.write(two));
  }

  @Test
  void aListWrittenElementByElementHasTheBytesOfTheWholeTree() {
    List<Object> pods = new java.util.ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", "pod-" + i);
      m.put("node", i == 1 ? null : "node-" + i);
      m.put("labels", Map.of("b", "2", "a", List.of(1, 2)));
      pods.add(m);
    }
    for (List<Object> list : List.of(pods, List.<Object>of())) {
      Map<String, Object> root = new LinkedHashMap<>();
      root.put("pods", list);
      java.io.StringWriter out = new java.io.StringWriter();
      JsonText.writeList("pods", list, out);
      assertThat(out.toString()).isEqualTo(JsonText.write(root));
      // Members after the list come out as the whole tree would have them.
      java.util.LinkedHashMap<String, Object> after = new java.util.LinkedHashMap<>();
      after.put("claims", List.of(Map.of("name", "c", "results", List.of())));
      after.put("note", null);
      root.putAll(after);
      java.io.StringWriter more = new java.io.StringWriter();
      JsonText.writeList("pods", list, after, more);
      assertThat(more.toString()).isEqualTo(JsonText.write(root));
    }
  }

  @Test
  void aQuotedStringIsWhatALineWritesForTheSameString() {
    // Seeded strings over the characters JSON escapes or passes through: controls, quotes,
    // backslash, slash, DEL, non-ASCII, a surrogate pair and U+2028.
    char[] alphabet = {'a', 'Z', '0', ' ', '"', '\\', '/', '\n', '\r', '\t', '\b', '\f', '\u0000', '\u001f',
        '\u007f', '\u00e9', '\u2028', '\u4e2d', '\ud83d', '\ude00'};
    java.util.Random random = new java.util.Random(18);
    for (int n = 0; n < 2_000; n++) {
      StringBuilder s = new StringBuilder();
      int length = random.nextInt(12);
      for (int i = 0; i < length; i++) {
        s.append(alphabet[random.nextInt(alphabet.length)]);
      }
      Map<String, Object> line = new LinkedHashMap<>();
      line.put("k", s.toString());
      assertThat(JsonText.quoted(new StringBuilder("{\"k\":"), s.toString()).append('}').toString())
          .as("string %d", n).isEqualTo(JsonText.line(line));
    }
  }
}
