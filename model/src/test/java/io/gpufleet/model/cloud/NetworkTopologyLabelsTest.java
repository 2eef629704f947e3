package io.gpufleet.model.cloud;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.label.Labels;
import org.junit.jupiter.api.Test;

class NetworkTopologyLabelsTest {

  @Test
  void onlyTheTypesDescribeInstanceTopologyDescribesGetThem() {
    assertThat(NetworkTopologyLabels.described("p5.48xlarge")).isTrue();
    assertThat(NetworkTopologyLabels.described("p4d.24xlarge")).isTrue();
    assertThat(NetworkTopologyLabels.described("trn1.32xlarge")).isTrue();
    assertThat(NetworkTopologyLabels.described("g5.12xlarge")).isFalse();
    assertThat(NetworkTopologyLabels.described("p6-b200.48xlarge")).as("four network nodes: left out").isFalse();
  }

  @Test
  void instancesOfAZoneFillLayer3NodesFourAtATimeUnderOneLayer1Node() {
    Labels first = NetworkTopologyLabels.of("us-east-1a", 0);
    Labels fourth = NetworkTopologyLabels.of("us-east-1a", 3);
    Labels fifth = NetworkTopologyLabels.of("us-east-1a", 4);
    Labels otherZone = NetworkTopologyLabels.of("us-east-1b", 0);
    assertThat(first.get(NetworkTopologyLabels.LAYER_3)).isEqualTo(fourth.get(NetworkTopologyLabels.LAYER_3));
    assertThat(first.get(NetworkTopologyLabels.LAYER_3)).isNotEqualTo(fifth.get(NetworkTopologyLabels.LAYER_3));
    assertThat(first.get(NetworkTopologyLabels.LAYER_2)).isEqualTo(fifth.get(NetworkTopologyLabels.LAYER_2));
    assertThat(first.get(NetworkTopologyLabels.LAYER_1)).isEqualTo(NetworkTopologyLabels.of("us-east-1a", 40)
        .get(NetworkTopologyLabels.LAYER_1));
    assertThat(first.get(NetworkTopologyLabels.LAYER_1)).isNotEqualTo(otherZone.get(NetworkTopologyLabels.LAYER_1));
    assertThat(first.map().values()).allSatisfy(v -> assertThat(v).matches("nn-[0-9a-f]{17}"));
    assertThat(NetworkTopologyLabels.of("us-east-1a", 0)).as("deterministic").isEqualTo(first);
  }
}
