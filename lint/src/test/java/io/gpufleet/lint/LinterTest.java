package io.gpufleet.lint;

import io.gpufleet.manifest.ManifestSource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpufleet.lint.rules.Rules;
import io.gpufleet.manifest.yaml.ManifestException;
import java.util.List;
import org.junit.jupiter.api.Test;

class LinterTest {

  private static LintInput input(String text) {
    return LintInput.read(List.of(new ManifestSource("in.yaml", text)));
  }

  @Test
  void aRejectionARuleExplainsIsReportedByThatRuleOnly() {
    LintInput in = Examples.read(Examples.trigger("gpu-request-equals-limit"));
    // The reader rejects both pods as the API server would ...
    assertThat(Linter.run(in, List.of(Rules.byId("manifest-rejected").orElseThrow())).findings()).hasSize(2);
    // ... and with every rule on, the GPU rule's own words replace the generic rejection.
    assertThat(Linter.run(in, Rules.all()).findings()).extracting(Finding::rule)
        .containsOnly("gpu-request-equals-limit");
  }

  @Test
  void aRejectionNoRuleExplainsStays() {
    LintInput in = input("""
        apiVersion: v1
        kind: Pod
        metadata:
          name: p
        spec:
          containers:
          - name: c
            resources:
              requests:
                cpu: "2"
              limits:
                cpu: "1"
        """);
    assertThat(Linter.run(in, Rules.all()).findings()).singleElement().satisfies(f -> {
      assertThat(f.rule()).isEqualTo("manifest-rejected");
      assertThat(f.object()).isEqualTo(new ObjectRef("Pod", "default", "p"));
      // The API server names the requests map, not the key, for a request above its limit.
      assertThat(f.field()).isEqualTo("spec.containers[0].resources.requests");
      assertThat(f.location().line()).isEqualTo(9);
    });
  }

  @Test
  void aPodNamingAPriorityClassNotInTheInputsIsRefusedAsPriorityAdmissionRefusesIt() {
    LintInput in = LintInput.read(List.of(new ManifestSource("classes.yaml", """
        apiVersion: scheduling.k8s.io/v1
        kind: PriorityClass
        metadata: {name: batch}
        value: 50
        """), new ManifestSource("pods.yaml", """
        apiVersion: v1
        kind: Pod
        metadata: {name: known}
        spec: {priorityClassName: batch, containers: [{name: c}]}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: builtin}
        spec: {priorityClassName: system-node-critical, containers: [{name: c}]}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: typo}
        spec: {priorityClassName: bacth, containers: [{name: c}]}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: zero}
        spec: {priorityClassName: batch, priority: 0, containers: [{name: c}]}
        """)));
    // A class from another input file and a built-in class resolve; the unknown name and the
    // written priority that differs from the class's value are refused in admission.go's words.
    assertThat(Linter.run(in, Rules.all()).findings()).satisfiesExactly(f -> {
      assertThat(f.rule()).isEqualTo("manifest-rejected");
      assertThat(f.object()).isEqualTo(new ObjectRef("Pod", "default", "typo"));
      assertThat(f.field()).isEqualTo("spec.priorityClassName");
      assertThat(f.message()).isEqualTo("no PriorityClass with name bacth was found");
    }, f -> {
      assertThat(f.object()).isEqualTo(new ObjectRef("Pod", "default", "zero"));
      assertThat(f.field()).isEqualTo("spec.priority");
      assertThat(f.message()).isEqualTo("the integer value of priority (0) must not be provided in pod spec; "
          + "priority admission controller computed 50 from the given PriorityClass name");
    });
  }

