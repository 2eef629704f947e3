package io.gpufleet.model.karpenter;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.label.Labels;
import org.junit.jupiter.api.Test;

/**
 * EKS Auto Mode's instance labels, in the formats of the EKS user guide's label table, from the
 * catalogue's g6.xlarge row (4 vCPU, 16384 MiB, one NVIDIA L4 of 22888 MiB) and m5.large row.
 */
class AutoModeTest {

  static final NodeClassRef AUTO = new NodeClassRef("eks.amazonaws.com", "NodeClass", "default");

  @Test
  void aGpuTypeOffersEveryAutoModeInstanceLabelAndNoProviderOne() {
    Labels l = AutoMode.instanceLabels(InstanceCatalog.builtIn().require("g6.xlarge"), AUTO);
    assertThat(l.map()).containsEntry("eks.amazonaws.com/instance-gpu-name", "l4")
        .containsEntry("eks.amazonaws.com/instance-gpu-manufacturer", "nvidia")
        .containsEntry("eks.amazonaws.com/instance-gpu-count", "1")
        .containsEntry("eks.amazonaws.com/instance-gpu-memory", "22888")
        .containsEntry("eks.amazonaws.com/instance-family", "g6")
        .containsEntry("eks.amazonaws.com/instance-category", "g")
        .containsEntry("eks.amazonaws.com/instance-generation", "6")
        .containsEntry("eks.amazonaws.com/instance-size", "xlarge")
        .containsEntry("eks.amazonaws.com/instance-cpu", "4")
        .containsEntry("eks.amazonaws.com/instance-memory", "16384")
        .containsEntry("eks.amazonaws.com/compute-type", "auto")
        .containsEntry("node.kubernetes.io/instance-type", "g6.xlarge");
    assertThat(l.map().keySet()).noneMatch(k -> k.startsWith("karpenter.k8s.aws/"));
  }

  @Test
  void aCpuTypeHasNoGpuLabels() {
    Labels l = AutoMode.instanceLabels(InstanceCatalog.builtIn().require("m5.large"), AUTO);
    assertThat(l.map().keySet()).doesNotContainAnyElementsOf(AutoMode.GPU_KEYS);
    assertThat(l.get("eks.amazonaws.com/instance-family")).contains("m5");
  }

  @Test
  void anEc2NodeClassKeepsTheProvidersLabelsAndWellKnownKeys() {
    var t = InstanceCatalog.builtIn().require("g6.xlarge");
    assertThat(AutoMode.instanceLabels(t, NodeClassRef.DEFAULT_EC2)).isEqualTo(t.labels());
    assertThat(AutoMode.wellKnown(NodeClassRef.DEFAULT_EC2, java.util.Set.of("x"))).containsExactly("x");
    assertThat(AutoMode.wellKnown(AUTO, java.util.Set.of("x"))).contains("eks.amazonaws.com/instance-gpu-name",
        "kubernetes.io/os").doesNotContain("karpenter.k8s.aws/instance-gpu-name", "x");
  }

  @Test
  void karpentersNodeClassLabel() {
    assertThat(AUTO.labelKey()).isEqualTo("eks.amazonaws.com/nodeclass");
    assertThat(NodeClassRef.DEFAULT_EC2.labelKey()).isEqualTo("karpenter.k8s.aws/ec2nodeclass");
  }
}
