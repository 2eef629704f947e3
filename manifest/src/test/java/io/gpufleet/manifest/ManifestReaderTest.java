package io.gpufleet.manifest;

import io.gpufleet.model.pod.PreemptionPolicy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.workload.Workload;
import java.util.List;
import org.junit.jupiter.api.Test;

class ManifestReaderTest {

  private final ManifestReader reader = new ManifestReader();

  private static List<String> errors(Runnable r) {
    try {
      r.run();
    } catch (ManifestException e) {
      return e.problems().stream().map(ManifestProblem::toString).toList();
    }
    throw new AssertionError("expected a ManifestException");
  }

  @Test
  void readsNodesWithTaintsLabelsAndAllocatable() {
    ManifestBundle b = reader.read("c.yaml", """
        apiVersion: v1
        kind: Node
        metadata:
          name: gpu-1
          labels: {nvidia.com/gpu.product: NVIDIA-A10G, nvidia.com/gpu.memory: "23028"}
        spec:
          taints: [{key: nvidia.com/gpu, value: "true", effect: NoSchedule}]
        status:
          capacity: {cpu: "4", memory: 16Gi, nvidia.com/gpu: "1", pods: "58"}
          allocatable: {cpu: 3920m, memory: 14162Mi, nvidia.com/gpu: "1", pods: "58"}
        """);
    Node n = b.nodes().getFirst();
    assertThat(n.name()).isEqualTo("gpu-1");
    assertThat(n.labels().get("nvidia.com/gpu.memory")).contains("23028");
    assertThat(n.taints().getFirst().effect()).isEqualTo(TaintEffect.NO_SCHEDULE);
    assertThat(n.allocatable().getOrZero(ResourceName.CPU)).isEqualTo(Quantity.parse("3920m"));
    assertThat(n.capacity().getOrZero(ResourceName.MEMORY)).isEqualTo(Quantity.parse("16Gi"));
  }

  @Test
  void aNodeWithoutAPodsFigureGetsTheKubeletDefault() {
    Node n = reader.read("c.yaml", """
        apiVersion: v1
        kind: Node
        metadata: {name: n}
        status: {capacity: {cpu: "2", memory: 4Gi}}
        """).nodes().getFirst();
    assertThat(n.allocatable().getOrZero(ResourceName.PODS)).isEqualTo(Quantity.of(110));
    assertThat(n.allocatable().getOrZero(ResourceName.CPU)).isEqualTo(Quantity.of(2));
  }

  @Test
  void syntaxErrorsNameFileLineAndColumn() {
    assertThat(errors(() -> reader.read("bad.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: [x\n")))
        .containsExactly("bad.yaml:4:1: invalid YAML: while parsing a flow sequence: "
            + "expected ',' or ']', but got <stream end>");
  }

  @Test
  void aMalformedQuantityIsReportedWhereItIsWritten() {
    assertThat(errors(() -> reader.read("pod.yaml", """
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
          containers:
          - name: c
            resources:
              requests: {cpu: 2 cores}
        """))).containsExactly("pod.yaml:8:23: spec.containers[0].resources.requests[cpu]: expected a quantity such "
        + "as 500m, 2, 1.5, 16Gi or 1e3, found \"2 cores\": " + Quantity.FORMAT_MESSAGE);
  }

  @Test
  void namesNamespacesAndLabelsAreCheckedAsValidateObjectMetaDoes() {
    assertThat(errors(() -> reader.read("pod.yaml", """
        apiVersion: v1
        kind: Pod
        metadata:
          name: Bad_Name!
          namespace: Team
          labels: {"bad key!": ok, app: "bad value!"}
        spec:
          containers: [{name: c, image: i}]
        """))).satisfiesExactly(
        e -> assertThat(e).startsWith("pod.yaml:4:9: metadata.name: Invalid value: \"Bad_Name!\": a lowercase RFC 1123 "
            + "subdomain must consist of"),
        e -> assertThat(e).startsWith("pod.yaml:5:14: metadata.namespace: Invalid value: \"Team\": a lowercase RFC 1123 "
            + "label must consist of"),
        e -> assertThat(e).startsWith("pod.yaml:6:24: metadata.labels: Invalid value: \"bad key!\": name part must "
            + "consist of"),
        e -> assertThat(e).startsWith("pod.yaml:6:33: metadata.labels: Invalid value: \"bad value!\": a valid label "
            + "must be"));
  }

  @Test
  void aFileWithNoObjectsIsSaidNotSilentlyFine() {
    ManifestBundle b = reader.read("empty.yaml", "# only a comment\n");
    assertThat(b.warnings()).extracting(Object::toString).singleElement().asString()
        .contains("empty.yaml").contains("no objects: the file is empty or holds only comments");
  }

