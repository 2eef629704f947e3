package io.gpufleet.manifest.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpufleet.manifest.ManifestBundle;
import io.gpufleet.manifest.ManifestReader;
import io.gpufleet.manifest.kube.KubeDecoder;
import io.gpufleet.manifest.kube.KubeObject;
import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.manifest.yaml.YamlReader;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The API server's chain, step by step, over manifests as a user writes them. */
class AdmissionTest {

  private static final Toleration NOT_READY = Toleration.exists("node.kubernetes.io/not-ready",
      TaintEffect.NO_EXECUTE).withSeconds(300);
  private static final Toleration UNREACHABLE = Toleration.exists("node.kubernetes.io/unreachable",
      TaintEffect.NO_EXECUTE).withSeconds(300);

  private static Pod pod(AdmissionPlugins plugins, String yaml) {
    return new ManifestReader(false, plugins).read("p.yaml", yaml).pods().getFirst();
  }

  private static List<String> errors(AdmissionPlugins plugins, String yaml) {
    try {
      new ManifestReader(false, plugins).read("p.yaml", yaml);
    } catch (ManifestException e) {
      return e.problems().stream().map(ManifestProblem::toString).toList();
    }
    throw new AssertionError("expected a ManifestException");
  }

  private static final String GPU_POD = """
      apiVersion: v1
      kind: Pod
      metadata: {name: train}
      spec:
        containers:
        - name: c
          resources:
            limits: {nvidia.com/gpu: 2, cpu: "4"}
            requests: {cpu: "1"}
      """;

  // ---- SetDefaults_Pod ----

  @Test
  void requestsAreDefaultedFromLimitsWhereNoRequestIsWritten() {
    Pod p = pod(AdmissionPlugins.NONE, GPU_POD);
    // the GPU had only a limit: it gets it as its request; cpu keeps the request written
    assertThat(p.spec().containers().getFirst().requests())
        .isEqualTo(ResourceList.of("nvidia.com/gpu", "2", "cpu", "1"));
  }

  // ---- ExtendedResourceToleration ----

  @Test
  void anExtendedResourceRequestGetsItsNoScheduleToleration() {
    Pod p = pod(AdmissionPlugins.NONE.with(AdmissionPlugins.EXTENDED_RESOURCE_TOLERATION), GPU_POD);
    // admission_test.go "pod with container requesting extended resource": {key, Exists, NoSchedule}; the
    // request came from the limit, so defaulting ran first.
    assertThat(p.spec().tolerations()).containsExactly(Toleration.exists("nvidia.com/gpu", TaintEffect.NO_SCHEDULE));
  }

  @Test
  void extendedResourcesOfInitContainersCountAndTolerationsComeInNameOrder() {
    Pod p = pod(AdmissionPlugins.NONE.with(AdmissionPlugins.EXTENDED_RESOURCE_TOLERATION), """
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
          initContainers: [{name: i, resources: {limits: {example.com/fpga: 1}}}]
          containers: [{name: c, resources: {limits: {nvidia.com/gpu: 1, cpu: "1", hugepages-2Mi: 2Mi}}}]
          tolerations: [{key: other, operator: Exists}]
        """);
    // admission_test.go "multiple extended resources": sorted, after the pod's own; native ones get none.
    assertThat(p.spec().tolerations()).containsExactly(Toleration.exists("other", null),
        Toleration.exists("example.com/fpga", TaintEffect.NO_SCHEDULE),
        Toleration.exists("nvidia.com/gpu", TaintEffect.NO_SCHEDULE));
  }

  @Test
  void aMatchingTolerationAlreadyWrittenIsNotAddedTwice() {
    Pod p = pod(AdmissionPlugins.NONE.with(AdmissionPlugins.EXTENDED_RESOURCE_TOLERATION), GPU_POD + """
          tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
        """);
    assertThat(p.spec().tolerations()).hasSize(1);
  }

