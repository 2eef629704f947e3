package io.gpufleet.manifest.karpenter;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.model.karpenter.AutoMode;
import io.gpufleet.model.karpenter.NodePool;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** An EKS Auto Mode NodePool and NodeClass as gpufleet reads them (EKS user guide, Auto Mode). */
class AutoModeManifestsTest {

  static final String POOL = """
      apiVersion: karpenter.sh/v1
      kind: NodePool
      metadata: {name: gpu}
      spec:
        template:
          spec:
            nodeClassRef: {group: eks.amazonaws.com, kind: NodeClass, name: %s}
            requirements:
            - {key: eks.amazonaws.com/instance-gpu-name, operator: In, values: [l4]}
            - {key: karpenter.k8s.aws/instance-family, operator: In, values: [g6]}
            - {key: eks.amazonaws.com/instance-hypervisor, operator: In, values: [nitro]}
      """;

  @Test
  void theBuiltInDefaultNodeClassNeedNotBeWrittenAndAutoModesDefaultsApply() {
    Diagnostics d = new Diagnostics();
    KarpenterManifests m = KarpenterManifests.read("p.yaml", POOL.formatted("default"), d);
    assertThat(d.errors()).isEmpty();
    NodePool p = m.nodePools().getFirst();
    assertThat(p.template().expireAfter()).contains(Duration.ofHours(336));
    assertThat(p.template().terminationGracePeriod()).contains(Duration.ofHours(24));
    assertThat(d.warnings()).extracting(Object::toString).containsExactly(
        "p.yaml:10:15: warning: spec.template.spec.requirements[1].key: EKS Auto Mode's nodes carry "
            + "eks.amazonaws.com/instance-family, not karpenter.k8s.aws/instance-family (EKS user guide, \"EKS Auto "
            + "Mode Supported Labels\"): no instance type offers it",
        "p.yaml:11:15: warning: spec.template.spec.requirements[2].key: eks.amazonaws.com/instance-hypervisor is an "
            + "EKS Auto Mode label gpufleet's instance catalogue has no values for: no instance type offers it in the "
            + "simulation");
    assertThat(AutoMode.isAutoMode(p)).isTrue();
  }

  @Test
  void aWrittenNodeClassIsAcceptedAndItsUnmodelledFieldsSaid() {
    Diagnostics d = new Diagnostics();
    KarpenterManifests m = KarpenterManifests.read("p.yaml", POOL.formatted("gpu") + """
        ---
        apiVersion: eks.amazonaws.com/v1
        kind: NodeClass
        metadata: {name: gpu}
        spec:
          role: MyNodeRole
          ephemeralStorage: {size: 160Gi}
        """, d);
    assertThat(d.errors()).isEmpty();
    assertThat(m.nodeClasses()).extracting(Object::toString).containsExactly("NodeClass/gpu");
    assertThat(d.warnings()).extracting(Object::toString).anySatisfy(w -> assertThat(w).isEqualTo(
        "p.yaml:17:3: warning: spec: EKS Auto Mode NodeClass \"gpu\": ephemeralStorage, role not modelled by "
            + "gpufleet; its nodes are simulated with the instance type's allocatable as Karpenter estimates it"))
        .noneSatisfy(w -> assertThat(w).contains("is not among the manifests read"));
    // A missing one is still said.
    Diagnostics d2 = new Diagnostics();
    KarpenterManifests.read("p.yaml", POOL.formatted("gpu"), d2);
    assertThat(d2.warnings()).extracting(Object::toString).anySatisfy(w -> assertThat(w)
        .contains("NodeClass \"gpu\" (group eks.amazonaws.com) is not among the manifests read"));
  }
}