  @Test
  void nodeQuantitiesAreCheckedAsTheApiServerDoes() {
    assertThat(errors(() -> reader.read("node.yaml", """
        apiVersion: v1
        kind: Node
        metadata: {name: n}
        status:
          capacity: {cpu: "8", memory: 32Gi, nvidia.com/gpu: "-1", pods: "110"}
          allocatable: {cpu: "-1", memory: 30Gi, nvidia.com/gpu: "0.5", pods: "1.5"}
        """))).containsExactly(
        "node.yaml:5:54: status.capacity[nvidia.com/gpu]: Invalid value: \"-1\": must be greater than or equal to 0",
        "node.yaml:6:22: status.allocatable[cpu]: Invalid value: \"-1\": must be greater than or equal to 0",
        "node.yaml:6:58: status.allocatable[nvidia.com/gpu]: Invalid value: \"500m\": must be an integer",
        "node.yaml:6:71: status.allocatable[pods]: Invalid value: \"1500m\": must be an integer");
  }

  @Test
  void gpuRequestsWithoutLimitsFailValidationAtTheirLine() {
    assertThat(errors(() -> reader.read("pod.yaml", """
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
          containers:
          - name: c
            resources:
              requests:
                nvidia.com/gpu: 1
          - name: d
            resources:
              requests: {nvidia.com/gpu: 1}
              limits: {nvidia.com/gpu: 2}
        """))).containsExactly(
        "pod.yaml:7:5: spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources",
        "pod.yaml:12:7: spec.containers[1].resources.requests: Invalid value: \"1\": must be equal to "
            + "nvidia.com/gpu limit of 2");
  }

