package io.gpufleet.model.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.affinity.NodeAffinity;
import io.gpufleet.model.affinity.NodeSelector;
import io.gpufleet.model.affinity.NodeSelectorTerm;
import io.gpufleet.model.affinity.PreferredSchedulingTerm;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.label.Requirement;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import java.lang.invoke.CallSite;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.RecordComponent;
import java.lang.runtime.ObjectMethods;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Records whose {@code toString}, {@code equals} or {@code hashCode} are written by hand (to spare
 * the CLI's start a bootstrap per class) against the methods javac would have generated: the same
 * bootstrap, {@link ObjectMethods#bootstrap}, over the same components. A pod template's text is
 * hashed into pod and ReplicaSet names, and hash maps iterate by hash, so both must stay the same.
 */
class WrittenOutRecordMethodsTest {

  /** The method javac generates for {@code type}: ObjectMethods' bootstrap over all its components. */
  private static MethodHandle generated(Class<? extends Record> type, String method) throws Throwable {
    MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(type, MethodHandles.lookup());
    RecordComponent[] components = type.getRecordComponents();
    MethodHandle[] getters = new MethodHandle[components.length];
    for (int i = 0; i < components.length; i++) {
      getters[i] = lookup.findGetter(type, components[i].getName(), components[i].getType());
    }
    String names = Arrays.stream(components).map(RecordComponent::getName).collect(Collectors.joining(";"));
    MethodType signature = switch (method) {
      case "toString" -> MethodType.methodType(String.class, type);
      case "hashCode" -> MethodType.methodType(int.class, type);
      default -> MethodType.methodType(boolean.class, type, Object.class);
    };
    return ((CallSite) ObjectMethods.bootstrap(lookup, method, signature, type, names, getters)).getTarget();
  }

  private static void sameTextAsGenerated(Record r) throws Throwable {
    String generated = (String) generated(r.getClass(), "toString").invoke(r);
    // A container leaves out ports while it has none, so that templates keep the hash they had
    // before ports were modelled (as PodSpec leaves out its later fields while empty).
    if (r instanceof Container c && c.ports().isEmpty()) {
      generated = generated.replace(", ports=[]]", "]");
    }
    // A template's text is that of its stored spec, which its pods' admitted spec does not change.
    if (r instanceof PodTemplate t && t.stored() == t.spec()) {
      generated = generated.replace(", stored=" + t.stored() + "]", "]");
    }
    assertThat(r.toString()).as(r.getClass().getSimpleName()).isEqualTo(generated);
  }

  @Test
  void templateTextIsTheGeneratedOneAtEveryLevel() throws Throwable {
    NodeSelectorTerm gpu = NodeSelectorTerm.of(Requirement.in("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3"),
        Requirement.exists("gpu"));
    NodeSelectorTerm pinned = new NodeSelectorTerm(List.of(), List.of(Requirement.in("metadata.name", "n1")));
    PreferredSchedulingTerm spot = new PreferredSchedulingTerm(40, NodeSelectorTerm.of(
        Requirement.notIn("karpenter.sh/capacity-type", "spot")));
    NodeAffinity affinity = new NodeAffinity(Optional.of(new NodeSelector(List.of(gpu, pinned))), List.of(spot));
    Container app = Container.of("vllm", "vllm/vllm-openai:v0.6.3", ResourceList.of("cpu", "4", "memory", "16Gi"),
        ResourceList.of("nvidia.com/gpu", "1"));
    Container sidecar = new Container("proxy", "", ResourceList.EMPTY, ResourceList.of("cpu", "100m"), true);
    PodSpec spec = PodSpec.of(app).withInitContainers(List.of(sidecar)).withNodeAffinity(affinity)
        .withTolerations(List.of(Toleration.exists("nvidia.com/gpu", TaintEffect.NO_SCHEDULE)))
        .withNodeSelector(Labels.of("pool", "gpu"));
    List<Record> values = List.of(
        new PodTemplate(Labels.of("app", "vllm", "tier", "serving"), Labels.of("prometheus.io/scrape", "true"), spec),
        new PodTemplate(Labels.EMPTY, Labels.EMPTY, PodSpec.of()),
        app, sidecar, affinity, NodeAffinity.NONE, new NodeAffinity(Optional.empty(), List.of(spot)),
        new NodeSelector(List.of()), gpu, pinned, spot);
    for (Record r : values) {
      sameTextAsGenerated(r);
    }
    PodTemplate stored = (PodTemplate) values.getFirst();
    PodTemplate admitted = stored.withSpec(spec.withPriority(1000));
    assertThat(admitted.toString()).isEqualTo(stored.toString());
    assertThat(admitted).isNotEqualTo(stored);
  }

  @Test
  void resourceNamesHashAndCompareAsGenerated() throws Throwable {
    MethodHandle hash = generated(ResourceName.class, "hashCode");
    MethodHandle equal = generated(ResourceName.class, "equals");
    List<ResourceName> names = List.of(ResourceName.CPU, ResourceName.of("cpu"), new ResourceName("cpu"),
        ResourceName.NVIDIA_GPU, new ResourceName("nvidia.com/mig-1g.10gb"), new ResourceName(""));
    for (ResourceName a : names) {
      assertThat(a.hashCode()).isEqualTo((int) hash.invoke(a));
      for (ResourceName b : names) {
        assertThat(a.equals(b)).as(a + " = " + b).isEqualTo((boolean) equal.invoke(a, b));
      }
      assertThat(a.equals("cpu")).isEqualTo((boolean) equal.invoke(a, "cpu"));
      assertThat(a.equals(null)).isFalse().isEqualTo((boolean) equal.invoke(a, (Object) null));
    }
  }
}
