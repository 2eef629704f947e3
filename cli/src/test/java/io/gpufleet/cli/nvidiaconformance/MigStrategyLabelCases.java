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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * GFD's whole-GPU and MIG labels under each MIG strategy, with and without MIG instances:
 * NVIDIA/k8s-device-plugin {@code internal/lm/mig-strategy_test.go} (TestMigStrategyNoneLabels,
 * TestMigStrategySingleLabels), read at {@code 1b826acc}.
 *
 * <p>Upstream's mock GPU ("MOCKMODEL", 300 MiB, compute 8.0) becomes an A100-40GB, its mock MIG device
 * ({@code NewMigDevice(1, 2, 100)}) a {@code 1g.5gb}; values a real device reports (product, memory,
 * SMs, engines, and a full-GI compute instance's {@code slices.ci}) are the catalogue's, the rest —
 * which labels exist, counts, replicas, sharing strategy, the -SHARED and -MIG-INVALID suffixes — is
 * upstream's. The labels compared are exactly those of GFD's resource labeler and mig.strategy.
 * Upstream's mock reports compute capability 0.0 for a GPU with MIG on, so its expectations lack
 * {@code compute.*} and {@code family} there; NVML reports the parent's capability (NVIDIA's "MIG
 * Support in Kubernetes" page shows {@code gpu.compute.major=8} on a MIG-enabled A100), and the twin
 * publishes them: those cases expect them, as listed in docs/conformance.md.
 */
final class MigStrategyLabelCases {
  private MigStrategyLabelCases() {}

  static final String FILE = "internal/lm/mig-strategy_test.go";
  private static final GpuModel A100 = GpuCatalog.builtIn().byId("A100-40GB").orElseThrow();
  private static final MigProfile SMALL = A100.migProfile("1g.5gb").orElseThrow();
  private static final MigProfile LARGE = A100.migProfile("3g.20gb").orElseThrow();
  private static final String PRODUCT = A100.productLabel();
  private static final String MEMORY = Long.toString(A100.memoryMiB().orElseThrow());

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

  static List<NvidiaCase> cases() {
    List<NvidiaCase> c = new ArrayList<>();
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
        whole("1", "0", "none", PRODUCT, true)));
    c.add(of(t + "sharing is not applied to multiple MIG device; replicas is zero", noneShared,
        List.of(migOn(), migOn()), whole("2", "0", "none", PRODUCT, true)));
    c.add(of(t + "sharing is applied to MIG device and non-MIG device", noneShared, List.of(migOn(), full()),
        whole("2", "2", "time-slicing", PRODUCT + "-SHARED", true)));

    DevicePluginConfig single = config(MigStrategy.SINGLE, false);
    t = "TestMigStrategySingleLabels/";
    c.add(of(t + "no devices returns empty labels", single, List.of(), Map.of()));
    c.add(of(t + "single non-mig device returns non-mig (none) labels", single, List.of(full()),
        withStrategy(whole("1", "1", "none", PRODUCT, true))));
    c.add(of(t + "multiple non-mig device returns non-mig (none) labels", single, List.of(full(), full()),
        withStrategy(whole("2", "1", "none", PRODUCT, true))));
    c.add(of(t + "single mig-enabled device returns mig labels", single, List.of(migOn(SMALL)), migSingle("1")));
    c.add(of(t + "multiple mig-enabled devices returns mig labels", single, List.of(migOn(SMALL), migOn(SMALL)),
        migSingle("2")));
    c.add(of(t + "empty mig devices returns MIG invalid label", single, List.of(migOn()), invalid()));
    c.add(of(t + "mixed mig config returns MIG invalid label", single, List.of(migOn(SMALL, LARGE)), invalid()));
    c.add(of(t + "mixed mig enabled and disabled returns invalid config", single, List.of(migOn(SMALL), full()),
        invalid()));
    c.add(of(t + "enabled, disabled, and empty returns invalid config", single,
        List.of(migOn(SMALL), full(), migOn()), invalid()));
    return c;
  }

  private static NvidiaCase of(String test, DevicePluginConfig config, List<Gpu> gpus, Map<String, String> expected) {
    return NvidiaCase.of(DevicePluginCases.GFD, FILE, test, () -> {
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

  /** The keys GFD's resource labeler and mig.strategy labeler write (internal/lm/resource.go, mig-strategy.go). */
  private static boolean resourceLabel(String key) {
    return key.equals("nvidia.com/mig.strategy") || List.of("count", "replicas", "sharing-strategy", "memory",
        "product", "family", "compute.major", "compute.minor", "multiprocessors", "slices.gi", "slices.ci",
        "engines.copy", "engines.decoder", "engines.encoder", "engines.jpeg", "engines.ofa").stream()
        .anyMatch(s -> key.equals("nvidia.com/gpu." + s));
  }

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

  private static Map<String, String> computeLabels() {
    return Map.of("nvidia.com/gpu.compute.major", "8", "nvidia.com/gpu.compute.minor", "0",
        "nvidia.com/gpu.family", "ampere");
  }

  private static Map<String, String> withStrategy(Map<String, String> labels) {
    TreeMap<String, String> m = new TreeMap<>(labels);
    m.put("nvidia.com/mig.strategy", "single");
    return m;
  }

  private static Map<String, String> migSingle(String count) {
    TreeMap<String, String> m = new TreeMap<>(computeLabels());
    m.putAll(Map.of("nvidia.com/gpu.count", count, "nvidia.com/gpu.replicas", "1", "nvidia.com/gpu.sharing-strategy",
        "none", "nvidia.com/gpu.memory", Long.toString(SMALL.memoryMiB(A100)), "nvidia.com/gpu.product",
        PRODUCT + "-MIG-1g.5gb", "nvidia.com/mig.strategy", "single", "nvidia.com/gpu.multiprocessors", "14",
        "nvidia.com/gpu.slices.gi", "1", "nvidia.com/gpu.slices.ci", "1"));
    m.putAll(Map.of("nvidia.com/gpu.engines.copy", "1", "nvidia.com/gpu.engines.decoder", "0",
        "nvidia.com/gpu.engines.encoder", "0", "nvidia.com/gpu.engines.jpeg", "0", "nvidia.com/gpu.engines.ofa", "0"));
    return m;
  }

  private static Map<String, String> invalid() {
    TreeMap<String, String> m = new TreeMap<>(computeLabels());
    m.putAll(Map.of("nvidia.com/gpu.count", "0", "nvidia.com/gpu.replicas", "0", "nvidia.com/gpu.sharing-strategy", "",
        "nvidia.com/gpu.memory", "0", "nvidia.com/gpu.product", PRODUCT + "-MIG-INVALID", "nvidia.com/mig.strategy",
        "single"));
    return m;
  }
}