  @Test
  void selectorsAndNodeAffinityAreCheckedAsTheApiServerDoes() {
    assertThat(errors(() -> reader.read("p.yaml", """
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
          containers: [{name: c, resources: {limits: {kubernetes.io/bandwidth: 1}}}]
          nodeSelector: {"bad key!": a100}
          affinity:
            nodeAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
                nodeSelectorTerms:
                - matchExpressions: [{key: gpu, operator: In}, {key: gpu, operator: Exists, values: [a]}]
                  matchFields: [{key: metadata.namespace, operator: In, values: [n1, n2]}]
              preferredDuringSchedulingIgnoredDuringExecution:
              - {weight: 0, preference: {matchExpressions: [{key: gpu, operator: In, values: ["not valid!"]}]}}
            podAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
              - labelSelector: {matchExpressions: [{key: app, operator: Gt, values: ["1"]}]}
                topologyKey: zone
        """))).containsExactly(
        "p.yaml:6:3: spec.nodeSelector: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, "
            + "'-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
            + "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        "p.yaml:11:30: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]"
            + ".matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
        "p.yaml:11:85: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]"
            + ".matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        "p.yaml:12:31: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]"
            + ".matchFields[0].key: Invalid value: \"metadata.namespace\": not a valid field selector key",
        "p.yaml:12:65: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]"
            + ".matchFields[0].values: Required value: must be only one value when `operator` is 'In' or 'NotIn' for "
            + "node field selector",
        // Preferred terms keep invalid label values (upstream allows them); the weight is checked.
        "p.yaml:14:18: spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid "
            + "value: \"0\": must be in the range 1-100",
        "p.yaml:17:65: spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector"
            + ".matchExpressions[0].operator: Invalid value: \"Gt\": not a valid selector operator");
  }

  @Test
  void workloadSelectorsAndTemplateLabelsAreChecked() {
    assertThat(errors(() -> reader.read("d.yaml", """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: d}
        spec:
          selector:
            matchLabels: {app: web}
            matchExpressions: [{key: tier, operator: NotIn, values: ["front end"]}, {key: app, operator: Bogus}]
          template:
            metadata: {labels: {app: web, "tier!": a}}
            spec: {containers: [{name: c}]}
        """))).satisfiesExactly(
        e -> assertThat(e).startsWith("d.yaml:7:62: spec.selector.matchExpressions[0].values[0]: Invalid value: "
            + "\"front end\": a valid label must be an empty string or consist of"),
        e -> assertThat(e).isEqualTo("d.yaml:7:98: spec.selector.matchExpressions[1].operator: Invalid value: \"Bogus\": "
            + "not a valid selector operator"),
        e -> assertThat(e).startsWith("d.yaml:9:24: spec.template.labels: Invalid value: \"tier!\": name part must "
            + "consist of"));
  }

  @Test
  void nodeImagesKeepTheirNamesAndSizesForImageLocality() {
    var node = reader.read("n.yaml", """
        apiVersion: v1
        kind: Node
        metadata: {name: n}
        status:
          images:
          - names: [docker.io/vllm/vllm-openai:v0.6.3, vllm/vllm-openai:v0.6.3]
            sizeBytes: 9663676416
        """).nodes().getFirst();
    assertThat(node.image("vllm/vllm-openai:v0.6.3")).hasValueSatisfying(i -> assertThat(i.sizeBytes())
        .isEqualTo(9_663_676_416L));
    assertThat(node.image("vllm/vllm-openai:latest")).isEmpty();
  }

  @Test
  void unquotedBooleansWhereStringsBelongAreRejectedWithAHint() {
    assertThat(errors(() -> reader.read("n.yaml", """
        apiVersion: v1
        kind: Node
        metadata:
          name: n
          labels:
            nvidia.com/gpu.present: true
        """))).containsExactly("n.yaml:6:29: metadata.labels[nvidia.com/gpu.present]: expected a string, found the "
        + "boolean true (quote it: \"true\")");
  }

  @Test
  void duplicateKeysAreErrors() {
    assertThat(errors(() -> reader.read("d.yaml", "apiVersion: v1\nkind: Pod\nkind: Node\n")))
        .singleElement().asString().startsWith("d.yaml:3:1: kind: duplicate key \"kind\" (first at line 2)");
  }

  @Test
  void badOperatorsAndEffectsAreNamed() {
    assertThat(errors(() -> reader.read("p.yaml", """
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
          containers: [{name: c}]
          tolerations: [{key: nvidia.com/gpu, operator: Exist, effect: NoSchedule}]
          affinity:
            nodeAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
                nodeSelectorTerms:
                - matchExpressions: [{key: nvidia.com/gpu.memory, operator: Gt, values: ["40GB"]}]
        """))).containsExactly(
        "p.yaml:6:49: spec.tolerations[0].operator: expected Equal or Exists, found \"Exist\"",
        // The API server accepts it; kube-scheduler's parser (labels.NewRequirement) cannot match it.
        "p.yaml:11:82: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]"
            + ".matchExpressions[0].values[0]: Invalid value: \"40GB\": for 'Gt', 'Lt' operators, the value must be an "
            + "integer");
  }

  @Test
  void workloadsListsAndPriorityClasses() {
    ManifestBundle b = reader.read("w.yaml", """
        apiVersion: scheduling.k8s.io/v1
        kind: PriorityClass
        metadata: {name: inference}
        value: 100000
        ---
        apiVersion: v1
        kind: List
        items:
        - apiVersion: apps/v1
          kind: Deployment
          metadata: {name: vllm}
          spec:
            replicas: 2
            selector: {matchLabels: {app: vllm}}
            template:
              metadata: {labels: {app: vllm}}
              spec:
                priorityClassName: inference
                containers: [{name: vllm, image: vllm, resources: {limits: {nvidia.com/gpu: 1}}}]
        - apiVersion: karpenter.sh/v1
          kind: NodePool
          metadata: {name: gpu}
        """);
    Workload.Deployment d = (Workload.Deployment) b.workloads().getFirst();
    assertThat(d.replicas()).isEqualTo(2);
    assertThat(d.template().spec().priority()).isEqualTo(100000);
    assertThat(b.others()).extracting(o -> o.kind()).containsExactly("NodePool");
  }

  @Test
  void anUnknownPriorityClassIsAnError() {
    assertThat(errors(() -> reader.read("p.yaml", """
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
          priorityClassName: gold
          containers: [{name: c}]
        """))).containsExactly("p.yaml:1:1: spec.priorityClassName: no PriorityClass with name gold was found");
  }

  /** Pods of the admission tests: one naming {@code class}, or none when it is empty. */
  private static String podNaming(String name, String priorityClass, String extra) {
    return "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + "}\nspec:\n"
        + (priorityClass.isEmpty() ? "" : "  priorityClassName: " + priorityClass + "\n") + extra
        + "  containers: [{name: c}]\n";
  }

  private static final String BATCH_NEVER = """
      apiVersion: scheduling.k8s.io/v1
      kind: PriorityClass
      metadata: {name: batch}
      value: 50
      preemptionPolicy: Never
      ---
      """;

  @Test
  void aClassGivesItsValueAndItsPreemptionPolicy() {
    ManifestBundle b = reader.read("p.yaml", BATCH_NEVER + podNaming("p", "batch", "") + "---\n"
        + podNaming("q", "system-node-critical", "") + "---\n" + podNaming("r", "", ""));
    assertThat(b.pods()).extracting(pod -> pod.name() + " " + pod.spec().priority() + " "
        + pod.spec().preemptionPolicy()).containsExactly("p 50 NEVER", "q 2000001000 PREEMPT_LOWER_PRIORITY",
        "r 0 PREEMPT_LOWER_PRIORITY");
  }

  @Test
  void aPodNamingNoClassGetsTheGlobalDefaultWithItsNameAndPolicy() {
    ManifestBundle b = reader.read("p.yaml", BATCH_NEVER.replace("value: 50", "value: 50\nglobalDefault: true")
        + podNaming("p", "", ""));
    assertThat(b.pods().getFirst().spec().priority()).isEqualTo(50);
    assertThat(b.pods().getFirst().spec().priorityClassName()).contains("batch");
    assertThat(b.pods().getFirst().spec().preemptionPolicy()).isEqualTo(PreemptionPolicy.NEVER);
  }

  @Test
  void aSecondGlobalDefaultIsRefusedAsTheApiServerRefusesIt() {
    assertThat(errors(() -> reader.read("p.yaml", """
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
        """))).containsExactly("p.yaml:7:1: globalDefault: PriorityClass a is already marked as default. "
        + "Only one default can exist");
  }

  @Test
  void aPodContradictingItsClassIsRefusedInTheAdmissionPluginsWords() {
    assertThat(errors(() -> reader.read("p.yaml", BATCH_NEVER.replace("preemptionPolicy: Never\n", "")
        + podNaming("p", "batch", "  priority: 7\n") + "---\n" + podNaming("q", "batch", "  preemptionPolicy: Never\n"))))
        .containsExactly(
            "p.yaml:6:1: spec.priority: the integer value of priority (7) must not be provided in pod spec; "
                + "priority admission controller computed 50 from the given PriorityClass name",
            "p.yaml:14:1: spec.preemptionPolicy: the string value of PreemptionPolicy (Never) must not be provided "
                + "in pod spec; priority admission controller computed PreemptLowerPriority from the given "
                + "PriorityClass name");
  }

  @Test
  void aWrittenZeroPriorityOrDefaultPolicyIsAWrittenValueAndMustMatchTheClass() {
    // spec.priority and spec.preemptionPolicy are pointers upstream: written as 0 or as
    // PreemptLowerPriority they are not omitted, and admission compares them with the class's.
    assertThat(errors(() -> reader.read("p.yaml", BATCH_NEVER + podNaming("p", "batch", "  priority: 0\n")
        + "---\n" + podNaming("q", "batch", "  priority: 50\n  preemptionPolicy: PreemptLowerPriority\n")
        + "---\n" + podNaming("r", "", "  priority: 0\n  preemptionPolicy: PreemptLowerPriority\n")
        + "---\n" + podNaming("s", "batch", "  priority: 50\n  preemptionPolicy: Never\n"))))
        .containsExactly(
            "p.yaml:7:1: spec.priority: the integer value of priority (0) must not be provided in pod spec; "
                + "priority admission controller computed 50 from the given PriorityClass name",
            "p.yaml:15:1: spec.preemptionPolicy: the string value of PreemptionPolicy (PreemptLowerPriority) must not "
                + "be provided in pod spec; priority admission controller computed Never from the given "
                + "PriorityClass name");
  }

  @Test
  void aWorkloadTemplatesWrittenZeroPriorityIsCheckedToo() {
    assertThat(errors(() -> reader.read("d.yaml", BATCH_NEVER + """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: d}
        spec:
          selector: {matchLabels: {app: a}}
          template:
            metadata: {labels: {app: a}}
            spec: {priorityClassName: batch, priority: 0, containers: [{name: c}]}
        """))).containsExactly("d.yaml:7:1: spec.template.spec.priority: the integer value of priority (0) must not "
        + "be provided in pod spec; priority admission controller computed 50 from the given PriorityClass name");
  }

  @Test
  void aClassesPreemptionPolicyIsChecked() {
    assertThat(errors(() -> reader.read("p.yaml", BATCH_NEVER.replace("Never", "Sometimes"))))
        .singleElement().asString().contains("p.yaml:5:").contains("expected PreemptLowerPriority or Never, found \"Sometimes\"");
  }

  @Test
  void selectorsMustMatchTheirTemplate() {
    assertThat(errors(() -> reader.read("d.yaml", """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: d}
        spec:
          selector: {matchLabels: {app: a}}
          template:
            metadata: {labels: {app: b}}
            spec: {containers: [{name: c}]}
        """))).singleElement().asString().contains("`selector` does not match template `labels`");
  }

  @Test
  void missingFilesAreReportedByName() {
    assertThatThrownBy(() -> reader.read(List.of(java.nio.file.Path.of("no-such.yaml")), System.in))
        .isInstanceOf(ManifestException.class).hasMessage("no-such.yaml: no such file or directory");
  }
}
