package io.gpufleet.cli.nvidiaconformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.deviceplugin.Registration;
import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.deviceplugin.MigStrategy;
import io.gpufleet.model.deviceplugin.ReplicatedResource;
import io.gpufleet.model.deviceplugin.SharingSpec;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.model.gpu.MigInstance;
import io.gpufleet.model.gpu.MigLayout;
import io.gpufleet.model.gpu.MigPlacement;
import io.gpufleet.model.gpu.MigProfile;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * GFD's whole-GPU and MIG labels under each MIG strategy, with and without MIG instances:
 * NVIDIA/k8s-device-plugin {@code internal/lm/mig-strategy_test.go} (TestMigStrategyNoneLabels,
 * TestMigStrategySingleLabels), read at {@code 1b826acc}. Each case compares the FULL set of labels
 * GFD's resource labeler and mig.strategy labeler write, as upstream's {@code require.EqualValues} does.
 *
 * <p>Upstream's mock GPU ("MOCKMODEL", 300 MiB) becomes an A100-40GB and its mock MIG device
 * ({@code NewMigDevice(1, 2, 100)}, named {@code 1g.100gb}) a {@code 1g.5gb}: only those identities
 * are mapped (the product and memory labels echo them). Every other expected value is upstream's as
 * written. Where upstream's value comes from what its mock reports and no real device reports (compute
 * capability 0.0 with MIG on; a MIG device with 0 SMs, 0 engines and a 2-slice compute instance in a
 * 1-slice GPU instance), the case keeps upstream's expectation, is marked as a difference with that
 * reason, and counts as not passing.
 */
final class MigStrategyLabelCases {
  private MigStrategyLabelCases() {}

  static final String FILE = "internal/lm/mig-strategy_test.go";
  private static final GpuModel A100 = GpuCatalog.builtIn().byId("A100-40GB").orElseThrow();
  private static final MigProfile SMALL = A100.migProfile("1g.5gb").orElseThrow();
  private static final MigProfile LARGE = A100.migProfile("3g.20gb").orElseThrow();
  /** Upstream's "MOCKMODEL" and its 300 MiB, mapped to the A100-40GB the cases register. */
  static final String PRODUCT = A100.productLabel();
  static final String MEMORY = Long.toString(A100.memoryMiB().orElseThrow());
  /** Upstream's mock MIG device's memory attribute and name, mapped to the 1g.5gb the cases create. */
  static final String MIG_MEMORY = Long.toString(SMALL.memoryMiB(A100));
  static final String MIG_NAME = "1g.5gb";

  /** Upstream's mock GPU reports compute capability 0.0 with MIG on; real NVML reports the parent's. */
  static final String MOCK_COMPUTE = "upstream's expectation is a mock artefact: its mock GPU reports CUDA "
      + "compute capability 0.0 whenever MIG is on (internal/resource/testing/resource-testing.go NewDeviceMock), "
      + "so newArchitectureLabels writes no compute.major/compute.minor/family labels; real GFD asks NVML for the "
      + "parent GPU's capability (internal/resource/nvml-device.go GetCudaComputeCapability), 8.0 on an A100 with "
      + "MIG on (NVIDIA's \"MIG Support in Kubernetes\" page shows nvidia.com/gpu.compute.major=8 on a "
      + "MIG-enabled A100), and the twin publishes the three labels";
  /** Upstream's mock MIG device reports attributes no real MIG device has. */
  static final String MOCK_MIG_ATTRIBUTES = "upstream's expectation is a mock artefact: its mock MIG device "
      + "(resource-testing.go NewMigDevice(1, 2, ...)) reports 0 multiprocessors, 0 of every engine and a 2-slice "
      + "compute instance inside a 1-slice GPU instance, which no real MIG device has; real GFD publishes NVML's "
      + "attributes of the device (internal/resource/nvml-mig-device.go GetAttributes), for an A100-40GB 1g.5gb "
      + "14 SMs, 1 copy engine, 0 decoders/encoders/JPEG/OFA and 1 compute-instance slice (the catalogue's "
      + "observed figures), and the twin publishes those";

  /** GPU states as upstream's mocks build them: MIG off, MIG on and empty, MIG on with instances. */
  private sealed interface Gpu {
    record Full() implements Gpu { }
    record MigOn(List<MigProfile> instances) implements Gpu { }
  }

  private static Gpu full() {
    return new Gpu.Full();
  }

  private static Gpu migOn(MigProfile... instances) {
    return new Gpu.MigOn(List.of(instances));
  }