  // ---- DefaultTolerationSeconds ----

  @Test
  void notReadyAndUnreachableGetThreeHundredSeconds() {
    Pod p = pod(AdmissionPlugins.NONE.with(AdmissionPlugins.DEFAULT_TOLERATION_SECONDS), GPU_POD);
    assertThat(p.spec().tolerations()).containsExactly(NOT_READY, UNREACHABLE);
  }

  @Test
  void aWrittenNoExecuteTolerationForTheKeyIsKept() {
    Pod p = pod(AdmissionPlugins.NONE.with(AdmissionPlugins.DEFAULT_TOLERATION_SECONDS), GPU_POD + """
          tolerations: [{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 60}]
        """);
    Toleration written = new Toleration("node.kubernetes.io/unreachable", Toleration.Operator.EXISTS, "",
        Optional.of(TaintEffect.NO_EXECUTE), OptionalLong.of(60));
    assertThat(p.spec().tolerations()).containsExactly(written, NOT_READY);
  }

  @Test
  void aTolerationOfEverythingNeedsNoDefault() {
    Pod p = pod(AdmissionPlugins.NONE.with(AdmissionPlugins.DEFAULT_TOLERATION_SECONDS), GPU_POD + """
          tolerations: [{operator: Exists}]
        """);
    assertThat(p.spec().tolerations()).containsExactly(Toleration.everything());
  }

  // ---- the setting ----

  @Test
  void theDefaultIsEksWithTheFourModelledPluginsOn() {
    assertThat(AdmissionPlugins.defaults()).isEqualTo(AdmissionPlugins.EKS);
    assertThat(AdmissionPlugins.MODELLED).allMatch(AdmissionPlugins.EKS::on);
    Pod p = pod(AdmissionPlugins.defaults(), GPU_POD);
    assertThat(p.spec().tolerations()).containsExactly(NOT_READY, UNREACHABLE,
        Toleration.exists("nvidia.com/gpu", TaintEffect.NO_SCHEDULE));
  }

