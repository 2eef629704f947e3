package io.gpufleet.model.pod;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.resource.ResourceList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The effective request: max(largest init container, sum of containers) + overhead (reference §5.1). */
class PodRequestsTest {

  private static Container c(String name, String cpu, String mem) {
    return Container.of(name, "img", ResourceList.of("cpu", cpu, "memory", mem), ResourceList.EMPTY);
  }

  @Test
  void sumsAppContainers() {
    PodSpec spec = PodSpec.of(c("a", "500m", "1Gi"), c("b", "250m", "512Mi"));
    assertThat(PodRequests.of(spec)).isEqualTo(ResourceList.of("cpu", "750m", "memory", "1536Mi"));
  }

  @Test
  void aLargerInitContainerSetsTheRequestPerResource() {
    PodSpec spec = PodSpec.of(c("app", "500m", "1Gi")).withInitContainers(List.of(c("init", "2", "256Mi")));
    assertThat(PodRequests.of(spec)).isEqualTo(ResourceList.of("cpu", "2", "memory", "1Gi"));
  }

  @Test
  void overheadIsAddedOnTop() {
    PodSpec spec = PodSpec.of(c("app", "1", "1Gi")).withInitContainers(List.of(c("init", "3", "0")))
        .withOverhead(ResourceList.of("cpu", "250m", "memory", "120Mi"));
    assertThat(PodRequests.of(spec)).isEqualTo(ResourceList.of("cpu", "3250m", "memory", "1144Mi"));
  }

  @Test
  void sidecarsRunBesideAppContainersAndLaterInitContainers() {
    Container sidecar = new Container("proxy", "envoy", ResourceList.of("cpu", "100m", "memory", "64Mi"),
        ResourceList.EMPTY, true);
    PodSpec spec = PodSpec.of(c("app", "1", "1Gi"))
        .withInitContainers(List.of(sidecar, c("migrate", "1500m", "128Mi")));
    // init peak: 1500m + 100m sidecar = 1600m; running: 1 + 100m = 1100m.
    assertThat(PodRequests.of(spec)).isEqualTo(ResourceList.of("cpu", "1600m", "memory", "1088Mi"));
  }

  @Test
  void aLimitWithoutARequestBecomesTheRequest() {
    Container gpu = Container.of("vllm", "vllm", ResourceList.of("cpu", "2"),
        ResourceList.of("cpu", "4", "nvidia.com/gpu", "1"));
    assertThat(PodRequests.of(PodSpec.of(gpu))).isEqualTo(ResourceList.of("cpu", "2", "nvidia.com/gpu", "1"));
  }

  @Test
  void gpusOfInitAndAppContainersAreNotSummed() {
    Container init = Container.of("warm", "vllm", ResourceList.EMPTY, ResourceList.of("nvidia.com/gpu", "1"));
    Container app = Container.of("serve", "vllm", ResourceList.EMPTY, ResourceList.of("nvidia.com/gpu", "1"));
    PodSpec spec = PodSpec.of(app).withInitContainers(List.of(init));
    assertThat(PodRequests.units(PodRequests.of(spec), io.gpufleet.model.resource.ResourceName.NVIDIA_GPU)).isEqualTo(1);
  }
}
