package io.gpufleet.engine.dra;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.dra.DeviceRequest;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.dra.ResourceClaimSpec;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.ResourceList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A {@code firstAvailable} request is met by its first subrequest that can be met, named request/subrequest. */
class FirstAvailableAllocationTest {

  private static final String GPU = "gpu.nvidia.com";

  /** One node with two H100 cards published by NVIDIA's driver, and its device classes. */
  private static final DraObjects H100_NODE = new DraObjects(NvidiaDraDriver.deviceClasses(), List.of(), List.of(),
      List.of(new NvidiaDraDriver(GpuCatalog.builtIn()).slice(Node.of("n",
          Labels.of("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3", "nvidia.com/gpu.count", "2"), List.of(),
          ResourceList.of("cpu", "32", "memory", "256Gi", "pods", "110"))).orElseThrow()));

  private static DeviceRequest product(String name, String prefix, long count) {
    return new DeviceRequest(name, GPU,
        List.of("device.attributes[\"gpu.nvidia.com\"].productName.startsWith(\"" + prefix + "\")"),
        DeviceRequest.AllocationMode.EXACT_COUNT, count);
  }

  private static ResourceClaim claim(DeviceRequest... requests) {
    return new ResourceClaim("default", "c", new ResourceClaimSpec(List.of(requests)));
  }

  private static List<String> allocate(ResourceClaim claim, Set<String> inUse) {
    var outcome = new DeviceAllocator(H100_NODE, new CelDeviceSelector()).allocate(List.of(claim), "n", inUse);
    if (!(outcome instanceof DeviceAllocator.Outcome.Allocated a)) {
      return List.of(outcome.toString());
    }
    return a.allocations().getFirst().results().stream().map(r -> r.request() + "=" + r.device()).toList();
  }

  @Test
  void fallsBackToTheSecondSubrequestWhenTheFirstCannotBeMet() {
    ResourceClaim c = claim(DeviceRequest.firstAvailable("gpu",
        List.of(product("b200", "NVIDIA B200", 1), product("h100", "NVIDIA H100", 1))));
    assertThat(allocate(c, Set.of())).containsExactly("gpu/h100=gpu-0");
  }

  @Test
  void takesTheFirstSubrequestWhenItCanBeMet() {
    ResourceClaim c = claim(DeviceRequest.firstAvailable("gpu",
        List.of(product("two", "NVIDIA H100", 2), product("one", "NVIDIA H100", 1))));
    assertThat(allocate(c, Set.of())).containsExactly("gpu/two=gpu-0", "gpu/two=gpu-1");
    // With one card in use only the second alternative fits.
    assertThat(allocate(c, Set.of(GPU + "/n/gpu-0"))).containsExactly("gpu/one=gpu-1");
  }

  @Test
  void backtracksToTheNextSubrequestWhenALaterRequestWouldGoUnmet() {
    ResourceClaim c = claim(
        DeviceRequest.firstAvailable("train", List.of(product("two", "NVIDIA H100", 2), product("one", "NVIDIA H100", 1))),
        product("eval", "NVIDIA H100", 1));
    assertThat(allocate(c, Set.of())).containsExactly("train/one=gpu-0", "eval=gpu-1");
  }

  @Test
  void noSubrequestMetIsUnsatisfiableAndAMissingClassNamesTheSubrequest() {
    ResourceClaim c = claim(DeviceRequest.firstAvailable("gpu",
        List.of(product("b200", "NVIDIA B200", 1), product("three", "NVIDIA H100", 3))));
    assertThat(new DeviceAllocator(H100_NODE, new CelDeviceSelector()).allocate(List.of(c), "n", Set.of()))
        .isInstanceOf(DeviceAllocator.Outcome.Unsatisfiable.class);
    ResourceClaim ghost = claim(DeviceRequest.firstAvailable("gpu", List.of(product("h100", "NVIDIA H100", 1),
        new DeviceRequest("x", "no-such-class", List.of(), DeviceRequest.AllocationMode.EXACT_COUNT, 1))));
    assertThat(new DeviceAllocator(H100_NODE, new CelDeviceSelector()).missingClass(List.of(ghost)))
        .contains("request gpu/x: device class no-such-class does not exist");
  }
}
