package io.gpufleet.cli.nvidiaconformance;

import static io.gpufleet.cli.nvidiaconformance.Configs.plugin;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.deviceplugin.Advertisement;
import io.gpufleet.engine.deviceplugin.DeviceAllocation;
import io.gpufleet.engine.deviceplugin.Registration;
import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.deviceplugin.MigStrategy;
import io.gpufleet.model.deviceplugin.NamedConfigs;
import io.gpufleet.model.deviceplugin.ReplicatedResource;
import io.gpufleet.model.deviceplugin.SharingSpec;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.MigInstance;
import io.gpufleet.model.gpu.MigLayout;
import io.gpufleet.model.gpu.MigPlacement;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.resource.ResourceName;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The running plugin, GFD and config-manager: NVIDIA/k8s-device-plugin {@code internal/rm/rm_test.go}
 * (TestValidateRequest), {@code internal/plugin/server.go} (Allocate's error), {@code internal/lm/resource_test.go}
 * (TestGPUResourceLabeler), {@code cmd/mps-control-daemon/mps/device.go} (assertReplicas, maxClients;
 * no upstream test), {@code internal/plugin/mps.go} (getMPSOptions) and {@code cmd/config-manager/main.go}
 * (updateConfigName). Each case names the upstream test and its {@code description}, or the function.
 */
final class DevicePluginCases {
  private DevicePluginCases() {}

  static final String ALLOC = "allocation";
  static final String GFD = "GFD labels";
  static final String MPS = "MPS limits";
  static final String SELECT = "config selection";
  static final String RM = "internal/rm/rm_test.go";
  static final String LM = "internal/lm/resource_test.go";

  private static DevicePluginConfig timeSliced(String resource, boolean failGreater, boolean rename) {
    return new DevicePluginConfig(DevicePluginConfig.DEFAULT.flags(), Optional.of(new SharingSpec(rename, failGreater,
        List.of(ReplicatedResource.of(resource, 2)))), Optional.empty());
  }

  private static DevicePluginConfig mps(String resource, boolean failGreater, boolean rename, int replicas) {
    return new DevicePluginConfig(DevicePluginConfig.DEFAULT.flags(), Optional.empty(), Optional.of(
        new SharingSpec(rename, failGreater, List.of(ReplicatedResource.of(resource, replicas)))));
  }

  private static void granted(DeviceAllocation.Result r) {
    assertThat(r).isInstanceOf(DeviceAllocation.Result.Granted.class);
  }

  private static void refusedAsUpstream(DeviceAllocation.Result r) {
    assertThat(r).isInstanceOf(DeviceAllocation.Result.Refused.class);
    // internal/plugin/server.go wraps rm.go's errInvalidRequest (v0.15 and later).
    assertThat(((DeviceAllocation.Result.Refused) r).message()).contains("invalid allocation request for "
        + "\"nvidia.com/gpu\": invalid request: maximum request size for shared resources is 1; found 2");
  }

  private static void labels(Registration r, Map<String, String> expected) {
    assertThat(Twin.gfd(r).map()).containsAllEntriesOf(expected);
  }

  private static Map<String, String> gpuLabels(String replicas, String strategy, String product) {
    return Map.of("nvidia.com/gpu.count", "1", "nvidia.com/gpu.replicas", replicas,
        "nvidia.com/gpu.sharing-strategy", strategy, "nvidia.com/gpu.product", product,
        "nvidia.com/gpu.family", "ampere", "nvidia.com/gpu.compute.major", "8", "nvidia.com/gpu.compute.minor", "0");
  }

  static List<NvidiaCase> cases() {
    List<NvidiaCase> c = new ArrayList<>();
    // TestValidateRequest (the "invalid device IDs" case needs IDs the kubelet never sends: not translated).
    c.add(NvidiaCase.of(ALLOC, RM, "TestValidateRequest/valid device IDs -- no sharing",
        () -> granted(Twin.allocate(Twin.register("A100-40GB", 2, DevicePluginConfig.DEFAULT, MigLayout.NONE),
            "nvidia.com/gpu", 1))));
    c.add(NvidiaCase.of(ALLOC, RM, "TestValidateRequest/timeslicing with single device",
        () -> granted(Twin.allocate(Twin.register("A100-40GB", 2, timeSliced("nvidia.com/gpu", false, false),
            MigLayout.NONE), "nvidia.com/gpu", 1))));
    c.add(NvidiaCase.of(ALLOC, RM, "TestValidateRequest/timeslicing with two devices",
        () -> granted(Twin.allocate(Twin.register("A100-40GB", 2, timeSliced("nvidia.com/gpu", false, false),
            MigLayout.NONE), "nvidia.com/gpu", 2))));
    c.add(NvidiaCase.of(ALLOC, RM, "TestValidateRequest/timeslicing with two devices -- failRequestsGreaterThanOne",
        () -> refusedAsUpstream(Twin.allocate(Twin.register("A100-40GB", 2, timeSliced("nvidia.com/gpu", true, false),
            MigLayout.NONE), "nvidia.com/gpu", 2))));
    c.add(NvidiaCase.of(ALLOC, RM, "TestValidateRequest/MPS with single device",
        () -> granted(Twin.allocate(Twin.register("A100-40GB", 2, mps("nvidia.com/gpu", false, false, 2),
            MigLayout.NONE), "nvidia.com/gpu", 1))));
    c.add(NvidiaCase.of(ALLOC, RM, "TestValidateRequest/MPS with two devices",
        () -> granted(Twin.allocate(Twin.register("A100-40GB", 2, mps("nvidia.com/gpu", false, false, 2),
            MigLayout.NONE), "nvidia.com/gpu", 2))));
    c.add(NvidiaCase.of(ALLOC, RM, "TestValidateRequest/MPS with two devices -- failRequestsGreaterThanOne",
        () -> refusedAsUpstream(Twin.allocate(Twin.register("A100-40GB", 2, mps("nvidia.com/gpu", true, false, 2),
            MigLayout.NONE), "nvidia.com/gpu", 2))));
    // TestGPUResourceLabeler on an A100 (the mock device is an ampere 8.0 with model MOCKMODEL).
    String a100 = "NVIDIA-A100-SXM4-40GB";
    c.add(NvidiaCase.of(GFD, LM, "TestGPUResourceLabeler/no sharing",
        () -> labels(Twin.register("A100-40GB", 1, DevicePluginConfig.DEFAULT, MigLayout.NONE),
            gpuLabels("1", "none", a100))));
    c.add(NvidiaCase.of(GFD, LM, "TestGPUResourceLabeler/time-slicing ignores non-matching resource",
        () -> labels(Twin.register("A100-40GB", 1, timeSliced("nvidia.com/not-gpu", false, false), MigLayout.NONE),
            gpuLabels("1", "none", a100))));
    c.add(NvidiaCase.of(GFD, LM, "TestGPUResourceLabeler/time-slicing appends suffix and doubles count",
        () -> labels(Twin.register("A100-40GB", 1, timeSliced("nvidia.com/gpu", false, false), MigLayout.NONE),
            gpuLabels("2", "time-slicing", a100 + "-SHARED"))));
    c.add(NvidiaCase.of(GFD, LM, "TestGPUResourceLabeler/time-slicing renamed does not append suffix and doubles count",
        () -> labels(Twin.register("A100-40GB", 1, timeSliced("nvidia.com/gpu", false, true), MigLayout.NONE),
            gpuLabels("2", "time-slicing", a100))));
    c.add(NvidiaCase.of(GFD, LM, "TestGPUResourceLabeler/mps ignores non-matching resource",
        () -> labels(Twin.register("A100-40GB", 1, mps("nvidia.com/not-gpu", true, false, 2), MigLayout.NONE),
            gpuLabels("1", "none", a100))));
    c.add(NvidiaCase.of(GFD, LM, "TestGPUResourceLabeler/mps appends suffix and doubles count",
        () -> labels(Twin.register("A100-40GB", 1, mps("nvidia.com/gpu", true, false, 2), MigLayout.NONE),
            gpuLabels("2", "mps", a100 + "-SHARED"))));
    c.add(NvidiaCase.of(GFD, LM, "TestGPUResourceLabeler/mps renamed does not append suffix and doubles count",
        () -> labels(Twin.register("A100-40GB", 1, mps("nvidia.com/gpu", true, true, 2), MigLayout.NONE),
            gpuLabels("2", "mps", a100))));
    // TestMigResourceLabeler, mixed: a time-sliced MIG resource is -SHARED unless renamed.
    MigLayout sevenSmall = MigLayout.of(Map.of(0, sevenOneG()));
    DevicePluginConfig mixedShared = timeSliced("nvidia.com/mig-1g.5gb", false, false)
        .withFlags(DevicePluginConfig.DEFAULT.flags().withMigStrategy(MigStrategy.MIXED));
    c.add(NvidiaCase.of(GFD, LM, "TestMigResourceLabeler/mig mixed appends shared",
        () -> labels(Twin.register("A100-40GB", 1, mixedShared, sevenSmall), Map.of(
            "nvidia.com/mig-1g.5gb.product", "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb-SHARED",
            "nvidia.com/mig-1g.5gb.replicas", "2", "nvidia.com/mig-1g.5gb.count", "7"))));
    DevicePluginConfig mixedRenamed = timeSliced("nvidia.com/mig-1g.5gb", false, true)
        .withFlags(DevicePluginConfig.DEFAULT.flags().withMigStrategy(MigStrategy.MIXED));
    c.add(NvidiaCase.of(GFD, LM, "TestMigResourceLabeler/mig mixed rename does not append",
        () -> labels(Twin.register("A100-40GB", 1, mixedRenamed, sevenSmall), Map.of(
            "nvidia.com/mig-1g.5gb.product", "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb",
            "nvidia.com/mig-1g.5gb.replicas", "2"))));
    // TestMigResourceLabeler, single: GFD also publishes the MIG device's engines (NVML GetAttributes).
    DevicePluginConfig single = DevicePluginConfig.DEFAULT.withFlags(
        DevicePluginConfig.DEFAULT.flags().withMigStrategy(MigStrategy.SINGLE));
    // Upstream's mock device reports 0 for every engine; the twin publishes the catalogue's observed
    // counts for an A100-40GB 1g.5gb (NVIDIA's "MIG Support in Kubernetes" page: copy 1, the rest 0).
    Map<String, String> engines1g5gb = Map.of("nvidia.com/gpu.engines.copy", "1", "nvidia.com/gpu.engines.decoder", "0",
        "nvidia.com/gpu.engines.encoder", "0", "nvidia.com/gpu.engines.jpeg", "0", "nvidia.com/gpu.engines.ofa", "0");
    c.add(NvidiaCase.of(GFD, LM, "TestMigResourceLabeler/no sharing", () -> {
      Registration r = Twin.register("A100-40GB", 1, single, sevenSmall);
      labels(r, Map.of("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb", "nvidia.com/gpu.count", "7",
          "nvidia.com/gpu.replicas", "1", "nvidia.com/gpu.slices.gi", "1", "nvidia.com/gpu.slices.ci", "1"));
      labels(r, engines1g5gb);
    }));
    c.add(NvidiaCase.of(GFD, LM, "TestMigResourceLabeler/shared appends suffix and doubles count", () -> {
      DevicePluginConfig sharedSingle = timeSliced("nvidia.com/gpu", false, false).withFlags(single.flags());
      Registration r = Twin.register("A100-40GB", 1, sharedSingle, sevenSmall);
      labels(r, Map.of("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb-SHARED",
          "nvidia.com/gpu.replicas", "2", "nvidia.com/gpu.sharing-strategy", "time-slicing"));
      labels(r, engines1g5gb);
    }));
    // MPS client limit and MIG devices: the plugin does not start, so nothing is advertised.
    String device = "cmd/mps-control-daemon/mps/device.go";
    c.add(NvidiaCase.of(MPS, device, "assertReplicas: 48 replicas on a compute 8.0 GPU", () -> {
      Registration r = Twin.register("A100-40GB", 1, mps("nvidia.com/gpu", true, false, 48), MigLayout.NONE);
      assertThat(r.advertisement().counts()).containsEntry(ResourceName.NVIDIA_GPU, 48L);
    }));
    c.add(NvidiaCase.of(MPS, device, "assertReplicas: maximum allowed replicas exceeded: 49 > 48", () -> {
      Advertisement ad = Twin.register("H100-80GB", 1, mps("nvidia.com/gpu", true, false, 49), MigLayout.NONE)
          .advertisement();
      assertThat(ad.counts()).isEmpty();
      assertThat(ad.pluginError()).hasValue(
          "invalid MPS configuration: invalid device maximum allowed replicas exceeded: 49 > 48");
    }));
    c.add(NvidiaCase.of(MPS, device, "maxClients: 16 below compute capability 7.5 (V100)", () -> {
      Advertisement ad = Twin.register("V100M32", 1, mps("nvidia.com/gpu", true, false, 17), MigLayout.NONE)
          .advertisement();
      assertThat(ad.pluginError()).hasValueSatisfying(e -> assertThat(e).endsWith("17 > 16"));
    }));
    c.add(NvidiaCase.of(MPS, device, "maxClients: 48 from compute capability 7.5 (T4)", () -> {
      Advertisement ad = Twin.register("T4", 1, mps("nvidia.com/gpu", true, false, 17), MigLayout.NONE)
          .advertisement();
      assertThat(ad.pluginError()).isEmpty();
      assertThat(ad.counts()).containsEntry(ResourceName.NVIDIA_GPU, 17L);
    }));
    c.add(NvidiaCase.of(MPS, "internal/plugin/mps.go", "getMPSOptions: sharing using MPS is not supported for MIG devices",
        () -> {
          DevicePluginConfig mpsSingle = mps("nvidia.com/gpu", true, false, 2).withFlags(single.flags());
          Advertisement ad = Twin.register("A100-40GB", 1, mpsSingle, sevenSmall).advertisement();
          assertThat(ad.counts()).isEmpty();
          assertThat(ad.pluginError()).hasValueSatisfying(e -> assertThat(e).contains(
              "sharing using MPS is not supported for MIG devices"));
        }));
    c.add(NvidiaCase.of(MPS, "internal/plugin/mps.go", "getMPSOptions: MPS under migStrategy single on a whole GPU runs",
        () -> {
          var r = plugin("version: v1\nflags:\n  migStrategy: single\nsharing:\n  mps:\n    resources:\n"
              + "    - name: nvidia.com/gpu\n      replicas: 4\n");
          assertThat(Twin.register("L4", 1, r.value(), MigLayout.NONE).advertisement().counts())
              .containsEntry(ResourceName.NVIDIA_GPU, 4L);
        }));
    // cmd/config-manager/main.go updateConfigName.
    String manager = "cmd/config-manager/main.go";
    NamedConfigs two = NamedConfigs.of(Map.of("ts", timeSliced("nvidia.com/gpu", false, false), "plain",
        DevicePluginConfig.DEFAULT), Optional.empty());
    c.add(NvidiaCase.of(SELECT, manager, "updateConfigName: specified config does not exist",
        () -> assertThat(two.select(Labels.of(NamedConfigs.NODE_LABEL, "missing")).error())
            .hasValueSatisfying(e -> assertThat(e).contains("specified config missing does not exist"))));
    c.add(NvidiaCase.of(SELECT, manager, "updateConfigName: all fallbacks failed",
        () -> assertThat(two.select(Labels.EMPTY).error()).hasValueSatisfying(
            e -> assertThat(e).contains("no config was set, no default was provided, and all fallbacks failed"))));
    c.add(NvidiaCase.of(SELECT, manager, "updateConfigName: fallback single",
        () -> assertThat(NamedConfigs.of(Map.of("only", DevicePluginConfig.DEFAULT), Optional.empty())
            .select(Labels.EMPTY).name()).isEqualTo("only")));
    c.add(NvidiaCase.of(SELECT, manager, "updateConfigName: fallback named",
        () -> assertThat(NamedConfigs.of(Map.of("default", DevicePluginConfig.DEFAULT, "b", DevicePluginConfig.DEFAULT),
            Optional.empty()).select(Labels.EMPTY).name()).isEqualTo("default")));
    c.add(NvidiaCase.of(SELECT, manager, "updateConfigName: a failed config-manager advertises nothing", () -> {
      var registered = io.gpufleet.engine.deviceplugin.GpuOperator.DEFAULTS.withConfigs(two).register(
          io.gpufleet.model.node.Node.of("n1", Labels.of(NamedConfigs.NODE_LABEL, "missing"), List.of(),
              io.gpufleet.model.resource.ResourceList.of("cpu", "8")),
          new io.gpufleet.model.gpu.GpuInventory("n1", GpuCatalog.builtIn().byId("L4").orElseThrow(), 1));
      assertThat(registered.node().allocatable().quantities()).doesNotContainKey(ResourceName.NVIDIA_GPU);
    }));
    return c;
  }

  private static List<MigInstance> sevenOneG() {
    var p = GpuCatalog.builtIn().byId("A100-40GB").orElseThrow().migProfile("1g.5gb").orElseThrow();
    List<MigInstance> out = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      out.add(new MigInstance(p, new MigPlacement(i, 1)));
    }
    return out;
  }
}
