package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.mig.StockMigConfigs;
import io.gpufleet.manifest.deviceplugin.DevicePluginManifests;
import io.gpufleet.manifest.yaml.Cursor;
import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.YamlReader;
import io.gpufleet.model.deviceplugin.MigPartedConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The engine's stock mig-parted data is the GPU Operator's {@code default-mig-parted-config}, entry for
 * entry: the verbatim upstream ConfigMap, read by the manifest decoder, equals it. Lives here because
 * this is the first module that sees both the decoder and the engine.
 */
class StockMigConfigsUpstreamTest {

  private static final String FILE = "upstream/gpu-operator-default-mig-parted-config.yaml";

  @Test
  void stockDataEqualsTheGpuOperatorConfigMap() throws IOException {
    String text;
    try (InputStream in = getClass().getClassLoader().getResourceAsStream(FILE)) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    Diagnostics d = new Diagnostics();
    Cursor cm = Cursor.root(new YamlReader().readAll(FILE, text).getFirst(), d);
    String configYaml = cm.get("data").orElseThrow().get("config.yaml").orElseThrow().asString();
    MigPartedConfig upstream = DevicePluginManifests.readMigParted(FILE, configYaml, d);
    assertThat(d.errors()).isEmpty();
    assertThat(upstream.configs()).hasSize(81);
    assertThat(StockMigConfigs.stock().configs().keySet()).isEqualTo(upstream.configs().keySet());
    assertThat(StockMigConfigs.stock()).isEqualTo(upstream);
  }
}
