package io.gpufleet.manifest.karpenter;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.deviceplugin.ReplicatedResource;
import io.gpufleet.model.deviceplugin.SharingSpec;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Bottlerocket's NVIDIA device-plugin settings in an EC2NodeClass's userData, read into the config
 * the node's built-in plugin runs with: Bottlerocket's and the EKS user guide's documented examples,
 * and the mistakes at their lines.
 */
class BottlerocketSettingsTest {

  static String nodeClass(String amiLines, String userData) {
    return """
        apiVersion: karpenter.k8s.aws/v1
        kind: EC2NodeClass
        metadata: {name: gpu}
        spec:
        %s
          userData: |
        %s
        """.formatted(amiLines.indent(2).stripTrailing(), userData.indent(4).stripTrailing());
  }

  static Optional<DevicePluginConfig> read(String text, Diagnostics d) {
    return KarpenterManifests.read("c.yaml", text, d).ec2NodeClasses().getFirst().devicePlugin();
  }

  static final String AMI = "amiFamily: Bottlerocket\namiSelectorTerms: [{alias: bottlerocket@latest}]";

  /** The EKS user guide's EC2NodeClass (time-slicing with NVIDIA GPUs): four slots per GPU. */
  @Test
  void theEksGuidesTimeSlicingExample() {
    Diagnostics d = new Diagnostics();
    Optional<DevicePluginConfig> c = read(nodeClass(AMI, """
        [settings.kubelet-device-plugins.nvidia]
        device-sharing-strategy = "time-slicing"

        [settings.kubelet-device-plugins.nvidia.time-slicing]
        replicas = 4
        rename-by-default = false
        fail-requests-greater-than-one = true
        """), d);
    assertThat(d.errors()).isEmpty();
    assertThat(d.warnings()).isEmpty();
    assertThat(c).hasValueSatisfying(config -> {
      assertThat(config.timeSlicing()).contains(new SharingSpec(false, true,
          List.of(ReplicatedResource.of("nvidia.com/gpu", 4))));
      assertThat(config.mps()).isEmpty();
      // Bottlerocket's documented flag defaults.
      assertThat(config.flags().deviceIdStrategy()).isEqualTo("index");
      assertThat(config.flags().deviceListStrategy()).containsExactly("volume-mounts");
      assertThat(config.flags().passDeviceSpecs()).isTrue();
    });
  }

  /** Bottlerocket's settings reference example: the flags and a renamed resource, with dotted keys under [settings]. */
  @Test
  void flagsAndRenameWithDottedKeys() {
    Diagnostics d = new Diagnostics();
    Optional<DevicePluginConfig> c = read(nodeClass(AMI, """
        [settings]
        kubelet-device-plugins.nvidia.device-sharing-strategy = "time-slicing"
        kubelet-device-plugins.nvidia.device-id-strategy = "uuid"
        kubelet-device-plugins.nvidia.device-list-strategy = ["envvar", "cdi-cri"]
        kubelet-device-plugins.nvidia.pass-device-specs = false
        kubelet-device-plugins.nvidia.time-slicing.replicas = 10
        kubelet-device-plugins.nvidia.time-slicing.rename-by-default = true
        """), d);
    assertThat(d.errors()).isEmpty();
    DevicePluginConfig config = c.orElseThrow();
    assertThat(config.timeSlicing().orElseThrow().renameByDefault()).isTrue();
    assertThat(config.timeSlicing().orElseThrow().failRequestsGreaterThanOne()).isFalse();
    assertThat(config.timeSlicing().orElseThrow().resources()).containsExactly(
        ReplicatedResource.of("nvidia.com/gpu", 10));
    assertThat(config.flags().deviceIdStrategy()).isEqualTo("uuid");
    assertThat(config.flags().deviceListStrategy()).containsExactly("envvar", "cdi-cri");
    assertThat(config.flags().passDeviceSpecs()).isFalse();
  }

  @Test
  void mpsSharing() {
    Diagnostics d = new Diagnostics();
    DevicePluginConfig c = read(nodeClass(AMI, """
        [settings.kubelet-device-plugins.nvidia]
        device-sharing-strategy = "mps"
        [settings.kubelet-device-plugins.nvidia.mps]
        replicas = 3
        """), d).orElseThrow();
    assertThat(d.errors()).isEmpty();
    assertThat(c.timeSlicing()).isEmpty();
    assertThat(c.mps().orElseThrow().resources()).containsExactly(ReplicatedResource.of("nvidia.com/gpu", 3));
  }