  @Test
  void aSecondGlobalDefaultClassIsRefusedAndNamed() {
    LintInput in = input("""
        apiVersion: scheduling.k8s.io/v1
        kind: PriorityClass
        metadata: {name: a}
        value: 10
        globalDefault: true
        ---
        apiVersion: scheduling.k8s.io/v1
        kind: PriorityClass
        metadata: {name: b}
        value: 20
        globalDefault: true
        """);
    assertThat(Linter.run(in, Rules.all()).findings()).singleElement().satisfies(f -> {
      assertThat(f.object()).isEqualTo(ObjectRef.clusterScoped("PriorityClass", "b"));
      assertThat(f.message()).isEqualTo("PriorityClass a is already marked as default. Only one default can exist");
    });
  }

  @Test
  void aDeploymentChainIsJudgedOnceThroughItsController() {
    String deployment = """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: web
        spec:
          replicas: 2
          selector:
            matchLabels: {app: web}
          template:
            metadata:
              labels: {app: web}
            spec:
              containers:
              - name: c
                resources:
                  limits: {nvidia.com/gpu: 1}
        ---
        apiVersion: apps/v1
        kind: ReplicaSet
        metadata:
          name: web-5d8f
          ownerReferences:
          - {apiVersion: apps/v1, kind: Deployment, name: web, controller: true}
        spec:
          replicas: 2
          selector:
            matchLabels: {app: web}
          template:
            metadata:
              labels: {app: web}
            spec:
              containers:
              - name: c
                resources:
                  limits: {nvidia.com/gpu: 1}
        ---
        apiVersion: v1
        kind: Pod
        metadata:
          name: web-5d8f-x2k4
          labels: {app: web}
          ownerReferences:
          - {apiVersion: apps/v1, kind: ReplicaSet, name: web-5d8f, controller: true}
        spec:
          containers:
          - name: c
            resources:
              limits: {nvidia.com/gpu: 1}
        """;
    LintInput in = input(deployment);
    assertThat(in.podSites()).extracting(s -> s.owner().ref().toString()).containsExactly("Deployment/default/web");
    assertThat(Linter.run(in, List.of(Rules.byId("service-without-pdb").orElseThrow())).findings())
        .extracting(f -> f.object().toString()).containsExactly("Deployment/default/web");
  }

  @Test
  void findingsFollowTheFilesAsGivenThenLines() {
    LintInput in = LintInput.read(List.of(Examples.source(Examples.trigger("gpu-whole-units")),
        Examples.source(Examples.trigger("gpu-request-equals-limit"))));
    List<Finding> findings = Linter.run(in, Rules.all()).findings();
    assertThat(findings).extracting(f -> f.location().file()).containsExactly(
        Examples.trigger("gpu-whole-units").toString(), Examples.trigger("gpu-request-equals-limit").toString(),
        Examples.trigger("gpu-request-equals-limit").toString());
    assertThat(findings.get(1).location().line()).isLessThan(findings.get(2).location().line());
  }

  @Test
  void selectingRules() {
    List<LintRule> all = Rules.all();
    assertThat(Linter.select(all, List.of(), List.of())).hasSameSizeAs(all);
    assertThat(Linter.select(all, List.of(), List.of("service-without-pdb"))).extracting(LintRule::id)
        .doesNotContain("service-without-pdb").hasSize(all.size() - 1);
    assertThatThrownBy(() -> Linter.select(all, List.of("no-such-rule"), List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown rule \"no-such-rule\"")
        .hasMessageContaining("gpu-whole-units");
  }

  @Test
  void failOnCountsFindingsAtOrAboveTheThreshold() {
    Linter.Result r = Linter.run(Examples.read(Examples.trigger("service-without-pdb")), Rules.all());
    assertThat(r.findings()).extracting(Finding::severity).containsOnly(Severity.WARNING);
    assertThat(r.hasAtLeast(Severity.INFO)).isTrue();
    assertThat(r.hasAtLeast(Severity.WARNING)).isTrue();
    assertThat(r.hasAtLeast(Severity.ERROR)).isFalse();
  }

  @Test
  void yamlThatDoesNotParseStopsTheRead() {
    assertThatThrownBy(() -> input("kind: [Pod\n")).isInstanceOf(ManifestException.class)
        .hasMessageContaining("in.yaml:");
  }
}
