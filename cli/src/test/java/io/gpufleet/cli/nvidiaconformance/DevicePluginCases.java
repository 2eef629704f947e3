package io.gpufleet.cli.nvidiaconformance;

import static io.gpufleet.cli.nvidiaconformance.Configs.plugin;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.deviceplugin.Advertisement;
import io.gpufleet.engine.deviceplugin.DeviceAllocation;
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
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The running plugin, GFD and config-manager: NVIDIA/k8s-device-plugin {@code internal/rm/rm_test.go}
 * (TestValidateRequest), {@code internal/plugin/server.go} (Allocate's error),
 * {@code cmd/mps-control-daemon/mps/device_test.go} (TestDevice), {@code internal/plugin/mps.go}
 * (getMPSOptions; no upstream test) and {@code cmd/config-manager/main.go} (updateConfigName; no
 * upstream test). Each case names the upstream test and its {@code description}, or the function.
 * GFD's labels are in {@link ResourceLabelerCases} and {@link MigStrategyLabelCases}.
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

  static List<UpstreamCase> cases() {
    List<UpstreamCase> c = new ArrayList<>();
    // TestValidateRequest (the "invalid device IDs" case needs IDs the kubelet never sends: not translated).
    c.add(UpstreamCase.of(ALLOC, RM, "TestValidateRequest/valid device IDs -- no sharing",
        () -> granted(Twin.allocate(Twin.register("A100-40GB", 2, DevicePluginConfig.DEFAULT, MigLayout.NONE),
            "nvidia.com/gpu", 1))));
    c.add(UpstreamCase.of(ALLOC, RM, "TestValidateRequest/timeslicing with single device",
        () -> granted(Twin.allocate(Twin.register("A100-40GB", 2, timeSliced("nvidia.com/gpu", false, false),
            MigLayout.NONE), "nvidia.com/gpu", 1))));
    c.add(UpstreamCase.of(ALLOC, RM, "TestValidateRequest/timeslicing with two devices",
        () -> granted(Twin.allocate(Twin.register("A100-40GB", 2, timeSliced("nvidia.com/gpu", false, false),
            MigLayout.NONE), "nvidia.com/gpu", 2))));
    c.add(UpstreamCase.of(ALLOC, RM, "TestValidateRequest/timeslicing with two devices -- failRequestsGreaterThanOne",
        () -> refusedAsUpstream(Twin.allocate(Twin.register("A100-40GB", 2, timeSliced("nvidia.com/gpu", true, false),
            MigLayout.NONE), "nvidia.com/gpu", 2))));
    c.add(UpstreamCase.of(ALLOC, RM, "TestValidateRequest/MPS with single device",
        () -> granted(Twin.allocate(Twin.register("A100-40GB", 2, mps("nvidia.com/gpu", false, false, 2),
            MigLayout.NONE), "nvidia.com/gpu", 1))));
    c.add(UpstreamCase.of(ALLOC, RM, "TestValidateRequest/MPS with two devices",
        () -> granted(Twin.allocate(Twin.register("A100-40GB", 2, mps("nvidia.com/gpu", false, false, 2),
            MigLayout.NONE), "nvidia.com/gpu", 2))));
    c.add(UpstreamCase.of(ALLOC, RM, "TestValidateRequest/MPS with two devices -- failRequestsGreaterThanOne",
        () -> refusedAsUpstream(Twin.allocate(Twin.register("A100-40GB", 2, mps("nvidia.com/gpu", true, false, 2),
            MigLayout.NONE), "nvidia.com/gpu", 2))));
    MigLayout sevenSmall = MigLayout.of(Map.of(0, sevenOneG()));
    DevicePluginConfig single = DevicePluginConfig.DEFAULT.withFlags(
        DevicePluginConfig.DEFAULT.flags().withMigStrategy(MigStrategy.SINGLE));
    // MPS client limit and MIG devices: the plugin does not start, so nothing is advertised.
    // cmd/mps-control-daemon/mps/device_test.go TestDevice: isAtLeastVolta, maxClients, assertReplicas.
    // Upstream's device carries the capability as NVML's string ("7.5" or "v7.5"); the twin's is the
    // catalogue's typed major.minor, so "leading v ignored" and "no-leading v supported" both become a
    // compute 7.5 GPU (T4): the prefix handling has no counterpart, the limit does.
    c.add(mpsDevice("leading v ignored", "T4", 0, 48));
    c.add(mpsDevice("no-leading v supported", "T4", 0, 48));
    c.add(mpsDevice("pre-volta clients", "V100M32", 0, 16));
    c.add(mpsDevice("post-volta clients", "H100-80GB", 0, 48));
    c.add(mpsDevice("pre-volta clients exceeded", "V100M32", 29, 16));
    c.add(mpsDevice("post-volta clients exceeded", "H100-80GB", 49, 48));
    c.add(mpsDevice("pre-volta clients max", "V100M32", 16, 16));
    c.add(mpsDevice("post-volta clients max", "H100-80GB", 48, 48));
    c.add(UpstreamCase.of(MPS, "internal/plugin/mps.go", "getMPSOptions: sharing using MPS is not supported for MIG devices",
        () -> {
          DevicePluginConfig mpsSingle = mps("nvidia.com/gpu", true, false, 2).withFlags(single.flags());
          Advertisement ad = Twin.register("A100-40GB", 1, mpsSingle, sevenSmall).advertisement();
          assertThat(ad.counts()).isEmpty();
          assertThat(ad.pluginError()).hasValueSatisfying(e -> assertThat(e).contains(
              "sharing using MPS is not supported for MIG devices"));
        }));
    c.add(UpstreamCase.of(MPS, "internal/plugin/mps.go", "getMPSOptions: MPS under migStrategy single on a whole GPU runs",
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
    c.add(UpstreamCase.of(SELECT, manager, "updateConfigName: specified config does not exist",
        () -> assertThat(two.select(Labels.of(NamedConfigs.NODE_LABEL, "missing")).error())
            .hasValueSatisfying(e -> assertThat(e).contains("specified config missing does not exist"))));
    c.add(UpstreamCase.of(SELECT, manager, "updateConfigName: all fallbacks failed",
        () -> assertThat(two.select(Labels.EMPTY).error()).hasValueSatisfying(
            e -> assertThat(e).contains("no config was set, no default was provided, and all fallbacks failed"))));
    c.add(UpstreamCase.of(SELECT, manager, "updateConfigName: fallback single",
        () -> assertThat(NamedConfigs.of(Map.of("only", DevicePluginConfig.DEFAULT), Optional.empty())
            .select(Labels.EMPTY).name()).isEqualTo("only")));
    c.add(UpstreamCase.of(SELECT, manager, "updateConfigName: fallback named",
        () -> assertThat(NamedConfigs.of(Map.of("default", DevicePluginConfig.DEFAULT, "b", DevicePluginConfig.DEFAULT),
            Optional.empty()).select(Labels.EMPTY).name()).isEqualTo("default")));
    c.add(UpstreamCase.of(SELECT, manager, "updateConfigName: a failed config-manager advertises nothing", () -> {
      var registered = io.gpufleet.engine.deviceplugin.GpuOperator.DEFAULTS.withConfigs(two).register(
          io.gpufleet.model.node.Node.of("n1", Labels.of(NamedConfigs.NODE_LABEL, "missing"), List.of(),
              io.gpufleet.model.resource.ResourceList.of("cpu", "8")),
          new io.gpufleet.model.gpu.GpuInventory("n1", GpuCatalog.builtIn().byId("L4").orElseThrow(), 1));
      assertThat(registered.node().allocatable().quantities()).doesNotContainKey(ResourceName.NVIDIA_GPU);
    }));
    return c;
  }

  /**
   * One TestDevice case: the GPU's client limit is {@code maxClients} (isAtLeastVolta is it being 48),
   * and {@code replicas} MPS replicas (0: none given) start the MPS control daemon or stop it with
   * assertReplicas' error, wrapped as manager.go Daemons wraps it.
   */
  private static UpstreamCase mpsDevice(String description, String gpu, int replicas, int maxClients) {
    return UpstreamCase.of(MPS, "cmd/mps-control-daemon/mps/device_test.go", "TestDevice/" + description, () -> {
      var model = GpuCatalog.builtIn().byId(gpu).orElseThrow();
      assertThat(Advertisement.mpsMaxClients(model)).as("maxClients").isEqualTo(maxClients);
      Advertisement ad = Twin.register(gpu, 1, mps("nvidia.com/gpu", false, false, replicas), MigLayout.NONE)
          .advertisement();
      if (replicas > maxClients) {
        assertThat(ad.pluginError()).hasValue("invalid MPS configuration: invalid device maximum allowed replicas "
            + "exceeded: " + replicas + " > " + maxClients);
        assertThat(ad.counts()).isEmpty();
      } else {
        assertThat(ad.pluginError()).isEmpty();
      }
    });
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