  static List<UpstreamCase> cases() {
    List<UpstreamCase> c = new ArrayList<>();
    DevicePluginConfig none = config(MigStrategy.NONE, false);
    DevicePluginConfig noneShared = config(MigStrategy.NONE, true);
    String t = "TestMigStrategyNoneLabels/";
    c.add(of(t + "no devices returns empty labels", none, List.of(), Map.of()));
    c.add(of(t + "single non-mig device returns non-mig (none) labels", none, List.of(full()),
        whole("1", "1", "none", PRODUCT, true)));
    c.add(of(t + "sharing is applied to single device", noneShared, List.of(full()),
        whole("1", "2", "time-slicing", PRODUCT + "-SHARED", true)));
    c.add(of(t + "sharing is applied to multiple devices", noneShared, List.of(full(), full()),
        whole("2", "2", "time-slicing", PRODUCT + "-SHARED", true)));
    c.add(of(t + "sharing is not applied to single MIG device; replicas is zero", noneShared, List.of(migOn()),
        whole("1", "0", "none", PRODUCT, false)).differs(MOCK_COMPUTE));
    c.add(of(t + "sharing is not applied to multiple MIG device; replicas is zero", noneShared,
        List.of(migOn(), migOn()), whole("2", "0", "none", PRODUCT, false)).differs(MOCK_COMPUTE));
    c.add(of(t + "sharing is applied to MIG device and non-MIG device", noneShared, List.of(migOn(), full()),
        whole("2", "2", "time-slicing", PRODUCT + "-SHARED", true)));

    DevicePluginConfig single = config(MigStrategy.SINGLE, false);
    t = "TestMigStrategySingleLabels/";
    c.add(of(t + "no devices returns empty labels", single, List.of(), Map.of()));
    c.add(of(t + "single non-mig device returns non-mig (none) labels", single, List.of(full()),
        withStrategy(whole("1", "1", "none", PRODUCT, true))));
    c.add(of(t + "multiple non-mig device returns non-mig (none) labels", single, List.of(full(), full()),
        withStrategy(whole("2", "1", "none", PRODUCT, true))));
    c.add(of(t + "single mig-enabled device returns mig labels", single, List.of(migOn(SMALL)),
        migSingle("1", mockAttributes("0", "0", "0", "0", "0", "0")))
        .differs(MOCK_COMPUTE + "; " + MOCK_MIG_ATTRIBUTES));
    // Upstream's second mock MIG device overrides its attributes with 12 SMs and engines 13..17.
    c.add(of(t + "multiple mig-enabled devices returns mig labels", single, List.of(migOn(SMALL), migOn(SMALL)),
        migSingle("2", mockAttributes("12", "13", "14", "15", "16", "17")))
        .differs(MOCK_COMPUTE + "; " + MOCK_MIG_ATTRIBUTES + " (this case's mock sets 12 SMs and engines 13 to 17)"));
    c.add(of(t + "empty mig devices returns MIG invalid label", single, List.of(migOn()), invalid(false))
        .differs(MOCK_COMPUTE));
    c.add(of(t + "mixed mig config returns MIG invalid label", single, List.of(migOn(SMALL, LARGE)), invalid(false))
        .differs(MOCK_COMPUTE));
    c.add(of(t + "mixed mig enabled and disabled returns invalid config", single, List.of(migOn(SMALL), full()),
        invalid(true)));
    c.add(of(t + "enabled, disabled, and empty returns invalid config", single,
        List.of(migOn(SMALL), full(), migOn()), invalid(true)));
    return c;
  }

  private static UpstreamCase of(String test, DevicePluginConfig config, List<Gpu> gpus, Map<String, String> expected) {
    return UpstreamCase.of(DevicePluginCases.GFD, FILE, test, () -> {
      TreeMap<String, String> got = new TreeMap<>();
      if (!gpus.isEmpty()) {
        Registration r = Twin.register("A100-40GB", gpus.size(), config, layout(gpus));
        Twin.gfd(r).map().forEach((k, v) -> {
          if (resourceLabel(k)) {
            got.put(k, v);
          }
        });
      }
      assertThat(got).isEqualTo(new TreeMap<>(expected));
    });
  }

  /**
   * The keys GFD's resource labelers and mig.strategy labeler write (internal/lm/resource.go,
   * mig-strategy.go): {@code nvidia.com/mig.strategy}, every {@code nvidia.com/gpu.*} key GFD's
   * resource labels take, and every {@code nvidia.com/mig-<profile>.*} key.
   */
  static boolean resourceLabel(String key) {
    return key.equals("nvidia.com/mig.strategy") || key.startsWith("nvidia.com/mig-")
        || RESOURCE_SUFFIXES.stream().anyMatch(s -> key.equals("nvidia.com/gpu." + s));
  }

