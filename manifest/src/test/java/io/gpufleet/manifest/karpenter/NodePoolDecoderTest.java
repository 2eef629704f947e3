package io.gpufleet.manifest.karpenter;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.DisruptionReason;
import io.gpufleet.model.karpenter.NodeClaimTemplate;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.RequirementOperator;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.model.workload.IntOrPercent;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodePoolDecoderTest {

  static final String GPU_POOL = """
      apiVersion: karpenter.sh/v1
      kind: NodePool
      metadata:
        name: gpu
      spec:
        template:
          metadata:
            labels:
              team: ml
          spec:
            requirements:
            - key: karpenter.k8s.aws/instance-family
              operator: In
              values: ["g5", "g6"]
            - key: karpenter.sh/capacity-type
              operator: In
              values: ["on-demand"]
            - key: karpenter.k8s.aws/instance-gpu-count
              operator: Gte
              values: ["1"]
            taints:
            - key: nvidia.com/gpu
              value: "true"
              effect: NoSchedule
            startupTaints:
            - key: example.com/agent-not-ready
              effect: NoSchedule
            nodeClassRef:
              group: karpenter.k8s.aws
              kind: EC2NodeClass
              name: gpu
            terminationGracePeriod: 1h
        disruption:
          consolidationPolicy: WhenEmpty
          consolidateAfter: 10m
          budgets:
          - nodes: "20%"
          - nodes: "0"
            schedule: "0 9 * * mon-fri"
            duration: 8h
            reasons: [Underutilized]
        limits:
          nvidia.com/gpu: 8
        weight: 10
      ---
      apiVersion: karpenter.k8s.aws/v1
      kind: EC2NodeClass
      metadata:
        name: gpu
      spec:
        amiSelectorTerms:
        - alias: al2023@latest
      """;

  @Test
  void decodesARealGpuNodePool() {
    Diagnostics d = new Diagnostics();
    KarpenterManifests m = KarpenterManifests.read("pools.yaml", GPU_POOL, d);
    assertThat(d.errors()).isEmpty();
    assertThat(d.warnings()).isEmpty();
    NodePool pool = m.nodePools().getFirst();
    assertThat(pool.name()).isEqualTo("gpu");
    assertThat(pool.template().requirements()).hasSize(3);
    assertThat(pool.template().requirements().get(2).operator()).isEqualTo(RequirementOperator.GTE);
    assertThat(pool.template().taints()).hasSize(1);
    assertThat(pool.template().startupTaints()).hasSize(1);
    assertThat(pool.template().expireAfter()).contains(Duration.ofHours(720));
    assertThat(pool.template().terminationGracePeriod()).contains(Duration.ofHours(1));
    assertThat(pool.disruption().consolidationPolicy()).isEqualTo(ConsolidationPolicy.WHEN_EMPTY);
    assertThat(pool.disruption().consolidateAfter()).contains(Duration.ofMinutes(10));
    assertThat(pool.disruption().budgets()).hasSize(2);
    var office = pool.disruption().budgets().get(1);
    assertThat(office.reasons()).containsExactly(DisruptionReason.UNDERUTILIZED);
    assertThat(office.isActive(Instant.parse("2026-01-07T10:00:00Z"))).isTrue();
    assertThat(pool.limits().getOrZero(ResourceName.NVIDIA_GPU)).isEqualTo(Quantity.of(8));
    assertThat(pool.weightOrZero()).isEqualTo(10);
    assertThat(m.nodeClasses()).hasSize(1);
  }

  @Test
  void fillsKarpentersDefaults() {
    Diagnostics d = new Diagnostics();
    KarpenterManifests m = KarpenterManifests.read("p.yaml", """
        apiVersion: karpenter.sh/v1
        kind: NodePool
        metadata: {name: default}
        spec:
          template:
            spec:
              requirements: []
              nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
        """, d);
    NodePool pool = m.nodePools().getFirst();
    assertThat(pool.template().expireAfter()).contains(NodeClaimTemplate.DEFAULT_EXPIRE_AFTER);
    assertThat(pool.template().terminationGracePeriod()).isEmpty();
    assertThat(pool.disruption().consolidationPolicy()).isEqualTo(ConsolidationPolicy.WHEN_EMPTY_OR_UNDERUTILIZED);
    assertThat(pool.disruption().consolidateAfter()).contains(Duration.ZERO);
    assertThat(pool.disruption().budgets()).singleElement()
        .satisfies(b -> assertThat(b.nodes()).isEqualTo(new IntOrPercent.Percent(10)));
    assertThat(pool.weight()).isEmpty();
    assertThat(d.warnings()).singleElement().satisfies(w -> assertThat(w.message())
        .startsWith("EC2NodeClass \"default\" (group karpenter.k8s.aws) is not among the manifests read"));
  }

  @Test
  void reportsKarpentersValidationErrorsAtTheirLines() {
    Diagnostics d = new Diagnostics();
    KarpenterManifests.read("bad.yaml", """
        apiVersion: karpenter.sh/v1
        kind: NodePool
        metadata: {name: bad}
        spec:
          template:
            metadata:
              labels:
                karpenter.sh/team: ml
            spec:
              requirements:
              - key: node.kubernetes.io/instance-type
                operator: In
                values: []
              - key: karpenter.k8s.aws/instance-gpu-count
                operator: Gt
                values: ["-1"]
              - key: karpenter.k8s.aws/instance-family
                operator: In
                values: ["g5"]
                minValues: 2
              nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
              expireAfter: 30d
          disruption:
            consolidationPolicy: Sometimes
            budgets:
            - nodes: "150%"
            - nodes: "1"
              schedule: "@daily"
          weight: 101
        """, d);
    List<String> errors = d.errors().stream().map(ManifestProblem::toString).toList();
    assertThat(errors).containsExactly(
        "bad.yaml:8:28: spec.template.metadata.labels[karpenter.sh/team]: label domain \"karpenter.sh\" is restricted",
        "bad.yaml:13:17: spec.template.spec.requirements[0].values: requirements with operator 'In' must have a value "
            + "defined",
        "bad.yaml:16:17: spec.template.spec.requirements[1].values: requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' "
            + "must have a single positive integer value",
        "bad.yaml:20:20: spec.template.spec.requirements[2].minValues: requirements with 'minValues' must have at least "
            + "that many values specified in the 'values' field",
        "bad.yaml:22:20: spec.template.spec.expireAfter: should match '^(([0-9]+(s|m|h))+|Never)$', found \"30d\"",
        "bad.yaml:24:26: spec.disruption.consolidationPolicy: expected one of WhenEmpty, WhenEmptyOrUnderutilized, "
            + "Balanced, found \"Sometimes\"",
        "bad.yaml:26:14: spec.disruption.budgets[0].nodes: should match '^((100|[0-9]{1,2})%|[0-9]+)$', found "
            + "\"150%\"",
        "bad.yaml:27:7: spec.disruption.budgets[1]: 'schedule' must be set with 'duration'",
        "bad.yaml:29:11: spec.weight: should be in 1..100, found 101");
  }

  @Test
  void neverTurnsExpiryAndConsolidationOff() {
    Diagnostics d = new Diagnostics();
    NodePool pool = KarpenterManifests.read("p.yaml", """
        apiVersion: karpenter.sh/v1
        kind: NodePool
        metadata: {name: keep}
        spec:
          template:
            spec:
              requirements: []
              nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
              expireAfter: Never
          disruption:
            consolidateAfter: Never
        """, d).nodePools().getFirst();
    assertThat(pool.template().expireAfter()).isEmpty();
    assertThat(pool.disruption().consolidateAfter()).isEmpty();
  }
}
