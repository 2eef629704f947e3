package io.gpufleet.manifest.karpenter;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.manifest.kube.KubeDecoder;
import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.YamlReader;
import io.gpufleet.model.karpenter.NodeOverlay;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The NodeOverlay CRD's validation, after {@code K:pkg/apis/v1alpha1/nodeoverlay_validation_test.go}
 * (each test names the {@code It} or {@code Entry} it follows). Upstream's "priceAdjustment" table of
 * invalid inputs sets {@code price}, so those entries are checked against {@code price} here too.
 */
class NodeOverlayDecoderTest {

  static final String HEAD = """
      apiVersion: karpenter.sh/v1alpha1
      kind: NodeOverlay
      metadata: {name: o}
      spec:
      """;

  /** The problems reading a NodeOverlay whose spec is {@code spec} (indented by the caller). */
  static List<String> problems(String spec) {
    Diagnostics d = new Diagnostics();
    var objects = new KubeDecoder(d).decodeAll(new YamlReader().readAll("o.yaml", HEAD + spec));
    KarpenterManifests m = KarpenterManifests.of(objects, d);
    assertThat(m.nodeOverlays()).hasSize(1);
    return d.errors().stream().map(Object::toString).toList();
  }

  static NodeOverlay read(String spec) {
    Diagnostics d = new Diagnostics();
    var objects = new KubeDecoder(d).decodeAll(new YamlReader().readAll("o.yaml", HEAD + spec));
    return KarpenterManifests.of(objects, d).nodeOverlays().getFirst();
  }

  static final String REQ = "  requirements: [{key: node.kubernetes.io/instance-type, operator: In, values: [g6.xlarge]}]\n";

  @Test
  void aValidOverlayIsRead() {
    NodeOverlay o = read(REQ + "  capacity: {nvidia.com/gpu: \"4\"}\n  priceAdjustment: \"-10%\"\n  weight: 10\n");
    assertThat(o.name()).isEqualTo("o");
    assertThat(o.requirements()).hasSize(1);
    assertThat(o.capacity().toString()).contains("nvidia.com/gpu: 4");
    assertThat(o.weight()).isEqualTo(10);
    assertThat(NodeOverlay.adjustedPrice(1.0, o.priceChange().orElseThrow())).isEqualTo(0.9);
  }

  @Test
  void shouldFailForNoValuesForInAndNotInOperators() {
    // "should fail for no values for In operator", "should fail for no values for NotIn operator"
    assertThat(problems("  requirements: [{key: node.kubernetes.io/instance-type, operator: In}]\n"))
        .singleElement().asString().contains("requirements with operator 'In' must have a value defined");
    assertThat(problems("  requirements: [{key: node.kubernetes.io/instance-type, operator: NotIn}]\n"))
        .singleElement().asString().contains("requirements with operator 'NotIn' must have a value defined");
  }

  @Test
  void shouldAllowTheKarpenterNodePoolLabelButFailForRestrictedDomains() {
    // "should allow for the karpenter.sh/nodepool label", "should fail for restricted domains"
    assertThat(problems("  requirements: [{key: karpenter.sh/nodepool, operator: In, values: [a]}]\n")).isEmpty();
    assertThat(problems("  requirements: [{key: karpenter.sh/custom, operator: In, values: [a]}]\n"))
        .singleElement().asString().contains("label domain \"karpenter.sh\" is restricted");
    assertThat(problems("  requirements: [{key: kubernetes.io/hostname, operator: In, values: [a]}]\n"))
        .singleElement().asString().contains("label \"kubernetes.io/hostname\" is restricted");
  }

  @Test
  void shouldFailForUnsupportedOpsAndInvalidGtValues() {
    // "should fail for unsupported ops", "should fail with invalid GT or LT values"
    assertThat(problems("  requirements: [{key: a, operator: Within, values: [a]}]\n")).singleElement().asString()
        .contains("expected one of In, NotIn, Exists, DoesNotExist, Gt, Lt, Gte, Lte");
    assertThat(problems("  requirements: [{key: a, operator: Gt, values: [\"-1\"]}]\n")).singleElement().asString()
        .contains("must have a single positive integer value");
  }

  @Test
  void shoutNotBeAbleToSetBothPriceAndPriceAdjustment() {
    assertThat(problems(REQ + "  price: \"1\"\n  priceAdjustment: \"+1\"\n")).singleElement().asString()
        .contains("cannot set both 'price' and 'priceAdjustment'");
  }

  @ParameterizedTest(name = "price Invalid Input \"{0}\"")
  @ValueSource(strings = {"+42", ".5", "42.", "42%", "3,14", "1e10", "0x42", "forty-two", "42a", "42 ", " 42",
      "42.0.0", "-", ".", "-.42", "-100.0%", "-101.1%", "-129"})
  void priceInvalidInput(String input) {
    assertThat(problems(REQ + "  price: \"" + input + "\"\n")).singleElement().asString()
        .contains("spec.price: should match");
  }

  @ParameterizedTest(name = "price allowed \"{0}\"")
  @ValueSource(strings = {"43", "34.43"})
  void shouldAllowIntegerAndFloatPrices(String input) {
    assertThat(problems(REQ + "  price: \"" + input + "\"\n")).isEmpty();
  }

  @ParameterizedTest(name = "priceAdjustment refused \"{0}\"")
  @ValueSource(strings = {"1%", "1", "1.3"})
  void shouldNotAllowAnUnsignedPriceAdjustment(String input) {
    assertThat(problems(REQ + "  priceAdjustment: \"" + input + "\"\n")).singleElement().asString()
        .contains("spec.priceAdjustment: should match");
  }

  @ParameterizedTest(name = "priceAdjustment allowed \"{0}\"")
  @ValueSource(strings = {"+1%", "-1%", "-100%", "+100.102%", "+298%", "+43", "-43", "+34.43", "-34.43"})
  void shouldAllowSignedPriceAdjustments(String input) {
    assertThat(problems(REQ + "  priceAdjustment: \"" + input + "\"\n")).isEmpty();
  }

  @Test
  void capacityAllowsCustomResourcesButNotCpuMemoryOrPods() {
    // "should allow custom resources", "should not allow cpu / memory / pod resources override"
    assertThat(problems(REQ + "  capacity: {smarter-devices/fuse: \"1\"}\n")).isEmpty();
    for (String r : List.of("cpu: \"1\"", "memory: 34Gi", "pods: \"324\"")) {
      assertThat(problems(REQ + "  capacity: {" + r + "}\n")).singleElement().asString()
          .contains("invalid resource restricted");
    }
  }

  @Test
  void weightIsOneToTenThousandAndTheApiVersionIsV1alpha1() {
    assertThat(problems(REQ + "  weight: 0\n")).singleElement().asString().contains("should be in 1..10000, found 0");
    Diagnostics d = new Diagnostics();
    var objects = new KubeDecoder(d).decodeAll(new YamlReader().readAll("o.yaml",
        HEAD.replace("v1alpha1", "v1") + REQ));
    KarpenterManifests.of(objects, d);
    assertThat(d.errors()).singleElement().asString().startsWith("o.yaml:1:")
        .contains("expected apiVersion karpenter.sh/v1alpha1");
  }
}
