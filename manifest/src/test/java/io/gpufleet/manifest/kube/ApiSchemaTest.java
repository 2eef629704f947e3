package io.gpufleet.manifest.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.manifest.ManifestBundle;
import io.gpufleet.manifest.ManifestReader;
import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.manifest.yaml.ManifestProblem;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Unknown fields, apiVersion per kind and misspelt kinds, as kubectl --validate reports them. */
class ApiSchemaTest {

  private static final String POD_WITH_TYPOS = """
      apiVersion: v1
      kind: Pod
      metadata: {name: web, namespace: serving}
      spec:
        nodeSelecter: {gpu: h100}
        containers:
        - name: c
          resourcez: {limits: {nvidia.com/gpu: 1}}
          livenessProbe: {httpGet: {path: /healthz, port: 8080}}
      status:
        phase: Running
        conditions: [{type: Ready, status: "True"}]
      """;

  private static List<String> warnings(String yaml) {
    return new ManifestReader().read("m.yaml", yaml).warnings().stream().map(ManifestProblem::toString).toList();
  }

  private static List<String> errors(boolean strict, String yaml) {
    try {
      new ManifestReader(strict).read("m.yaml", yaml);
    } catch (ManifestException e) {
      return e.problems().stream().map(ManifestProblem::toString).toList();
    }
    throw new AssertionError("expected errors");
  }

  @Test
  void unknownFieldsAreWarningsAtTheirKeyNamingFieldAndObject() {
    assertThat(warnings(POD_WITH_TYPOS)).containsExactly(
        "m.yaml:5:3: warning: spec.nodeSelecter: unknown field \"nodeSelecter\" in Pod serving/web "
            + "(ignored; --strict makes this an error)",
        "m.yaml:8:5: warning: spec.containers[0].resourcez: unknown field \"resourcez\" in Pod serving/web "
            + "(ignored; --strict makes this an error)");
  }

  @Test
  void strictMakesThemErrors() {
    assertThat(errors(true, POD_WITH_TYPOS)).containsExactly(
        "m.yaml:5:3: spec.nodeSelecter: unknown field \"nodeSelecter\" in Pod serving/web",
        "m.yaml:8:5: spec.containers[0].resourcez: unknown field \"resourcez\" in Pod serving/web");
  }

  @Test
  void fieldsTheApiHasButTheTwinDoesNotModelAreNotUnknown() {
    // Every field of a realistic dump object: probes, volumes, status, managedFields, ownerReferences.
    assertThat(warnings("""
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: vllm
          uid: 1b2c
          generation: 3
          managedFields: [{manager: kubectl, operation: Apply, fieldsV1: {f:spec: {f:replicas: {}}}}]
          ownerReferences: []
        spec:
          replicas: 2
          revisionHistoryLimit: 10
          progressDeadlineSeconds: 600
          selector: {matchLabels: {app: vllm}}
          strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 25%, maxUnavailable: 0}}
          template:
            metadata: {labels: {app: vllm}, annotations: {prometheus.io/scrape: "true"}}
            spec:
              containers:
              - name: vllm
                image: vllm/vllm-openai:v0.6.3
                args: [--model, meta-llama/Llama-3.1-8B]
                env: [{name: HF_HOME, value: /cache}]
                ports: [{containerPort: 8000, name: http, protocol: TCP}]
                readinessProbe: {httpGet: {path: /health, port: http}, periodSeconds: 5}
                resources: {limits: {nvidia.com/gpu: 1}}
                volumeMounts: [{name: cache, mountPath: /cache}]
              volumes: [{name: cache, emptyDir: {sizeLimit: 20Gi}}]
              dnsPolicy: ClusterFirst
              restartPolicy: Always
              securityContext: {runAsNonRoot: true}
        status:
          observedGeneration: 3
          replicas: 2
          readyReplicas: 2
          conditions: [{type: Available, status: "True", reason: MinimumReplicasAvailable}]
        """)).isEmpty();
  }

  @Test
  void aTemplateTypoIsReportedUnderTheWorkload() {
    assertThat(warnings("""
        apiVersion: batch/v1
        kind: Job
        metadata: {name: train}
        spec:
          template:
            spec:
              restartPolicy: Never
              tolerations: [{key: nvidia.com/gpu, operator: Exists, efect: NoSchedule}]
              containers: [{name: c}]
        """)).containsExactly("m.yaml:8:61: warning: spec.template.spec.tolerations[0].efect: unknown field \"efect\" "
        + "in Job default/train (ignored; --strict makes this an error)");
  }

