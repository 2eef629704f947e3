package io.gpufleet.lint;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.lint.rules.Rules;
import io.gpufleet.manifest.ManifestSource;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Rules about disruption stay quiet where the input already forbids the disruption (budgets of 0
 * at all times, do-not-disrupt, a PDB that allows no eviction) and speak where it only seems to.
 */
class DisruptionsRespectedTest {

  /**
   * The fields a rule's findings name, for a g5 NodePool (its disruption block, its template's
   * metadata, more of its template's spec) and a GPU Deployment (its replicas, pod annotations, PDB).
   */
  private static List<String> findings(String rule, String disruption, String poolMeta, String poolSpec,
      String podAnnotations, int replicas, String pdb) {
    String text = """
        apiVersion: karpenter.sh/v1
        kind: NodePool
        metadata:
          name: gpu
        spec:
          template:
        %s
            spec:
              requirements:
              - key: karpenter.k8s.aws/instance-family
                operator: In
                values: ["g5"]
              nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
              taints: [{key: nvidia.com/gpu, value: "true", effect: NoSchedule}]
              expireAfter: 720h
        %s
          limits:
            nvidia.com/gpu: 8
          disruption:
        %s
        ---
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: vllm
        spec:
          replicas: %d
          selector:
            matchLabels: {app: vllm}
          template:
            metadata:
              labels: {app: vllm}
              annotations: {%s}
            spec:
              tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
              containers:
              - name: vllm
                image: vllm/vllm-openai:v0.6.3
                resources:
                  limits: {nvidia.com/gpu: 1}
        ---
        apiVersion: policy/v1
        kind: PodDisruptionBudget
        metadata:
          name: vllm
        spec:
          %s
          selector:
            matchLabels: {app: vllm}
        """.formatted(indent(poolMeta.isEmpty() ? "" : "metadata: " + poolMeta, 4), indent(poolSpec, 6),
        indent(disruption, 4), replicas, podAnnotations, pdb);
    LintInput in = LintInput.read(List.of(new ManifestSource("in.yaml", text)));
    assertThat(in.rejected()).as("the test's own manifests are valid").isEmpty();
    return Linter.run(in, List.of(Rules.byId(rule).orElseThrow())).findings().stream().map(Finding::field).toList();
  }

  private static String indent(String s, int n) {
    return s.isEmpty() ? "" : s.indent(n).stripTrailing();
  }

  private static List<String> consolidation(String disruption) {
    return consolidation(disruption, "", "");
  }

  private static List<String> consolidation(String disruption, String podAnnotations, String poolMeta) {
    return findings("inference-pool-consolidation", disruption, poolMeta, "", podAnnotations, 2, "maxUnavailable: 1");
  }

  private static final String DEFAULTS = "consolidationPolicy: WhenEmptyOrUnderutilized\nconsolidateAfter: 0s\n";
  private static final String POLICY = "spec.disruption.consolidationPolicy";
  private static final String AFTER = "spec.disruption.consolidateAfter";

  @Test
  void withoutBudgetsBothFindingsStand() {
    assertThat(consolidation(DEFAULTS)).containsExactly(POLICY, AFTER);
  }

  @Test
  void aZeroBudgetForEveryReasonForbidsAllConsolidation() {
    assertThat(consolidation(DEFAULTS + "budgets: [{nodes: \"0\"}]")).isEmpty();
    assertThat(consolidation(DEFAULTS + "budgets: [{nodes: \"0%\"}]")).isEmpty();
  }

  @Test
  void aZeroBudgetForUnderutilizedOnlyLeavesEmptinessAtZeroSeconds() {
    assertThat(consolidation(DEFAULTS + "budgets: [{nodes: \"0\", reasons: [Underutilized]}]"))
        .containsExactly(AFTER);
    assertThat(consolidation(DEFAULTS + "budgets: [{nodes: \"0\", reasons: [Underutilized, Empty]}]")).isEmpty();
  }

  @Test
  void aZeroBudgetForAnotherReasonOrANonZeroOneForbidsNothing() {
    assertThat(consolidation(DEFAULTS + "budgets: [{nodes: \"0\", reasons: [Drifted]}]"))
        .containsExactly(POLICY, AFTER);
    assertThat(consolidation(DEFAULTS + "budgets: [{nodes: \"1\"}]")).containsExactly(POLICY, AFTER);
  }

  @Test
  void aZeroBudgetWithinAWindowOnlyForbidsNothingOutsideIt() {
    assertThat(consolidation(DEFAULTS + "budgets: [{nodes: \"0\", schedule: \"0 9 * * 1-5\", duration: 8h}]"))
        .containsExactly(POLICY, AFTER);
  }

  @Test
  void podsKarpenterMayNotEvictKeepTheirNodesFromReplacementButNotFromEmptiness() {
    assertThat(consolidation(DEFAULTS, "karpenter.sh/do-not-disrupt: \"true\"", "")).containsExactly(AFTER);
    // Karpenter compares the value with "true" (HasDoNotDisrupt).
    assertThat(consolidation(DEFAULTS, "karpenter.sh/do-not-disrupt: \"yes\"", "")).containsExactly(POLICY, AFTER);
    assertThat(findings("inference-pool-consolidation", DEFAULTS, "", "", "", 2, "maxUnavailable: 0"))
        .containsExactly(AFTER);
    assertThat(findings("inference-pool-consolidation", DEFAULTS, "", "", "", 2, "minAvailable: 2"))
        .containsExactly(AFTER);
    assertThat(findings("inference-pool-consolidation", DEFAULTS, "", "", "", 2, "minAvailable: 1"))
        .containsExactly(POLICY, AFTER);
  }

  @Test
  void nodesAnnotatedDoNotDisruptAreNoCandidates() {
    assertThat(consolidation(DEFAULTS, "", "{annotations: {karpenter.sh/do-not-disrupt: \"true\"}}")).isEmpty();
  }

  @Test
  void expiryWaitsForPodsItMayNotEvictUnlessTheNodePoolSetsATerminationGracePeriod() {
    String policy = "consolidationPolicy: WhenEmpty\nconsolidateAfter: 10m";
    assertThat(findings("expiry-without-survivor", policy, "", "", "", 1, "minAvailable: 1"))
        .as("one replica held by its PDB, no terminationGracePeriod").isEmpty();
    assertThat(findings("expiry-without-survivor", policy, "", "", "karpenter.sh/do-not-disrupt: \"true\"", 1,
        "maxUnavailable: 1")).as("do-not-disrupt, no terminationGracePeriod").isEmpty();
    assertThat(findings("expiry-without-survivor", policy, "", "terminationGracePeriod: 1h", "", 1,
        "minAvailable: 1")).as("terminationGracePeriod ends the wait").containsExactly("spec.template.spec.expireAfter");
    assertThat(findings("expiry-without-survivor", policy, "", "", "", 1, "maxUnavailable: 1"))
        .as("one replica the drain may evict").containsExactly("spec.template.spec.expireAfter");
  }
}
