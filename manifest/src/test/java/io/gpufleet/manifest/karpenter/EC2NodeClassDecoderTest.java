package io.gpufleet.manifest.karpenter;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.model.karpenter.EC2NodeClass;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceName;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What an EC2NodeClass says about its nodes' allocatable, and its mistakes at file:line:column. */
class EC2NodeClassDecoderTest {

  static KarpenterManifests read(String text, Diagnostics d) {
    return KarpenterManifests.read("c.yaml", text, d);
  }

  @Test
  void kubeletSettingsAndTheRootVolumeAreRead() {
    Diagnostics d = new Diagnostics();
    KarpenterManifests m = read("""
        apiVersion: karpenter.k8s.aws/v1
        kind: EC2NodeClass
        metadata: {name: gpu}
        spec:
          amiSelectorTerms: [{alias: al2023@latest}]
          kubelet:
            maxPods: 30
            podsPerCore: 4
            kubeReserved: {cpu: 200m, memory: 1Gi}
            systemReserved: {memory: 500Mi, pid: "100"}
            evictionHard: {memory.available: 5%, nodefs.available: 15%}
            clusterDNS: [10.0.0.10]
          blockDeviceMappings:
          - deviceName: /dev/xvdb
            ebs: {volumeSize: 500Gi}
          - deviceName: /dev/xvda
            rootVolume: true
            ebs: {volumeSize: 100Gi, volumeType: gp3}
        """, d);
    assertThat(d.errors()).isEmpty();
    assertThat(d.warnings()).singleElement().asString().startsWith("c.yaml:12:17: warning: spec.kubelet[clusterDNS]: kubelet "
        + "setting clusterDNS is not modelled by gpufleet");
    EC2NodeClass c = m.ec2NodeClasses().getFirst();
    assertThat(c.name()).isEqualTo("gpu");
    assertThat(c.maxPods()).hasValue(30);
    assertThat(c.podsPerCore()).hasValue(4);
    var r = c.reservations();
    assertThat(r.kubeReserved().getOrZero(ResourceName.CPU)).isEqualTo(Quantity.parse("200m"));
    assertThat(r.kubeReserved().getOrZero(ResourceName.MEMORY)).isEqualTo(Quantity.parse("1Gi"));
    assertThat(r.systemReserved().getOrZero(ResourceName.MEMORY)).isEqualTo(Quantity.parse("500Mi"));
    assertThat(r.memoryAvailable()).contains("5%");
    assertThat(r.nodefsAvailable()).contains("15%");
    // The mapping marked rootVolume wins over the other device.
    assertThat(r.rootVolumeBytes()).isEqualTo(100L << 30);
  }

  @Test
  void withoutAMarkedRootVolumeAl2023sRootDeviceCountsAndOtherwiseTheDefault() {
    Diagnostics d = new Diagnostics();
    KarpenterManifests m = read("""
        apiVersion: karpenter.k8s.aws/v1
        kind: EC2NodeClass
        metadata: {name: a}
        spec:
          blockDeviceMappings: [{deviceName: /dev/xvda, ebs: {volumeSize: 80Gi}}]
        ---
        apiVersion: karpenter.k8s.aws/v1
        kind: EC2NodeClass
        metadata: {name: b}
        spec:
          blockDeviceMappings: [{deviceName: /dev/xvdb, ebs: {volumeSize: 80Gi}}]
        """, d);
    assertThat(d.errors()).isEmpty();
    assertThat(m.ec2NodeClasses().get(0).reservations().rootVolumeBytes()).isEqualTo(80L << 30);
    assertThat(m.ec2NodeClasses().get(1).reservations().rootVolumeBytes()).isEqualTo(20L << 30);
    assertThat(m.ec2NodeClasses().get(1).isDefault()).isTrue();
  }

  @Test
  void mistakesAreReportedWhereTheyAreWritten() {
    Diagnostics d = new Diagnostics();
    read("""
        apiVersion: karpenter.k8s.aws/v1
        kind: EC2NodeClass
        metadata: {name: bad}
        spec:
          kubelet:
            maxPods: -1
            kubeReserved: {gpu: "1"}
            evictionHard: {memory.free: 1Gi, nodefs.available: lots}
          blockDeviceMappings: [{deviceName: /dev/xvda, ebs: {volumeSize: 100GB}}]
        """, d);
    assertThat(d.errors().stream().map(ManifestProblem::toString)).containsExactly(
        "c.yaml:6:14: spec.kubelet.maxPods: should be greater than or equal to 0, found -1",
        "c.yaml:7:25: spec.kubelet.kubeReserved[gpu]: valid keys for kubeReserved are [cpu, ephemeral-storage, memory, "
            + "pid], found \"gpu\"",
        "c.yaml:8:33: spec.kubelet.evictionHard[memory.free]: valid keys for evictionHard are [imagefs.available, "
            + "imagefs.inodesFree, memory.available, nodefs.available, nodefs.inodesFree, pid.available], found "
            + "\"memory.free\"",
        "c.yaml:8:56: spec.kubelet.evictionHard[nodefs.available]: expected a quantity such as 1Gi or 500m, or a "
            + "percentage such as 10%, found \"lots\": " + quantityMessage("lots"),
        "c.yaml:9:67: spec.blockDeviceMappings[0].ebs.volumeSize: expected a volume size in Gi, G, Ti or T such as "
            + "100Gi (at most 59000Gi), found \"100GB\"");
  }

  private static String quantityMessage(String text) {
    try {
      Quantity.parse(text);
      return "";
    } catch (io.gpufleet.model.resource.QuantityFormatException e) {
      return e.getMessage();
    }
  }

  @Test
  void aNodeClassWithoutSettingsChangesNothing() {
    Diagnostics d = new Diagnostics();
    KarpenterManifests m = read("""
        apiVersion: karpenter.k8s.aws/v1
        kind: EC2NodeClass
        metadata: {name: plain}
        spec: {role: KarpenterNodeRole, amiSelectorTerms: [{alias: al2023@latest}]}
        """, d);
    assertThat(d.errors()).isEmpty();
    assertThat(m.ec2NodeClasses()).singleElement().satisfies(c -> assertThat(c.isDefault()).isTrue());
    assertThat(Optional.of(m.nodeClasses().size())).contains(1);
  }
}
