package io.gpufleet.manifest.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.manifest.yaml.YamlReader;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Karpenter objects before v1 are skipped with one warning naming the releases that serve them, never rejected. */
class OldKarpenterApiTest {

  static final String MANIFESTS = """
      apiVersion: karpenter.sh/v1beta1
      kind: NodePool
      metadata: {name: gpu}
      spec: {template: {spec: {nodeClassRef: {apiVersion: karpenter.k8s.aws/v1beta1, kind: EC2NodeClass, name: d}}}}
      ---
      apiVersion: karpenter.k8s.aws/v1beta1
      kind: EC2NodeClass
      metadata: {name: d}
      spec: {amiFamily: AL2}
      ---
      apiVersion: karpenter.sh/v1alpha5
      kind: Provisioner
      metadata: {name: old}
      spec: {providerRef: {name: d}}
      ---
      apiVersion: karpenter.k8s.aws/v1alpha1
      kind: AWSNodeTemplate
      metadata: {name: d}
      spec: {}
      ---
      apiVersion: karpenter.sh/v1
      kind: NodePool
      metadata: {name: current}
      spec: {template: {spec: {nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: d}}}}
      """;

  @Test
  void everyOldObjectIsSkippedWithAWarningAndNoError() {
    Diagnostics d = new Diagnostics();
    KubeDecoder kube = new KubeDecoder(d);
    List<KubeObject> objects = kube.decodeAll(new YamlReader().readAll("k.yaml", MANIFESTS));
    assertThat(d.errors()).isEmpty();
    assertThat(objects).singleElement().satisfies(o ->
        assertThat(((KubeObject.OtherObject) o).name()).isEqualTo("current"));
    assertThat(kube.unreadKarpenter()).extracting(u -> u.api().kind() + "/" + u.name())
        .containsExactly("NodePool/gpu", "EC2NodeClass/d", "Provisioner/old", "AWSNodeTemplate/d");
    assertThat(kube.unreadKarpenter()).extracting(u -> u.api().provisions()).containsExactly(true, false, true, false);
    List<ManifestProblem> w = d.warnings().stream().filter(p -> p.path().equals("apiVersion")).toList();
    assertThat(w).hasSize(4);
    assertThat(w.getFirst().location().line()).isEqualTo(1);
    assertThat(w.getFirst().message()).startsWith("karpenter.sh/v1beta1 NodePool \"gpu\" is served by Karpenter v0.32 "
        + "to v1.0").contains("gpufleet reads karpenter.sh/v1 NodePool only", "kubectl get nodepool <name> -o yaml",
        OldKarpenterApi.V1_MIGRATION);
    assertThat(w.get(2).message()).contains("served by Karpenter up to v0.32", "karpenter.sh/v1 NodePool only",
        "karpenter-convert -f <file>", OldKarpenterApi.V1BETA1_MIGRATION);
    assertThat(w.get(3).message()).contains("karpenter.k8s.aws/v1 EC2NodeClass only");
  }

  @Test
  void theWarningNamesItsObjectBackForReadersThatOnlySeeWarnings() {
    Diagnostics d = new Diagnostics();
    new KubeDecoder(d).decodeAll(new YamlReader().readAll("k.yaml", MANIFESTS));
    List<OldKarpenterApi.Unread> back = d.warnings().stream().flatMap(p -> OldKarpenterApi.fromNotice(p).stream())
        .toList();
    assertThat(back).extracting(OldKarpenterApi.Unread::name).containsExactly("gpu", "d", "old", "d");
    assertThat(OldKarpenterApi.fromNotice(ManifestProblem.warning(back.getFirst().location(), "apiVersion",
        "something else"))).isEmpty();
  }

  @Test
  void otherVersionsAreNotOldApis() {
    assertThat(OldKarpenterApi.of("karpenter.sh/v1", "NodePool")).isEmpty();
    assertThat(OldKarpenterApi.of("karpenter.sh/v1beta1", "Provisioner")).isEmpty();
  }
}
