package io.gpufleet.cli.nvidiaconformance;

import static io.gpufleet.cli.nvidiaconformance.MigStrategyLabelCases.MEMORY;
import static io.gpufleet.cli.nvidiaconformance.MigStrategyLabelCases.MIG_MEMORY;
import static io.gpufleet.cli.nvidiaconformance.MigStrategyLabelCases.MIG_NAME;
import static io.gpufleet.cli.nvidiaconformance.MigStrategyLabelCases.MOCK_MIG_ATTRIBUTES;
import static io.gpufleet.cli.nvidiaconformance.MigStrategyLabelCases.PRODUCT;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.deviceplugin.MigStrategy;
import io.gpufleet.model.deviceplugin.ReplicatedResource;
import io.gpufleet.model.deviceplugin.SharingSpec;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.MigInstance;
import io.gpufleet.model.gpu.MigLayout;
import io.gpufleet.model.gpu.MigPlacement;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * GFD's resource labelers: NVIDIA/k8s-device-plugin {@code internal/lm/resource_test.go}
 * (TestGPUResourceLabeler, TestMigResourceLabeler) at {@code 1b826acc}. Each case compares the full
 * set of labels the labeler under test writes, as upstream's {@code require.EqualValues} does, with
 * upstream's expected values; the mock's identities are mapped as in {@link MigStrategyLabelCases}
 * (MOCKMODEL and its 300 MiB to an A100-40GB, the mock MIG device to one {@code 1g.5gb}).
 *
 * <p>Upstream calls each labeler on one device with a given count; the twin labels a whole node, so a
 * case registers a node with that many devices and reads the keys that labeler writes:
 * {@code nvidia.com/gpu.*} of GFD's resource labels for TestGPUResourceLabeler, the MIG resource's
 * {@code <resource>.*} for TestMigResourceLabeler (under {@code single} the parent GPU's
 * {@code compute.*} and {@code family}, written by the full-GPU labeler, are left out, as
 * upstream's unit test of NewMIGResourceLabeler never sees them).
 */
final class ResourceLabelerCases {
  private ResourceLabelerCases() {}

  static final String FILE = "internal/lm/resource_test.go";

  private static DevicePluginConfig timeSliced(String resource, boolean rename) {
    return new DevicePluginConfig(DevicePluginConfig.DEFAULT.flags(), Optional.of(new SharingSpec(rename, false,
        List.of(ReplicatedResource.of(resource, 2)))), Optional.empty());
  }

  private static DevicePluginConfig mps(String resource, boolean rename) {
    return new DevicePluginConfig(DevicePluginConfig.DEFAULT.flags(), Optional.empty(), Optional.of(
        new SharingSpec(rename, false, List.of(ReplicatedResource.of(resource, 2)))));
  }

  static List<UpstreamCase> cases() {
    List<UpstreamCase> c = new ArrayList<>();
    String t = "TestGPUResourceLabeler/";
    c.add(gpu(t + "zero count returns empty", 0, DevicePluginConfig.DEFAULT, Map.of()));
    c.add(gpu(t + "no sharing", 1, DevicePluginConfig.DEFAULT, gpuLabels("1", "none", PRODUCT)));
    c.add(gpu(t + "time-slicing ignores non-matching resource", 1, timeSliced("nvidia.com/not-gpu", false),
        gpuLabels("1", "none", PRODUCT)));
    c.add(gpu(t + "time-slicing appends suffix and doubles count", 1, timeSliced("nvidia.com/gpu", false),
        gpuLabels("2", "time-slicing", PRODUCT + "-SHARED")));
    c.add(gpu(t + "time-slicing renamed does not append suffix and doubles count", 1,
        timeSliced("nvidia.com/gpu", true), gpuLabels("2", "time-slicing", PRODUCT)));
    c.add(gpu(t + "mps ignores non-matching resource", 1, mps("nvidia.com/not-gpu", false),
        gpuLabels("1", "none", PRODUCT)));
    c.add(gpu(t + "mps appends suffix and doubles count", 1, mps("nvidia.com/gpu", false),
        gpuLabels("2", "mps", PRODUCT + "-SHARED")));
    c.add(gpu(t + "mps renamed does not append suffix and doubles count", 1, mps("nvidia.com/gpu", true),
        gpuLabels("2", "mps", PRODUCT)));

    t = "TestMigResourceLabeler/";
    DevicePluginConfig single = withStrategy(DevicePluginConfig.DEFAULT, MigStrategy.SINGLE);
    DevicePluginConfig mixed = withStrategy(DevicePluginConfig.DEFAULT, MigStrategy.MIXED);
    String gpu = "nvidia.com/gpu";
    String mig = "nvidia.com/mig-" + MIG_NAME;
    // The twin's counterpart of a count of 0: a GPU with MIG on and no 1g.5gb device.
    c.add(migCase(t + "zero count returns empty", mixed, 0, mig, Map.of()));
    c.add(migCase(t + "no sharing", single, 1, gpu, migLabels(gpu, "1", "none", "")).differs(MOCK_MIG_ATTRIBUTES));
    c.add(migCase(t + "shared appends suffix and doubles count", withStrategy(timeSliced(gpu, false),
        MigStrategy.SINGLE), 1, gpu, migLabels(gpu, "2", "time-slicing", "-SHARED")).differs(MOCK_MIG_ATTRIBUTES));
    c.add(migCase(t + "renamed does not append suffix and doubles count", withStrategy(timeSliced(gpu, true),
        MigStrategy.SINGLE), 1, gpu, migLabels(gpu, "2", "time-slicing", "")).differs(MOCK_MIG_ATTRIBUTES));
    // Upstream's config also time-slices a renamed nvidia.com/gpu, which this node does not advertise; the
    // twin's config has one rename switch for all resources, so only the MIG resource is written.
    c.add(migCase(t + "mig mixed appends shared", withStrategy(timeSliced(mig, false), MigStrategy.MIXED), 1, mig,
        migLabels(mig, "2", "time-slicing", "-SHARED")).differs(MOCK_MIG_ATTRIBUTES));
    c.add(migCase(t + "mig mixed rename does not append", withStrategy(timeSliced(mig, true), MigStrategy.MIXED), 1,
        mig, migLabels(mig, "2", "time-slicing", "")).differs(MOCK_MIG_ATTRIBUTES));
    return c;
  }

  private static DevicePluginConfig withStrategy(DevicePluginConfig config, MigStrategy strategy) {
    return config.withFlags(config.flags().withMigStrategy(strategy));
  }

  /** A node of {@code count} whole A100s; its GFD resource labels (nvidia.com/gpu.*) compared in full. */
  private static UpstreamCase gpu(String test, int count, DevicePluginConfig config, Map<String, String> expected) {
    return UpstreamCase.of(DevicePluginCases.GFD, FILE, test, () -> assertThat(labels(Twin.register("A100-40GB", count,
        config, MigLayout.NONE), k -> k.startsWith("nvidia.com/gpu.") && MigStrategyLabelCases.resourceLabel(k)))
        .isEqualTo(new TreeMap<>(expected)));
  }

  /** One A100 with MIG on and {@code devices} 1g.5gb devices; the keys of {@code resource} compared in full. */
  private static UpstreamCase migCase(String test, DevicePluginConfig config, int devices, String resource,
      Map<String, String> expected) {
    return UpstreamCase.of(DevicePluginCases.GFD, FILE, test, () -> {
      var profile = GpuCatalog.builtIn().byId("A100-40GB").orElseThrow().migProfile(MIG_NAME).orElseThrow();
      List<MigInstance> instances = new ArrayList<>();
      for (int i = 0; i < devices; i++) {
        instances.add(new MigInstance(profile, new MigPlacement(i, 1)));
      }
      var r = Twin.register("A100-40GB", 1, config, MigLayout.of(Map.of(0, instances)));
      // The parent GPU's compute.* and family come from the full-GPU labeler, not NewMIGResourceLabeler.
      assertThat(labels(r, k -> k.startsWith(resource + ".") && MigStrategyLabelCases.resourceLabel(k)
          && !k.startsWith(resource + ".compute.") && !k.equals(resource + ".family")))
          .isEqualTo(new TreeMap<>(expected));
    });
  }

  private static TreeMap<String, String> labels(io.gpufleet.engine.deviceplugin.Registration r,
      Predicate<String> keys) {
    TreeMap<String, String> got = new TreeMap<>();
    Twin.gfd(r).map().forEach((k, v) -> {
      if (keys.test(k)) {
        got.put(k, v);
      }
    });
    return got;
  }

  /** Upstream's TestGPUResourceLabeler expectation: its mock is an ampere 8.0 GPU. */
  private static Map<String, String> gpuLabels(String replicas, String strategy, String product) {
    return Map.of("nvidia.com/gpu.count", "1", "nvidia.com/gpu.replicas", replicas,
        "nvidia.com/gpu.sharing-strategy", strategy, "nvidia.com/gpu.memory", MEMORY, "nvidia.com/gpu.product", product,
        "nvidia.com/gpu.family", "ampere", "nvidia.com/gpu.compute.major", "8", "nvidia.com/gpu.compute.minor", "0");
  }

  /** Upstream's TestMigResourceLabeler expectation: count 1, its mock device's attributes. */
  private static Map<String, String> migLabels(String resource, String replicas, String strategy, String suffix) {
    TreeMap<String, String> m = new TreeMap<>(Map.of(resource + ".count", "1", resource + ".replicas", replicas,
        resource + ".sharing-strategy", strategy, resource + ".memory", MIG_MEMORY, resource + ".product",
        PRODUCT + "-MIG-" + MIG_NAME + suffix));
    MigStrategyLabelCases.mockAttributes("0", "0", "0", "0", "0", "0").forEach((k, v) -> m.put(resource + "." + k, v));
    return m;
  }
}
