package io.gpufleet.manifest.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.manifest.ManifestReader;
import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.model.dra.DeviceConfig;
import io.gpufleet.model.dra.GpuConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A claim's opaque configuration: NVIDIA's GpuConfig decoded as its driver's strict decoder does. */
class GpuConfigDecoderTest {

  private final ManifestReader reader = new ManifestReader();

  private static String claim(String config) {
    return """
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaim
        metadata: {name: c}
        spec:
          devices:
            requests:
            - name: gpu
              exactly: {deviceClassName: gpu.nvidia.com}
            config:
        """ + config.indent(4);
  }

  private List<DeviceConfig> configs(String config) {
    return reader.read("c.yaml", claim(config)).dra().claims().getFirst().spec().config();
  }

  private List<String> errors(String config) {
    try {
      reader.read("c.yaml", claim(config));
    } catch (ManifestException e) {
      return e.problems().stream().map(ManifestProblem::toString).toList();
    }
    throw new AssertionError("expected a ManifestException");
  }

  @Test
  void readsTimeSlicingAndMpsSettings() {
    List<DeviceConfig> read = configs("""
        - requests: [gpu]
          opaque:
            driver: gpu.nvidia.com
            parameters:
              apiVersion: resource.nvidia.com/v1beta1
              kind: GpuConfig
              sharing:
                strategy: TimeSlicing
                timeSlicingConfig: {interval: Long}
        - opaque:
            driver: gpu.nvidia.com
            parameters:
              apiVersion: resource.nvidia.com/v1beta1
              kind: GpuConfig
              sharing:
                strategy: MPS
                mpsConfig:
                  defaultActiveThreadPercentage: 50
                  defaultPinnedDeviceMemoryLimit: 10Gi
                  defaultPerDevicePinnedMemoryLimit: {"0": 5Gi}
        """);
    assertThat(read).hasSize(2);
    assertThat(read.get(0).requests()).containsExactly("gpu");
    GpuConfig.Sharing ts = ((GpuConfig) read.get(0).parameters()).sharing().orElseThrow();
    assertThat(ts.strategy()).isEqualTo("TimeSlicing");
    assertThat(ts.timeSlicingConfig().orElseThrow().interval()).contains("Long");
    assertThat(read.get(1).requests()).isEmpty();
    GpuConfig.Mps mps = ((GpuConfig) read.get(1).parameters()).sharing().orElseThrow().mpsConfig().orElseThrow();
    assertThat(mps.defaultActiveThreadPercentage()).contains(50);
    assertThat(mps.defaultPinnedDeviceMemoryLimit()).contains(10L << 30);
    assertThat(mps.defaultPerDevicePinnedMemoryLimit()).containsEntry("0", 5L << 30);
  }

  @Test
  void anUnknownFieldIsAnErrorAsInTheDriversStrictDecoderAndARequestMustExist() {
    assertThat(errors("""
        - requests: [other]
          opaque:
            driver: gpu.nvidia.com
            parameters:
              apiVersion: resource.nvidia.com/v1beta1
              kind: GpuConfig
              sharing:
                strategy: TimeSlicing
                timeSlicingConfig: {intervall: Long}
        """)).anyMatch(m -> m.matches("c\\.yaml:\\d+:\\d+: .*unknown field \"intervall\".*"))
        .anyMatch(m -> m.contains("Invalid value: \"other\": must be the name of a request in the claim"));
  }

  @Test
  void otherParametersAreKeptByKindWithAWarning() {
    var bundle = reader.read("c.yaml", claim("""
        - opaque:
            driver: gpu.nvidia.com
            parameters: {apiVersion: resource.nvidia.com/v1beta1, kind: MigDeviceConfig}
        """));
    assertThat(bundle.dra().claims().getFirst().spec().config().getFirst().parameters())
        .isEqualTo(new DeviceConfig.Unmodelled("resource.nvidia.com/v1beta1", "MigDeviceConfig"));
    assertThat(bundle.warnings()).anyMatch(w -> w.toString().contains("MigDeviceConfig for driver gpu.nvidia.com are "
        + "not applied"));
  }
}
