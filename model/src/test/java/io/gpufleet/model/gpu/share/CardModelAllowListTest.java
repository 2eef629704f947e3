package io.gpufleet.model.gpu.share;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CardModelAllowListTest {

  @Test
  void anEmptyListAcceptsAnyModelButNotANodeWithoutCards() {
    assertThat(CardModelAllowList.ANY.permits("T4")).isTrue();
    assertThat(CardModelAllowList.ANY.permits("")).isTrue();
  }

  @Test
  void aListAcceptsOnlyItsModelsAndIsHeldSorted() {
    CardModelAllowList list = CardModelAllowList.of(List.of("V100M32", "V100M16", "V100M32"));
    assertThat(list.models()).containsExactly("V100M16", "V100M32");
    assertThat(list.permits("V100M16")).isTrue();
    assertThat(list.permits("T4")).isFalse();
    assertThat(list.permits("")).isFalse();
    assertThat(list).isEqualTo(CardModelAllowList.of(List.of("V100M16", "V100M32")));
    assertThat(list.toString()).isEqualTo("V100M16|V100M32");
  }

  @Test
  void aCpuOnlyRequestCarriesNoModelList() {
    ShareRequest r = new ShareRequest(1000, 512, GpuDemand.NONE, CardModelAllowList.of(List.of("T4")));
    assertThat(r.models()).isEqualTo(CardModelAllowList.ANY);
  }
}