  @Test
  void aNodeAtApiVersionV2IsAnErrorNamingV1() {
    assertThat(errors(false, """
        apiVersion: v2
        kind: Node
        metadata: {name: gpu-1}
        """)).containsExactly("m.yaml:1:13: apiVersion: expected v1 for kind Node, found \"v2\"");
  }

  @Test
  void aDeploymentAtAnOldVersionIsAnErrorToo() {
    assertThat(errors(false, """
        apiVersion: extensions/v1beta1
        kind: Deployment
        metadata: {name: web}
        spec: {}
        """)).containsExactly("m.yaml:1:13: apiVersion: expected apps/v1 for kind Deployment, found \"extensions/v1beta1\"");
  }

  @Test
  void aMisspeltKindIsAnErrorWithTheLikelyKind() {
    assertThat(errors(false, """
        apiVersion: apps/v1
        kind: Deploymnet
        metadata: {name: web}
        """)).containsExactly("m.yaml:2:7: kind: unknown kind \"Deploymnet\" in apps/v1 (did you mean Deployment?)");
  }

  @Test
  void aBuiltInKindAtAWrongVersionIsAnError() {
    assertThat(errors(false, """
        apiVersion: v2
        kind: Service
        metadata: {name: web}
        """)).containsExactly("m.yaml:1:13: apiVersion: expected v1 for kind Service, found \"v2\"");
  }

  @Test
  void otherBuiltInKindsAndOtherProjectsResourcesAreKeptForTheCommandToSkip() {
    ManifestBundle b = new ManifestReader().read("m.yaml", """
        apiVersion: v1
        kind: Service
        metadata: {name: web}
        ---
        apiVersion: monitoring.coreos.com/v1
        kind: ServiceMonitor
        metadata: {name: web}
        ---
        apiVersion: karpenter.sh/v1
        kind: NodeClaim
        metadata: {name: gpu-abc12}
        """);
    assertThat(b.others()).extracting(KubeObject.OtherObject::kind).containsExactly("Service", "ServiceMonitor",
        "NodeClaim");
    assertThat(b.warnings()).isEmpty();
  }

  @Test
  void fieldsThatChangeTheAnswerButAreNotModelledAreWarningsSayingSo() {
    // schedulingGates, host ports and runtimeClassName are modelled now (the API server's chain and
    // the scheduler's SchedulingGates and NodePorts): no warning; a claim's volume is not.
    assertThat(warnings("""
        apiVersion: v1
        kind: Pod
        metadata: {name: gated}
        spec:
          schedulingGates: [{name: example.com/quota}]
          containers: [{name: c, ports: [{containerPort: 80, hostPort: 80}]}]
          volumes: [{name: v, persistentVolumeClaim: {claimName: data}}]
        """)).containsExactly(
        "m.yaml:7:46: warning: spec.volumes[0].persistentVolumeClaim: not modelled by gpufleet: volume binding and "
            + "the zone of a PersistentVolumeClaim's volume do not constrain where the pod is placed");
  }

