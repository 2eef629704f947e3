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

  /**
   * DynamicResources' cycle skips {@code claimFor} on every node for a pod that {@code uses} nothing a
   * class serves: seeded pods and classes hold it to never claiming for such a pod.
   */
  @Test
  void aPodThatUsesNoClassServedResourceIsNeverClaimedFor() {
    String[] names = {"nvidia.com/gpu", "example.com/gpu", "cpu", "memory", "deviceclass.resource.kubernetes.io/a",
        "deviceclass.resource.kubernetes.io/b", "nvidia.com/mig-1g.10gb"};
    java.util.SplittableRandom random = new java.util.SplittableRandom(5004);
    int unused = 0;
    for (int round = 0; round < 500; round++) {
      List<DeviceClass> classes = new java.util.ArrayList<>();
      for (String c : List.of("a", "b", "c")) {
        if (random.nextBoolean()) {
          classes.add(new DeviceClass(c, List.of(), random.nextBoolean()
              ? Optional.of(names[random.nextInt(names.length)]) : Optional.empty()));
        }
      }
      ExtendedResourceClaims e = new ExtendedResourceClaims(new DraObjects(classes, List.of(), List.of(), List.of()));
      List<Container> containers = new java.util.ArrayList<>();
      for (int i = random.nextInt(1, 3); i > 0; i--) {
        containers.add(Container.of("c" + i, "img",
            ResourceList.of(names[random.nextInt(names.length)], String.valueOf(random.nextInt(0, 3))),
            ResourceList.of(names[random.nextInt(names.length)], String.valueOf(random.nextInt(0, 3)))));
      }
      Pod p = pod(containers.toArray(Container[]::new));
      if (!e.uses(p)) {
        unused++;
        assertThat(e.claimFor(p, r -> 0)).as("%s %s", classes, containers).isEmpty();
      }
    }
    assertThat(unused).isBetween(50, 450);
  }
}
