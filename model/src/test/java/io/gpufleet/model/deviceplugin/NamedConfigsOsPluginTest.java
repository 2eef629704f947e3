package io.gpufleet.model.deviceplugin;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.label.Labels;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A node whose OS brings its own device plugin runs it, whatever the cluster's ConfigMap says. */
class NamedConfigsOsPluginTest {

  static final DevicePluginConfig TWO = DevicePluginConfig.timeSliced(2, false);
  static final DevicePluginConfig FOUR = DevicePluginConfig.timeSliced(4, false);
  static final NamedConfigs CLUSTER = NamedConfigs.of(Map.of("default", TWO), Optional.empty())
      .withOsPlugins(List.of(new NamedConfigs.OsPlugin("karpenter.k8s.aws/ec2nodeclass", "br", "bottlerocket:br", FOUR,
          "Bottlerocket")));

  @Test
  void theNodeClassPluginBeatsTheConfigMapOnItsNodesOnly() {
    assertThat(CLUSTER.select(Labels.of("karpenter.k8s.aws/ec2nodeclass", "br")).config()).isEqualTo(FOUR);
    assertThat(CLUSTER.select(Labels.of("karpenter.k8s.aws/ec2nodeclass", "br")).name()).isEqualTo("bottlerocket:br");
    // Even a node label naming a ConfigMap entry does not reach Bottlerocket's plugin.
    assertThat(CLUSTER.select(Labels.of("karpenter.k8s.aws/ec2nodeclass", "br", NamedConfigs.NODE_LABEL, "default"))
        .config()).isEqualTo(FOUR);
    assertThat(CLUSTER.select(Labels.of("karpenter.k8s.aws/ec2nodeclass", "al2023")).config()).isEqualTo(TWO);
  }

  @Test
  void autoModeNodesRunWholeGpusWhateverTheConfigMap() {
    var s = CLUSTER.select(Labels.of("eks.amazonaws.com/compute-type", "auto"));
    assertThat(s.config()).isEqualTo(DevicePluginConfig.DEFAULT);
    assertThat(s.name()).isEqualTo("eks-auto-mode");
    assertThat(NamedConfigs.NONE.select(Labels.of("eks.amazonaws.com/compute-type", "hybrid")).name())
        .isEqualTo("<built-in>");
  }
}
