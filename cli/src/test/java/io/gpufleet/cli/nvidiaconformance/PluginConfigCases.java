package io.gpufleet.cli.nvidiaconformance;

import static io.gpufleet.cli.nvidiaconformance.Configs.accepted;
import static io.gpufleet.cli.nvidiaconformance.Configs.plugin;
import static io.gpufleet.cli.nvidiaconformance.Configs.refused;
import static io.gpufleet.cli.nvidiaconformance.Configs.timeSlicingResource;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.deviceplugin.Sharing;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;

/**
 * NVIDIA/k8s-device-plugin {@code api/config/v1/replicas_test.go} (TestUnmarshalReplicatedDevices,
 * TestUnmarshalReplicatedResource, TestUnmarshalReplicatedResources; cases named "test case N" by
 * their index, as {@code t.Run} names them), {@code config.go} parseConfigFrom and
 * {@code cmd/nvidia-device-plugin/main.go} validateFlags. Each JSON input is written as the YAML a
 * user puts in the plugin's config; the empty-document cases have no YAML counterpart and are not
 * translated.
 */
final class PluginConfigCases {
  private PluginConfigCases() {}

  static final String AREA = "device-plugin config";
  static final String REPLICAS = "api/config/v1/replicas_test.go";
  static final String MAIN = "cmd/nvidia-device-plugin/main.go";
  static final String CONFIG = "api/config/v1/config.go";

  private static UpstreamCase devices(int index, String value, boolean ok) {
    return UpstreamCase.of(AREA, REPLICAS, "TestUnmarshalReplicatedDevices/test case " + index, () -> {
      var r = plugin(timeSlicingResource("name: nvidia.com/gpu", "replicas: 2", "devices: " + value));
      if (ok) {
        accepted(r);
      } else {
        refused(r);
      }
    });
  }

  private static UpstreamCase resource(int index, boolean ok, String... lines) {
    return UpstreamCase.of(AREA, REPLICAS, "TestUnmarshalReplicatedResource/test case " + index, () -> {
      var r = plugin(timeSlicingResource(lines));
      if (ok) {
        accepted(r);
        assertThat(r.value().timeSlicing().orElseThrow().resources().getFirst().name()).isEqualTo("nvidia.com/valid");
      } else {
        refused(r);
      }
    });
  }

