package io.gpufleet.cli.nvidiaconformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.manifest.deviceplugin.DevicePluginManifests;
import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.deviceplugin.MigPartedConfig;
import java.util.List;

/** Reading configs the way the cases need: the decoder's result and its errors. */
final class Configs {
  private Configs() {}

  record Read<T>(T value, List<String> errors, List<String> warnings) {}

  static Read<DevicePluginConfig> plugin(String yaml) {
    Diagnostics d = new Diagnostics();
    DevicePluginConfig c = DevicePluginManifests.readConfig("config.yaml", yaml, d);
    return new Read<>(c, d.errors().stream().map(ManifestProblem::message).toList(),
        d.warnings().stream().map(ManifestProblem::message).toList());
  }

  static Read<MigPartedConfig> migParted(String yaml) {
    Diagnostics d = new Diagnostics();
    MigPartedConfig c = DevicePluginManifests.readMigParted("config.yaml", yaml, d);
    return new Read<>(c, d.errors().stream().map(ManifestProblem::message).toList(),
        d.warnings().stream().map(ManifestProblem::message).toList());
  }

  static void accepted(Read<?> r) {
    assertThat(r.errors()).as("errors").isEmpty();
  }

  static void refused(Read<?> r, String words) {
    assertThat(r.errors()).as("errors").anySatisfy(e -> assertThat(e).contains(words));
  }

  static void refused(Read<?> r) {
    assertThat(r.errors()).as("errors").isNotEmpty();
  }

  /** A time-slicing config with one resource entry written as the given YAML lines (indented 6). */
  static String timeSlicingResource(String... lines) {
    StringBuilder b = new StringBuilder("version: v1\nsharing:\n  timeSlicing:\n    resources:\n");
    for (int i = 0; i < lines.length; i++) {
      b.append(i == 0 ? "    - " : "      ").append(lines[i]).append('\n');
    }
    return b.toString();
  }
}