  static final List<String> RESOURCE_SUFFIXES = List.of("count", "replicas", "sharing-strategy", "memory",
      "product", "family", "compute.major", "compute.minor", "multiprocessors", "slices.gi", "slices.ci",
      "engines.copy", "engines.decoder", "engines.encoder", "engines.jpeg", "engines.ofa");

  /** Each GPU's instances packed from memory slice 0, each at the first start its profile allows. */
  private static MigLayout layout(List<Gpu> gpus) {
    TreeMap<Integer, List<MigInstance>> out = new TreeMap<>();
    for (int i = 0; i < gpus.size(); i++) {
      if (gpus.get(i) instanceof Gpu.MigOn on) {
        List<MigInstance> instances = new ArrayList<>();
        int free = 0;
        for (MigProfile p : on.instances()) {
          int from = free;
          int start = p.starts().stream().filter(s -> s >= from).findFirst().orElseThrow();
          instances.add(new MigInstance(p, new MigPlacement(start, p.memorySlices())));
          free = start + p.memorySlices();
        }
        out.put(i, instances);
      }
    }
    return MigLayout.of(out);
  }

  private static DevicePluginConfig config(MigStrategy strategy, boolean timeSliced) {
    DevicePluginConfig base = timeSliced
        ? new DevicePluginConfig(DevicePluginConfig.DEFAULT.flags(), Optional.of(new SharingSpec(false, false,
            List.of(ReplicatedResource.of("nvidia.com/gpu", 2)))), Optional.empty())
        : DevicePluginConfig.DEFAULT;
    return base.withFlags(base.flags().withMigStrategy(strategy));
  }

  private static Map<String, String> whole(String count, String replicas, String strategy, String product,
      boolean compute) {
    TreeMap<String, String> m = new TreeMap<>(Map.of("nvidia.com/gpu.count", count, "nvidia.com/gpu.replicas", replicas,
        "nvidia.com/gpu.sharing-strategy", strategy, "nvidia.com/gpu.memory", MEMORY, "nvidia.com/gpu.product", product));
    if (compute) {
      m.putAll(computeLabels());
    }
    return m;
  }

  /** Upstream's mock full GPU: compute capability 8.0, family ampere (an A100's too). */
  private static Map<String, String> computeLabels() {
    return Map.of("nvidia.com/gpu.compute.major", "8", "nvidia.com/gpu.compute.minor", "0",
        "nvidia.com/gpu.family", "ampere");
  }

  private static Map<String, String> withStrategy(Map<String, String> labels) {
    TreeMap<String, String> m = new TreeMap<>(labels);
    m.put("nvidia.com/mig.strategy", "single");
    return m;
  }

  /** The attribute labels of upstream's mock MIG device: SMs and engines as given, slices gi 1, ci 2. */
  static Map<String, String> mockAttributes(String sm, String copy, String decoder, String encoder, String jpeg,
      String ofa) {
    return Map.of("multiprocessors", sm, "slices.gi", "1", "slices.ci", "2", "engines.copy", copy,
        "engines.decoder", decoder, "engines.encoder", encoder, "engines.jpeg", jpeg, "engines.ofa", ofa);
  }

  /** Upstream's single-strategy MIG labels (no compute/family: its MIG-enabled mock reports 0.0). */
  private static Map<String, String> migSingle(String count, Map<String, String> attributes) {
    TreeMap<String, String> m = new TreeMap<>(Map.of("nvidia.com/gpu.count", count, "nvidia.com/gpu.replicas", "1",
        "nvidia.com/gpu.sharing-strategy", "none", "nvidia.com/gpu.memory", MIG_MEMORY, "nvidia.com/gpu.product",
        PRODUCT + "-MIG-" + MIG_NAME, "nvidia.com/mig.strategy", "single"));
    attributes.forEach((k, v) -> m.put("nvidia.com/gpu." + k, v));
    return m;
  }

  private static Map<String, String> invalid(boolean compute) {
    TreeMap<String, String> m = new TreeMap<>(Map.of("nvidia.com/gpu.count", "0", "nvidia.com/gpu.replicas", "0",
        "nvidia.com/gpu.sharing-strategy", "", "nvidia.com/gpu.memory", "0", "nvidia.com/gpu.product",
        PRODUCT + "-MIG-INVALID", "nvidia.com/mig.strategy", "single"));
    if (compute) {
      m.putAll(computeLabels());
    }
    return m;
  }
}