  static List<UpstreamCase> cases() {
    List<UpstreamCase> c = new ArrayList<>();
    // TestUnmarshalReplicatedDevices (case 0, the empty input, has no YAML form).
    c.add(devices(1, "\"not-all\"", false));
    c.add(devices(2, "-2", false));
    c.add(devices(3, "2.0", false));
    c.add(devices(4, "[-1]", false));
    c.add(devices(5, "[\"-1\"]", false));
    c.add(devices(6, "[\"invalid-UUID\"]", false));
    c.add(devices(7, "[\"GPU-UUID\"]", false));
    c.add(devices(8, "[\"MIG-UUID\"]", false));
    c.add(devices(9, "[\"MIG-GPU-4cf8db2d-06c0-7d70-1a51-e59b25b2c16c\"]", false));
    c.add(devices(10, "\"all\"", true));
    c.add(devices(11, "2", true));
    c.add(devices(12, "[0]", true));
    c.add(devices(13, "[\"0\"]", true));
    c.add(devices(14, "[\"0:0\"]", true));
    c.add(devices(15, "[\"GPU-4cf8db2d-06c0-7d70-1a51-e59b25b2c16c\"]", true));
    c.add(devices(16, "[\"MIG-4cf8db2d-06c0-7d70-1a51-e59b25b2c16c\"]", true));
    c.add(devices(17, "[\"MIG-GPU-4cf8db2d-06c0-7d70-1a51-e59b25b2c16c/0/0\"]", true));
    c.add(devices(18, "[0, \"0:0\", \"GPU-4cf8db2d-06c0-7d70-1a51-e59b25b2c16c\"]", true));
    c.add(devices(19, "[\"0\", \"0:0\", \"GPU-4cf8db2d-06c0-7d70-1a51-e59b25b2c16c\"]", true));
    // TestUnmarshalReplicatedResource (case 0, the empty input, has no YAML form; {} is an empty entry).
    c.add(UpstreamCase.of(AREA, REPLICAS, "TestUnmarshalReplicatedResource/test case 1",
        () -> refused(plugin("version: v1\nsharing:\n  timeSlicing:\n    resources:\n    - {}\n"),
            "no resource name specified")));
    c.add(resource(2, false, "name: valid"));
    c.add(resource(3, false, "name: valid", "devices: all"));
    c.add(resource(4, false, "name: valid", "devices: all", "rename: valid-shared"));
    c.add(resource(5, true, "name: valid", "devices: all", "replicas: 2"));
    c.add(resource(6, true, "name: valid", "devices: all", "replicas: 2", "rename: valid-shared"));
    c.add(resource(7, false, "name: valid", "replicas: -1"));
    c.add(resource(8, false, "name: valid", "replicas: 0"));
    c.add(resource(9, true, "name: valid", "replicas: 2"));
    c.add(resource(10, true, "name: valid", "replicas: 2", "rename: valid-shared"));
    c.add(resource(11, false, "name: $invalid$", "replicas: 2", "rename: valid-shared"));
    c.add(resource(12, false, "name: valid", "replicas: 2", "rename: $invalid$"));
    // TestUnmarshalReplicatedResources (case 0, the empty input, has no YAML form).
    c.add(UpstreamCase.of(AREA, REPLICAS, "TestUnmarshalReplicatedResources/test case 1",
        () -> refused(plugin("version: v1\nsharing:\n  timeSlicing: {}\n"), "no resources specified")));
    c.add(UpstreamCase.of(AREA, REPLICAS, "TestUnmarshalReplicatedResources/test case 2",
        () -> refused(plugin("version: v1\nsharing:\n  timeSlicing:\n    resources: []\n"), "no resources specified")));
    c.add(UpstreamCase.of(AREA, REPLICAS, "TestUnmarshalReplicatedResources/test case 3", () -> {
      var r = plugin(timeSlicingResource("name: valid", "replicas: 2"));
      accepted(r);
      assertThat(r.value().timeSlicing().orElseThrow().resources()).hasSize(1);
    }));
    c.add(UpstreamCase.of(AREA, REPLICAS, "TestUnmarshalReplicatedResources/test case 4", () -> {
      var r = plugin("version: v1\nsharing:\n  timeSlicing:\n    resources:\n    - name: valid1\n      replicas: 2\n"
          + "    - name: valid2\n      replicas: 2\n");
      accepted(r);
      assertThat(r.value().timeSlicing().orElseThrow().resources()).extracting(x -> x.name())
          .containsExactly("nvidia.com/valid1", "nvidia.com/valid2");
    }));
    c.add(UpstreamCase.of(AREA, REPLICAS, "TestUnmarshalReplicatedResources/test case 5",
        () -> refused(plugin(timeSlicingResource("name: $invalid$", "replicas: 2")), "incorrect format")));
    // config.go parseConfigFrom and the v1 schema: version, lenient unmarshalling.
    c.add(UpstreamCase.of(AREA, CONFIG, "parseConfigFrom: unknown version",
        () -> refused(plugin("version: v2\n"), "unknown version: v2")));
    c.add(UpstreamCase.of(AREA, CONFIG, "parseConfigFrom: empty version means v1",
        () -> accepted(plugin("flags:\n  migStrategy: single\n"))));
    c.add(UpstreamCase.of(AREA, CONFIG, "parseConfigFrom: unknown fields are ignored (sigs.k8s.io/yaml)", () -> {
      var r = plugin("version: v1\nflags:\n  migStrategy: none\n  shinyNewFlag: true\n");
      accepted(r);
      assertThat(r.warnings()).anySatisfy(w -> assertThat(w).contains("shinyNewFlag"));
    }));
    c.add(UpstreamCase.of(AREA, CONFIG, "NewConfig: MPS failRequestsGreaterThanOne defaults to true",
        () -> assertThat(plugin("version: v1\nsharing:\n  mps:\n    resources:\n    - name: nvidia.com/gpu\n"
            + "      replicas: 4\n").value().sharing().failRequestsGreaterThanOne()).isTrue()));
    c.add(UpstreamCase.of(AREA, "api/config/v1/resources.go", "NewResourceName: an unprefixed name gets nvidia.com/",
        () -> assertThat(plugin(timeSlicingResource("name: gpu", "replicas: 4")).value().sharing()
            .replicas("nvidia.com/gpu")).isEqualTo(4)));
    c.add(UpstreamCase.of(AREA, "api/config/v1/sharing.go", "SharingStrategy: MPS wins over time-slicing", () -> {
      var r = plugin("version: v1\nsharing:\n  timeSlicing:\n    resources:\n    - name: nvidia.com/gpu\n"
          + "      replicas: 2\n  mps:\n    resources:\n    - name: nvidia.com/gpu\n      replicas: 4\n");
      accepted(r);
      assertThat(r.value().sharing()).isInstanceOf(Sharing.Mps.class);
      assertThat(r.value().sharing().replicas("nvidia.com/gpu")).isEqualTo(4);
    }));
    c.add(UpstreamCase.of(AREA, MAIN, "validateFlags: using --mig-strategy=mixed is not supported with MPS",
        () -> refused(plugin("version: v1\nflags:\n  migStrategy: mixed\nsharing:\n  mps:\n    resources:\n"
            + "    - name: nvidia.com/gpu\n      replicas: 2\n"), "using --mig-strategy=mixed is not supported with MPS")));
    c.add(UpstreamCase.of(AREA, MAIN, "validateFlags: MPS with migStrategy single is accepted", () -> {
      var r = plugin("version: v1\nflags:\n  migStrategy: single\n  mpsRoot: /run/nvidia/mps\nsharing:\n  mps:\n"
          + "    resources:\n    - name: nvidia.com/gpu\n      replicas: 2\n");
      accepted(r);
      assertThat(r.value()).isNotEqualTo(DevicePluginConfig.DEFAULT);
    }));
    c.add(UpstreamCase.of(AREA, MAIN, "validateFlags: unknown MIG strategy",
        () -> refused(plugin("version: v1\nflags:\n  migStrategy: both\n"), "unknown MIG strategy: both")));
    return c;
  }
}
