package io.gpufleet.model.label;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Labels looked up by hash answer as the sorted map they were, and list in its order. */
class LabelMapTest {

  @Test
  void answersAsASortedMap() {
    SplittableRandom r = new SplittableRandom(20261206L);
    String[] keys = {"app", "karpenter.sh/nodepool", "nvidia.com/gpu.deploy.device-plugin", "a", "b/c", "zone",
        "karpenter.sh/capacity-type", "kubernetes.io/hostname", "Z", ""};
    for (int i = 0; i < 500; i++) {
      TreeMap<String, String> expected = new TreeMap<>();
      for (int n = r.nextInt(keys.length); n > 0; n--) {
        expected.put(keys[r.nextInt(keys.length)], "v" + r.nextInt(3));
      }
      Labels labels = Labels.of(expected);
      Map<String, String> m = labels.map();
      for (String k : keys) {
        assertThat(labels.get(k)).isEqualTo(java.util.Optional.ofNullable(expected.get(k)));
        assertThat(labels.has(k)).isEqualTo(expected.containsKey(k));
      }
      assertThat(new ArrayList<>(m.entrySet())).isEqualTo(new ArrayList<>(expected.entrySet()));
      assertThat(List.copyOf(m.keySet())).isEqualTo(List.copyOf(expected.keySet()));
      assertThat(m).isEqualTo(expected);
      assertThat(expected).isEqualTo(m);
      assertThat(m.hashCode()).isEqualTo(expected.hashCode());
      assertThat(m.toString()).isEqualTo(expected.toString());
      assertThat(labels).isEqualTo(new Labels(expected));
      if (!expected.isEmpty()) {
        assertThat(labels.map().firstKey()).isEqualTo(expected.firstKey());
        assertThat(labels.map().lastKey()).isEqualTo(expected.lastKey());
      }
    }
  }

  @Test
  void isReadOnly() {
    Labels labels = Labels.of("a", "1", "b", "2");
    assertThatThrownBy(() -> labels.map().put("c", "3")).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> labels.map().remove("a")).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> labels.map().entrySet().clear()).isInstanceOf(UnsupportedOperationException.class);
    assertThat(labels.with("c", "3").map()).containsEntry("c", "3").hasSize(3);
    assertThat(labels.map()).hasSize(2);
  }
}
