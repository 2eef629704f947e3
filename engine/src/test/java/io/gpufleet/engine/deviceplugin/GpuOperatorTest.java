package io.gpufleet.engine.deviceplugin;

import static io.gpufleet.engine.deviceplugin.Fixtures.gpuPod;
import static io.gpufleet.engine.deviceplugin.Fixtures.inventory;
import static io.gpufleet.engine.deviceplugin.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.mig.MigManager;
import io.gpufleet.model.cloud.GpuSpec;
import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.deviceplugin.MigPartedConfig;
import io.gpufleet.model.deviceplugin.MigStrategy;
import io.gpufleet.model.deviceplugin.NamedConfigs;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceName;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The one registration path: config by label, the MIG manager's pass, then plugin and GFD. */
class GpuOperatorTest {

  private static final GpuOperator MIXED_WITH_CUSTOM = new GpuOperator(
      NamedConfigs.of(Map.of("mixed", DevicePluginConfig.mig(MigStrategy.MIXED), "ts4",
          DevicePluginConfig.timeSliced(4, false)), Optional.of("mixed")),
      new MigManager(MigPartedConfig.of(Map.of("two-3g",
          List.of(MigPartedConfig.Entry.all(true, Map.of("3g.40gb", 2)))))),
      GpuCatalog.builtIn());

  private static Node labelled(String name, String... kv) {
    Node n = node(name);
    for (int i = 0; i < kv.length; i += 2) {
      n = n.withLabels(n.labels().with(kv[i], kv[i + 1]));
    }
    return n;
  }

  @Test
  void theMigManagerRunsBeforeThePluginAndReportsItsState() {
    Registration r = MIXED_WITH_CUSTOM.register(labelled("p5", MigPartedConfig.CONFIG_LABEL, "two-3g"),
        inventory("p5", "H100-80GB", 1));
    assertThat(r.advertised().get(ResourceName.of("nvidia.com/mig-3g.40gb"))).hasValue(Quantity.of(2));
    assertThat(r.node().labels().get(MigPartedConfig.STATE_LABEL)).hasValue("success");
    assertThat(r.gfdLabels().get("nvidia.com/mig-3g.40gb.count")).hasValue("2");
    assertThat(r.warnings()).isEmpty();
  }

  @Test
  void aConfigNoManagerKnowsFailsAndLeavesTheGpusWhole() {
    Registration r = MIXED_WITH_CUSTOM.register(labelled("p5", MigPartedConfig.CONFIG_LABEL, "nonsense"),
        inventory("p5", "H100-80GB", 1));
    assertThat(r.node().labels().get(MigPartedConfig.STATE_LABEL)).hasValue("failed");
    assertThat(r.advertised().get(ResourceName.NVIDIA_GPU)).hasValue(Quantity.of(1));
    assertThat(r.warnings()).singleElement().asString().contains("no entry named \"nonsense\"");
  }

  @Test
  void aConfigLabelNamingNoConfigStartsNoPluginAndAdvertisesNothing() {
    Registration r = MIXED_WITH_CUSTOM.register(labelled("g5", NamedConfigs.NODE_LABEL, "ts8"),
        inventory("g5", "A10G", 1));
    assertThat(r.advertised().get(ResourceName.NVIDIA_GPU)).isEmpty();
    assertThat(r.node().allocatable().get(ResourceName.NVIDIA_GPU)).isEmpty();
    assertThat(r.devices()).isEmpty();
    assertThat(r.gfdLabels().map()).isEmpty();
    assertThat(r.warnings()).singleElement().asString()
        .contains("specified config ts8 does not exist").contains("advertises nothing");
  }

  @Test
  void aFailedConfigManagerOnARegisteredNodeLeavesTheGpuResourceAtZero() {
    Registration before = MIXED_WITH_CUSTOM.register(labelled("g5", NamedConfigs.NODE_LABEL, "ts4"),
        inventory("g5", "A10G", 1));
    Node relabelled = before.node().withLabels(before.node().labels().with(NamedConfigs.NODE_LABEL, "ts8"));
    Registration after = MIXED_WITH_CUSTOM.register(relabelled, inventory("g5", "A10G", 1));
    assertThat(after.node().allocatable().get(ResourceName.NVIDIA_GPU)).hasValue(Quantity.of(0));
    // GFD did not run again either: its labels stay as it last wrote them.
    assertThat(after.gfdLabels()).isEqualTo(before.gfdLabels());
  }