  /**
   * Each decoded kind's fields come from a file of its own: a file the class path lacked would
   * leave that kind's typos unreported in silence, so every kind is checked for a known field and a
   * misspelt one, the workloads also inside their template (the PodTemplate file).
   */
  @Test
  void everyDecodedKindHasItsFieldsIncludingTheTemplatesOfWorkloads() {
    ApiSchema schema = new ApiSchema();
    for (String kind : List.of("Pod", "Node", "ConfigMap", "Deployment", "ReplicaSet", "StatefulSet", "DaemonSet",
        "Job", "PodDisruptionBudget", "PriorityClass", "Namespace", "RuntimeClass")) {
      String template = List.of("Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "Job").contains(kind)
          ? "spec: {template: {metadata: {labels: {a: b}, nmae: x}}}\n"
          : "";
      var doc = new io.gpufleet.manifest.yaml.YamlReader().readAll("m.yaml",
          "metadata: {name: x, nam: y}\n" + template).getFirst();
      assertThat(schema.unknownFields(kind, doc)).as(kind).extracting(ApiSchema.UnknownField::path)
          .containsExactlyElementsOf(template.isEmpty() ? List.of("metadata.nam")
              : List.of("metadata.nam", "spec.template.metadata.nmae"));
    }
    // A kind of no file (another project's resource) has no fields to check, whatever its name.
    var doc = new io.gpufleet.manifest.yaml.YamlReader().readAll("m.yaml", "spec: {a: b}\n").getFirst();
    assertThat(schema.unknownFields("Widget", doc)).isEmpty();
    assertThat(schema.unknownFields("../api-fields/Pod", doc)).isEmpty();
  }

  @Test
  void distanceCountsATranspositionAsOneEdit() {
    assertThat(ApiSchema.distance("Deploymnet", "Deployment")).isEqualTo(1);
    assertThat(ApiSchema.distance("Pdo", "Pod")).isEqualTo(1);
    assertThat(ApiSchema.distance("Node", "Job")).isEqualTo(3);
  }
  /**
   * kubectl's YAML-to-JSON step: an infinite or NaN float has no JSON form and the document is
   * refused, at the value's position; a float too large for a float64 stays a string (go-yaml), so
   * memory: 1e400 is the quantity 10^400, not capped as a binary quantity would be.
   */
  @Test
  void infinitiesAndNaNAreRefusedAsKubectlsYamlToJsonStepDoes() {
    assertThat(errors(false, """
        apiVersion: v1
        kind: Pod
        metadata: {name: p, labels: {a: .inf}}
        spec:
          containers:
          - {name: c, image: busybox, resources: {requests: {cpu: -.Inf, memory: .nan}}}
        """)).containsExactly(
        "m.yaml:3:33: metadata.labels.a: error converting YAML to JSON: json: unsupported value: +Inf "
            + "(kubectl refuses infinities and NaN; quote it, \".inf\", for a string)",
        "m.yaml:6:59: spec.containers[0].resources.requests.cpu: error converting YAML to JSON: json: "
            + "unsupported value: -Inf (kubectl refuses infinities and NaN; quote it, \"-.Inf\", for a string)",
        "m.yaml:6:74: spec.containers[0].resources.requests.memory: error converting YAML to JSON: json: "
            + "unsupported value: NaN (kubectl refuses infinities and NaN; quote it, \".nan\", for a string)");
    // Quoted, the same text is a string; unquoted 1e400 is a quantity.
    ManifestBundle huge = new ManifestReader().read("m.yaml", """
        apiVersion: v1
        kind: Pod
        metadata: {name: p, annotations: {note: "-.Inf", other: '.nan'}}
        spec:
          containers:
          - {name: c, image: busybox, resources: {requests: {memory: 1e400, cpu: 1.5e3}}}
        """);
    var requests = huge.pods().getFirst().spec().containers().getFirst().requests();
    assertThat(requests.get(io.gpufleet.model.resource.ResourceName.MEMORY).orElseThrow().amount())
        .isEqualByComparingTo(java.math.BigDecimal.TEN.pow(400));
    assertThat(requests.get(io.gpufleet.model.resource.ResourceName.CPU).orElseThrow().amount())
        .isEqualByComparingTo("1500");
  }

  /** Every kind with a fields file. */
  private static final List<String> FIELD_KINDS = List.of("ConfigMap", "DaemonSet", "Deployment", "Job", "Node",
      "Pod", "PodDisruptionBudget", "PodTemplate", "PriorityClass", "ReplicaSet", "StatefulSet");

  @Test
  void fieldFilesAreSortedByPathWhichTheLookupsBinarySearchRelyOn() {
    for (String kind : FIELD_KINDS) {
      List<String> paths = List.copyOf(ApiSchema.fieldLines(kind).keySet());
      assertThat(paths).as(kind).hasSizeGreaterThan(10);
      for (int i = 1; i < paths.size(); i++) {
        assertThat(paths.get(i - 1).compareTo(paths.get(i))).as(kind + ": " + paths.get(i)).isNegative();
      }
    }
  }

  @Test
  void everyPathOfAFileIsFoundWithItsFlagAndNoOtherPathIs() {
    for (String kind : FIELD_KINDS) {
      Map<String, String> lines = ApiSchema.fieldLines(kind);
      Function<String, Optional<String>> flags = ApiSchema.fieldFlags(kind);
      lines.forEach((path, flag) -> {
        assertThat(flags.apply(path)).as(kind + " " + path).contains(flag);
        for (String near : List.of(path + "x", path + ".", path + " ", path.substring(0, path.length() - 1),
            "~" + path, "")) {
          if (!lines.containsKey(near)) {
            assertThat(flags.apply(near)).as(kind + " " + near).isEmpty();
          }
        }
      });
    }
    assertThat(ApiSchema.fieldFlags("Pod").apply("spec.containers.[].resources.limits")).contains("{}");
    assertThat(ApiSchema.fieldFlags("Deployment").apply("spec.template")).contains("=PodTemplate");
    assertThat(ApiSchema.fieldFlags("NoSuchKind").apply("spec")).isEmpty();
  }
}
