package io.gpufleet.manifest.deviceplugin;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.manifest.kube.KubeDecoder;
import io.gpufleet.manifest.kube.KubeObject;
import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.manifest.yaml.YamlReader;
import io.gpufleet.model.deviceplugin.AllocationPolicy;
import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.deviceplugin.MigPartedConfig;
import io.gpufleet.model.deviceplugin.MigStrategy;
import io.gpufleet.model.deviceplugin.NamedConfigs;
import io.gpufleet.model.deviceplugin.Sharing;
import io.gpufleet.model.label.Labels;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Reads the real-format files under {@code src/test/resources/deviceplugin}. */
class DevicePluginManifestsTest {

  static String resource(String name) {
    try (InputStream in = DevicePluginManifestsTest.class.getResourceAsStream("/deviceplugin/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static DevicePluginConfig config(String name, Diagnostics d) {
    return DevicePluginManifests.readConfig(name, resource(name), d);
  }

  @ParameterizedTest
  @CsvSource({
      "exclusive.yaml, none, nvidia.com/gpu, 1, false, none",
      "time-slicing.yaml, time-slicing, nvidia.com/gpu, 4, false, none",
      "time-slicing-renamed.yaml, time-slicing, nvidia.com/gpu, 4, true, none",
      "mps.yaml, mps, nvidia.com/gpu, 4, false, none",
      "mig-mixed.yaml, time-slicing, nvidia.com/mig-1g.10gb, 2, false, mixed",
      "mig-single.yaml, none, nvidia.com/gpu, 1, false, single"})
  void readsEachMode(String file, String strategy, String resource, int replicas, boolean renamed, String mig) {
    Diagnostics d = new Diagnostics();
    DevicePluginConfig c = config(file, d);
    assertThat(d.errors()).isEmpty();
    Sharing s = c.sharing();
    assertThat(s.strategy()).isEqualTo(strategy);
    assertThat(s.replicas(resource)).isEqualTo(replicas);
    assertThat(s.renamed()).isEqualTo(renamed);
    assertThat(c.flags().migStrategy().wireName()).isEqualTo(mig);
  }

  @Test
  void readsFlagsAndDefaults() {
    Diagnostics d = new Diagnostics();
    DevicePluginConfig mixed = config("mig-mixed.yaml", d);
    assertThat(mixed.flags().deviceListStrategy()).containsExactly("envvar", "cdi-annotations");
    assertThat(mixed.flags().sharedDevicesAllocationPolicy()).isEqualTo(AllocationPolicy.PACKED);
    assertThat(config("mps.yaml", d).sharing().failRequestsGreaterThanOne()).isTrue();
    assertThat(config("time-slicing.yaml", d).sharing().failRequestsGreaterThanOne()).isFalse();
    assertThat(config("time-slicing-renamed.yaml", d).sharing().failRequestsGreaterThanOne()).isTrue();
    assertThat(config("mps.yaml", d).flags().mpsRoot()).hasValue("/run/nvidia/mps");
    assertThat(d.errors()).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "invalid-replicas.yaml      | invalid-replicas.yaml:6:17: sharing.timeSlicing.resources[0].replicas: number of replicas must be >= 2, found 1",
      "invalid-mps-on-mig.yaml    | invalid-mps-on-mig.yaml:6:5: sharing.mps: using --mig-strategy=mixed is not supported with MPS",
      "invalid-unknown-field.yaml | invalid-unknown-field.yaml:8:7: sharing.timeSlicing.resources[0]: no replicas specified"})
  void rejectsInvalidConfigsAtTheirLine(String file, String message) {
    Diagnostics d = new Diagnostics();
    config(file.trim(), d);
    assertThat(d.errors()).map(ManifestProblem::toString).contains(message.trim());
  }

  /** The plugin unmarshals its config leniently: unknown fields are ignored, so gpufleet only warns. */
  @Test
  void unknownFieldsAreWarnings() {
    Diagnostics d = new Diagnostics();
    config("invalid-unknown-field.yaml", d);
    assertThat(d.warnings()).map(ManifestProblem::toString).contains(
        "invalid-unknown-field.yaml:4:3: warning: flags.migStrategyy: unknown field \"migStrategyy\"",
        "invalid-unknown-field.yaml:9:7: warning: sharing.timeSlicing.resources[0].replica: unknown field \"replica\"");
  }

  private static KubeObject.ConfigMapObject configMap(String file, Diagnostics d) {
    var docs = new YamlReader().readAll(file, resource(file));
    return (KubeObject.ConfigMapObject) new KubeDecoder(d).decodeAll(docs).getFirst();
  }

  @Test
  void readsAConfigMapOfNamedConfigsAndPicksPerNode() {
    Diagnostics d = new Diagnostics();
    KubeObject.ConfigMapObject cm = configMap("configmap-named.yaml", d);
    assertThat(DevicePluginManifests.kind(cm)).isEqualTo(DevicePluginManifests.Kind.DEVICE_PLUGIN);
    NamedConfigs named = DevicePluginManifests.namedConfigs(cm, resource("configmap-named.yaml"), d);
    assertThat(d.errors()).isEmpty();
    assertThat(named.configs().keySet()).containsExactly("exclusive", "mps2", "ts4");
    assertThat(named.select(Labels.of("nvidia.com/device-plugin.config", "ts4")).config().sharing().replicas(
        "nvidia.com/gpu")).isEqualTo(4);
    assertThat(named.select(Labels.EMPTY).name()).isEqualTo("exclusive");
    // cmd/config-manager/main.go updateConfigName: an unknown name fails the config-manager.
    var unknown = named.select(Labels.of("nvidia.com/device-plugin.config", "ts8"));
    assertThat(unknown.failed()).isTrue();
    assertThat(unknown.error()).hasValueSatisfying(w -> assertThat(w).contains("specified config ts8 does not exist"));
  }

  /** config.default, else "default", else the only config, else the config-manager fails (helm fallbacks [named, single]). */
  @Test
  void fallsBackAsHelmDoes() {
    DevicePluginConfig ts = DevicePluginConfig.timeSliced(2, false);
    assertThat(NamedConfigs.of(Map.of("default", ts, "other", DevicePluginConfig.DEFAULT), Optional.empty())
        .select(Labels.EMPTY).name()).isEqualTo("default");
    assertThat(NamedConfigs.of(Map.of("only", ts), Optional.empty()).select(Labels.EMPTY).name()).isEqualTo("only");
    assertThat(NamedConfigs.of(Map.of("a", ts, "b", ts), Optional.empty()).select(Labels.EMPTY).error())
        .hasValue("config-manager: no config was set, no default was provided, and all fallbacks failed (known: a, b)");
    assertThat(NamedConfigs.NONE.select(Labels.EMPTY).config()).isEqualTo(DevicePluginConfig.DEFAULT);
  }

  @Test
  void errorsInsideAConfigMapPointAtTheConfigMapFile() {
    Diagnostics d = new Diagnostics();
    KubeObject.ConfigMapObject cm = configMap("invalid-configmap.yaml", d);
    DevicePluginManifests.namedConfigs(cm, resource("invalid-configmap.yaml"), d);
    assertThat(d.errors()).map(ManifestProblem::toString).containsExactly(
        "invalid-configmap.yaml:11:20: data[bad].flags.migStrategy: unknown MIG strategy: both (expected one of none, single, mixed)",
        "invalid-configmap.yaml:16:21: data[bad].sharing.timeSlicing.resources[0].replicas: number of replicas must be >= 2, found 1");
  }

  @Test
  void readsMigPartedConfigs() {
    Diagnostics d = new Diagnostics();
    MigPartedConfig c = DevicePluginManifests.readMigParted("mig-parted.yaml", resource("mig-parted.yaml"), d);
    assertThat(d.errors()).isEmpty();
    assertThat(c.configs().keySet()).containsExactly("all-1g.10gb", "all-balanced", "all-disabled", "half");
    MigPartedConfig.Entry balanced = c.config("all-balanced").orElseThrow().getFirst();
    assertThat(balanced.deviceFilter()).containsExactly("0x233010DE");
    assertThat(balanced.migDevices()).containsExactlyInAnyOrderEntriesOf(Map.of("1g.10gb", 2, "2g.20gb", 1, "3g.40gb", 1));
    assertThat(c.config("half").orElseThrow().get(1).devices()).hasValue(List.of(2, 3));
    assertThat(c.config("all-disabled").orElseThrow().getFirst().migEnabled()).isFalse();
  }

  @Test
  void rejectsUnknownMigPartedFields() {
    Diagnostics d = new Diagnostics();
    DevicePluginManifests.readMigParted("m.yaml", "version: v1\nmig-configs:\n  x:\n    - devices: all\n"
        + "      mig-enable: true\n", d);
    assertThat(d.errors()).map(ManifestProblem::toString).contains(
        "m.yaml:5:7: mig-configs[x][0].mig-enable: unknown field \"mig-enable\"",
        "m.yaml:4:7: mig-configs[x][0]: missing required field: mig-enabled");
  }

  @Test
  void migStrategyEnumReadsLowerCase() {
    assertThat(MigStrategy.MIXED.wireName()).isEqualTo("mixed");
  }
}