  @Test
  void mixedMigPublishesEachProfilesEnginesWhereObserved() {
    GpuOperator mixed = new GpuOperator(NamedConfigs.of(Map.of("mixed", DevicePluginConfig.mig(MigStrategy.MIXED)),
        Optional.empty()), new MigManager(MigPartedConfig.of(Map.of("full", List.of(MigPartedConfig.Entry.all(true,
        Map.of("7g.141gb", 1))), "threes", List.of(MigPartedConfig.Entry.all(true, Map.of("3g.40gb", 2)))))),
        GpuCatalog.builtIn());
    Registration h200 = mixed.register(labelled("h", MigPartedConfig.CONFIG_LABEL, "full"), inventory("h", "H200-141GB", 1));
    // nvidia-smi mig -lgip on a real H200 (data/h200-mig-lgip.txt): 7g.141gb has CE 8, DEC 7, ENC 0, JPEG 7, OFA 1.
    assertThat(h200.gfdLabels().map()).containsAllEntriesOf(engines("nvidia.com/mig-7g.141gb.", 8, 7, 0, 7, 1));
    // A public -lgip on an H100 80GB HBM3 (the catalogue's source): 3g.40gb 39.50 GiB, CE 3, DEC 3, ENC 0, JPEG 3, OFA 0.
    Registration h100 = mixed.register(labelled("s", MigPartedConfig.CONFIG_LABEL, "threes"),
        inventory("s", "H100-80GB", 1));
    assertThat(h100.gfdLabels().map()).containsAllEntriesOf(Map.of("nvidia.com/mig-3g.40gb.count", "2",
        "nvidia.com/mig-3g.40gb.memory", "40448")).containsAllEntriesOf(engines("nvidia.com/mig-3g.40gb.", 3, 3, 0, 3, 0));
    // No H100 PCIe -lgip with engines was observed: no engines labels rather than guessed ones.
    Registration pcie = mixed.register(labelled("p", MigPartedConfig.CONFIG_LABEL, "threes"),
        inventory("p", "H100-PCIe", 1));
    assertThat(pcie.gfdLabels().get("nvidia.com/mig-3g.40gb.count")).hasValue("2");
    assertThat(pcie.gfdLabels().map().keySet()).noneMatch(k -> k.contains(".engines."));
  }

  @Test
  void singleMigOnH100PublishesNvidiasObservedMemoryAndEngines() {
    GpuOperator single = new GpuOperator(NamedConfigs.of(Map.of("single", DevicePluginConfig.mig(MigStrategy.SINGLE)),
        Optional.empty()), new MigManager(MigPartedConfig.of(Map.of("ones", List.of(MigPartedConfig.Entry.all(true,
        Map.of("1g.10gb", 7)))))), GpuCatalog.builtIn());
    Registration h100 = single.register(labelled("s", MigPartedConfig.CONFIG_LABEL, "ones"),
        inventory("s", "H100-80GB", 1));
    // -lgip prints 9.75 GiB for 1g.10gb (9984 MiB), not the slice share of 81559 MiB (10194).
    assertThat(h100.gfdLabels().map()).containsAllEntriesOf(Map.of("nvidia.com/gpu.memory", "9984",
        "nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3-MIG-1g.10gb"))
        .containsAllEntriesOf(engines("nvidia.com/gpu.", 1, 1, 0, 1, 0));
  }

  /** GFD's {@code engines.*} labels under {@code prefix}: copy, decoder, encoder, jpeg, ofa. */
  private static Map<String, String> engines(String prefix, int copy, int decoder, int encoder, int jpeg, int ofa) {
    return Map.of(prefix + "engines.copy", Integer.toString(copy), prefix + "engines.decoder", Integer.toString(decoder),
        prefix + "engines.encoder", Integer.toString(encoder), prefix + "engines.jpeg", Integer.toString(jpeg),
        prefix + "engines.ofa", Integer.toString(ofa));
  }

  @Test
  void theNodesConfigLabelPicksThePluginConfig() {
    Registration r = MIXED_WITH_CUSTOM.register(labelled("g5", NamedConfigs.NODE_LABEL, "ts4"),
        inventory("g5", "A10G", 1));
    assertThat(r.advertised().get(ResourceName.NVIDIA_GPU)).hasValue(Quantity.of(4));
    assertThat(r.node().allocatable().get(ResourceName.NVIDIA_GPU)).hasValue(Quantity.of(4));
  }

  @Test
  void aCloudInstancesCardsResolveThroughTheCatalogue() {
    Registration known = GpuOperator.DEFAULTS.register(node("g5"), Optional.of(new GpuSpec("a10g", "nvidia", 1, 24576)));
    assertThat(known.devices()).isPresent();
    assertThat(known.gfdLabels().get(GfdLabels.PRODUCT)).hasValue("NVIDIA-A10G");

    Registration unknown = GpuOperator.DEFAULTS.register(node("x"), Optional.of(new GpuSpec("z9000", "nvidia", 2, 0)));
    assertThat(unknown.advertised().get(ResourceName.NVIDIA_GPU)).hasValue(Quantity.of(2));
    assertThat(unknown.gfdLabels().map()).isEmpty();
    assertThat(unknown.devices()).isEmpty();

    Node cpu = node("c5");
    Registration none = GpuOperator.DEFAULTS.register(cpu, Optional.empty());
    assertThat(none.node()).isEqualTo(cpu);
    assertThat(none.advertised().isEmpty()).isTrue();
  }

  @Test
  void reRegistrationKeepsWhatRunningPodsHold() {
    Registration first = GpuOperator.DEFAULTS.register(node("g5"), inventory("g5", "A10G", 1));
    NodeDevices held = ((DeviceAllocation.Result.Granted) DevicePlugin.allocate(first.devices().orElseThrow(),
        gpuPod("a", "nvidia.com/gpu", 1))).next();
    Registration again = GpuOperator.withConfig("ts4", DevicePluginConfig.timeSliced(4, false))
        .register(first.node(), inventory("g5", "A10G", 1)).keepingAssignmentsOf(Optional.of(held));
    assertThat(again.devices().orElseThrow().assignments()).isEqualTo(held.assignments());
    assertThat(again.devices().orElseThrow().devices()).hasSize(4);
  }
}