  @Test
  void anUnknownPluginNameIsRefused() {
    assertThatThrownBy(() -> AdmissionPlugins.EKS.with("ExtendedResourceTolerations"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown admission plugin");
  }

  @Test
  void withPriorityOffAClassNameIsNotResolved() {
    String yaml = """
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec: {priorityClassName: missing, containers: [{name: c}]}
        """;
    assertThat(errors(AdmissionPlugins.EKS, yaml)).anyMatch(e -> e.contains("no PriorityClass with name missing"));
    assertThat(pod(AdmissionPlugins.NONE, yaml).spec().priority()).isZero();
  }

  // ---- RuntimeClass ----

  private static final String RUNTIME_CLASS = """
      apiVersion: node.k8s.io/v1
      kind: RuntimeClass
      metadata: {name: kata}
      handler: kata
      overhead: {podFixed: {cpu: 250m, memory: 120Mi}}
      scheduling:
        nodeSelector: {runtime: kata}
        tolerations: [{key: kata, operator: Exists, effect: NoSchedule}]
      ---
      """;

  @Test
  void aRuntimeClassSetsOverheadAndMergesItsScheduling() {
    Pod p = pod(AdmissionPlugins.NONE.with(AdmissionPlugins.RUNTIME_CLASS), RUNTIME_CLASS + """
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
          runtimeClassName: kata
          nodeSelector: {zone: a}
          containers: [{name: c}]
        """);
    assertThat(p.spec().overhead()).isEqualTo(ResourceList.of("cpu", "250m", "memory", "120Mi"));
    assertThat(p.spec().nodeSelector()).isEqualTo(Labels.of("zone", "a", "runtime", "kata"));
    assertThat(p.spec().tolerations()).containsExactly(Toleration.exists("kata", TaintEffect.NO_SCHEDULE));
  }

  @Test
  void anAbsentRuntimeClassIsRefusedInTheApiServersWords() {
    assertThat(errors(AdmissionPlugins.EKS, """
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec: {runtimeClassName: nvidia, containers: [{name: c}]}
        """)).anyMatch(e -> e.contains("pods \"p\" is forbidden: pod rejected: RuntimeClass \"nvidia\" not found"));
  }

  @Test
  void aDumpedPodIsStateAndIsNotAdmittedAgain() {
    Pod p = pod(AdmissionPlugins.EKS, """
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
          runtimeClassName: nvidia
          nodeName: n1
          overhead: {cpu: 100m}
          containers: [{name: c, resources: {limits: {nvidia.com/gpu: 1}}}]
        status: {phase: Running}
        """);
    // Its RuntimeClass is not in the dump and no toleration is added: the cluster admitted it as it is.
    assertThat(p.spec().tolerations()).isEmpty();
    assertThat(p.spec().overhead()).isEqualTo(ResourceList.of("cpu", "100m"));
  }

  @Test
  void aConflictingNodeSelectorIsRefused() {
    assertThat(errors(AdmissionPlugins.EKS, RUNTIME_CLASS + """
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec: {runtimeClassName: kata, nodeSelector: {runtime: runc}, containers: [{name: c}]}
        """)).anyMatch(e -> e.contains("conflict: runtimeClass.scheduling.nodeSelector[runtime] = kata; "
        + "pod.spec.nodeSelector[runtime] = runc"));
  }

  @Test
  void aWorkloadNamingAnAbsentClassIsRefusedToo() {
    assertThat(errors(AdmissionPlugins.EKS, """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web}
        spec:
          selector: {matchLabels: {app: web}}
          template:
            metadata: {labels: {app: web}}
            spec: {runtimeClassName: gone, containers: [{name: c}]}
        """)).anyMatch(e -> e.contains("RuntimeClass \"gone\" not found"));
  }

  @Test
  void mergeKeepsOnlySupersets() {
    // tolerations_test.go's idea: an Exists toleration for a key covers an Equal one of that key.
    Toleration exists = Toleration.exists("k", TaintEffect.NO_SCHEDULE);
    Toleration equal = Toleration.equal("k", "v", TaintEffect.NO_SCHEDULE);
    assertThat(TolerationEdits.merge(List.of(equal), List.of(exists))).containsExactly(exists);
    assertThat(TolerationEdits.merge(List.of(exists), List.of(exists))).containsExactly(exists);
  }

  // ---- Namespaces ----

  @Test
  void namespacesAreDecodedWithTheirNameLabel() {
    ManifestBundle b = new ManifestReader().read("ns.yaml", """
        apiVersion: v1
        kind: Namespace
        metadata: {name: research, labels: {team: x}}
        """);
    assertThat(b.namespaces().of("research")).isEqualTo(Labels.of("team", "x",
        "kubernetes.io/metadata.name", "research"));
    assertThat(b.namespaces().of("other")).isEqualTo(Labels.of("kubernetes.io/metadata.name", "other"));
    assertThat(b.warnings()).isEmpty();
  }

  @Test
  void theChainKeepsNamespacesAcrossApplies() {
    Admission admission = new Admission();
    Diagnostics d = new Diagnostics();
    admission.admit(decode("""
        apiVersion: v1
        kind: Namespace
        metadata: {name: a, labels: {team: x}}
        """, d), d);
    List<KubeObject> second = admission.admit(decode("""
        apiVersion: v1
        kind: Pod
        metadata: {name: p, namespace: a}
        spec: {containers: [{name: c}]}
        """, d), d);
    assertThat(second).hasSize(1);
    assertThat(admission.namespaces().of("a").get("team")).contains("x");
    assertThat(d.errors()).isEmpty();
  }

  private static List<KubeObject> decode(String yaml, Diagnostics d) {
    return new KubeDecoder(d).decodeAll(new YamlReader().readAll("x.yaml", yaml));
  }
}
