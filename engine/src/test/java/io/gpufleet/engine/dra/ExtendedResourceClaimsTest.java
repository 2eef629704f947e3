package io.gpufleet.engine.dra;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.affinity.NodeAffinity;
import io.gpufleet.model.dra.DeviceClass;
import io.gpufleet.model.dra.DeviceRequest;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ExtendedResourceClaimsTest {

  private static Pod pod(Container... containers) {
    return new Pod(ObjectMeta.named("trainer"), new PodSpec(List.of(containers), List.of(), ResourceList.EMPTY,
        Labels.EMPTY, NodeAffinity.NONE, List.of(), Optional.empty(), 0, Optional.empty(), null,
        PodSpec.DEFAULT_TERMINATION_GRACE_SECONDS, null));
  }

  private static List<String> requests(ExtendedResourceClaims e, Pod pod, Map<String, Long> allocatable) {
    return e.claimFor(pod, r -> allocatable.getOrDefault(r, 0L)).map(ResourceClaim::spec)
        .map(s -> s.requests().stream().map((DeviceRequest r) -> r.name() + " " + r.deviceClassName() + " "
            + r.count()).toList()).orElse(List.of());
  }

  @Test
  void aLimitOnlyRequestIsServedByTheClassWhereTheNodeDoesNotAdvertiseIt() {
    ExtendedResourceClaims e = new ExtendedResourceClaims(new DraObjects(List.of(new DeviceClass("gpu.nvidia.com",
        List.of(), Optional.of("nvidia.com/gpu"))), List.of(), List.of(), List.of()));
    Pod p = pod(Container.of("c", "img", ResourceList.EMPTY, ResourceList.of("nvidia.com/gpu", "2")));
    assertThat(e.uses(p)).isTrue();
    assertThat(requests(e, p, Map.of())).containsExactly("container-0-request-0 gpu.nvidia.com 2");
    // The node's device plugin advertises it: no claim.
    assertThat(requests(e, p, Map.of("nvidia.com/gpu", 4L))).isEmpty();
    assertThat(e.claimFor(p, r -> 0).orElseThrow().name()).isEqualTo("trainer-extended-resources");
  }

  @Test
  void theClassReadLastServesANameTwoClassesClaimAndEveryClassItsImplicitName() {
    DraObjects dra = new DraObjects(List.of(new DeviceClass("old", List.of(), Optional.of("example.com/gpu")),
        new DeviceClass("new", List.of(), Optional.of("example.com/gpu"))), List.of(), List.of(), List.of());
    assertThat(dra.classForExtendedResource("example.com/gpu").map(DeviceClass::name)).contains("new");
    assertThat(dra.classForExtendedResource("deviceclass.resource.kubernetes.io/old").map(DeviceClass::name))
        .contains("old");
    assertThat(dra.classForExtendedResource("deviceclass.resource.kubernetes.io/none")).isEmpty();
    ExtendedResourceClaims e = new ExtendedResourceClaims(dra);
    assertThat(e.backed("example.com/other")).isFalse();
    assertThat(e.uses(pod(Container.of("c", "img", ResourceList.of("cpu", "1"), ResourceList.EMPTY)))).isFalse();
  }
}