  @Test
  void withoutPluginSettingsOrWithThePluginOffTheClustersConfigApplies() {
    Diagnostics d = new Diagnostics();
    assertThat(read("""
        apiVersion: karpenter.k8s.aws/v1
        kind: EC2NodeClass
        metadata: {name: gpu}
        spec:
          amiSelectorTerms: [{alias: bottlerocket@v1.30.0}]
        """, d)).isEmpty();
    assertThat(read(nodeClass(AMI, """
        [settings.kubelet-device-plugins.nvidia]
        enabled = false
        device-sharing-strategy = "time-slicing"
        """), d)).isEmpty();
    assertThat(d.errors()).isEmpty();
  }

  @Test
  void aStrategyOfNoneRunsWholeGpusWithBottlerocketsFlags() {
    Diagnostics d = new Diagnostics();
    DevicePluginConfig c = read(nodeClass(AMI, """
        [settings.kubelet-device-plugins.nvidia]
        device-sharing-strategy = "none"
        """), d).orElseThrow();
    assertThat(c.timeSlicing()).isEmpty();
    assertThat(c.mps()).isEmpty();
    assertThat(c.flags().deviceIdStrategy()).isEqualTo("index");
    assertThat(c).isEqualTo(BottlerocketSettings.DEFAULT);
  }

  @Test
  void anAl2023NodeClassHasNoPluginOfItsOwn() {
    Diagnostics d = new Diagnostics();
    assertThat(read(nodeClass("amiSelectorTerms: [{alias: al2023@latest}]", """
        [settings.kubelet-device-plugins.nvidia]
        device-sharing-strategy = "time-slicing"
        """), d)).isEmpty();
    assertThat(d.errors()).isEmpty();
  }

  @Test
  void unknownKeysAndBadValuesAreErrorsAtTheirLines() {
    Diagnostics d = new Diagnostics();
    read(nodeClass(AMI, """
        [settings.kubelet-device-plugins.nvidia]
        device-sharing-strategy = "timeslicing"
        device-id-strategy = "name"

        [settings.kubelet-device-plugins.nvidia.time-slicing]
        replica = 4
        """), d);
    // The userData block's content starts at line 8 of c.yaml, at column 5.
    assertThat(d.errors()).extracting(Object::toString).containsExactly(
        "c.yaml:9:5: spec.userData: settings.kubelet-device-plugins.nvidia.device-sharing-strategy: expected one of "
            + "mps, none, time-slicing, found \"timeslicing\"",
        "c.yaml:10:5: spec.userData: settings.kubelet-device-plugins.nvidia.device-id-strategy: expected one of index, "
            + "uuid, found \"name\"",
        "c.yaml:13:5: spec.userData: settings.kubelet-device-plugins.nvidia.time-slicing.replica is not a Bottlerocket "
            + "setting; known: fail-requests-greater-than-one, rename-by-default, replicas");
  }

  @Test
  void fewerThanTwoReplicasOrNoneAreRefused() {
    Diagnostics d = new Diagnostics();
    read(nodeClass(AMI, """
        [settings.kubelet-device-plugins.nvidia]
        device-sharing-strategy = "time-slicing"
        [settings.kubelet-device-plugins.nvidia.time-slicing]
        replicas = 1
        """), d);
    assertThat(d.errors()).singleElement().asString().isEqualTo("c.yaml:11:5: spec.userData: number of replicas must "
        + "be >= 2, found 1 (the NVIDIA device plugin, which Bottlerocket configures from these settings, refuses it)");
    Diagnostics d2 = new Diagnostics();
    read(nodeClass(AMI, """
        [settings.kubelet-device-plugins.nvidia]
        device-sharing-strategy = "time-slicing"
        """), d2);
    assertThat(d2.errors()).singleElement().asString().contains("time-slicing.replicas is not set");
  }

  @Test
  void badTomlIsAnErrorAtItsLine() {
    Diagnostics d = new Diagnostics();
    Optional<DevicePluginConfig> c = read(nodeClass(AMI, """
        [settings.kubelet-device-plugins.nvidia]
        device-sharing-strategy = time-slicing
        """), d);
    assertThat(d.errors()).singleElement().asString().startsWith("c.yaml:9:").contains("userData is not valid TOML");
    assertThat(c).hasValue(BottlerocketSettings.DEFAULT);
  }

  @Test
  void settingsTheTwinDoesNotModelAreWarnings() {
    Diagnostics d = new Diagnostics();
    read(nodeClass(AMI, """
        [settings.kubernetes]
        max-pods = 110
        [settings.kubelet-device-plugins.nvidia]
        device-partitioning-strategy = "mig"
        [settings.kubelet-device-plugins.nvidia.mig.profile]
        "a100.40gb" = "1g.5gb"
        """), d);
    assertThat(d.errors()).isEmpty();
    assertThat(d.warnings()).extracting(Object::toString).anySatisfy(w -> assertThat(w)
        .contains("Bottlerocket settings settings.kubernetes are not modelled by gpufleet"))
        .anySatisfy(w -> assertThat(w).contains("MIG partitioning").contains("not modelled"));
  }
}
