package io.gpufleet.manifest.kube;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Two objects of one kind, namespace and name are refused with both places; anything else is not. */
class DuplicateObjectsTest {

  private static final String NODE = """
      apiVersion: v1
      kind: Node
      metadata: {name: %s}
      status: {allocatable: {cpu: "4", memory: 16Gi}}
      """;

  private static String pod(String name, String namespace) {
    return """
        apiVersion: v1
        kind: Pod
        metadata: {%s, namespace: %s}
        spec: {containers: [{name: c, image: i}]}
        """.formatted(name, namespace);
  }

  private static List<String> errors(String text) {
    return ReadErrors.of("m.yaml", text);
  }

  @Test
  void aSecondNodeOfTheSameNameNamesBothPlaces() {
    assertThat(errors(NODE.formatted("a") + "---\n" + NODE.formatted("b") + "---\n" + NODE.formatted("a")))
        .containsExactly("m.yaml:11:1: metadata.name: Node \"a\" is already defined at m.yaml:1:1");
  }

  @Test
  void podsClashOnlyWithinOneNamespace() {
    assertThat(errors(pod("name: p", "x") + "---\n" + pod("name: p", "y"))).isEmpty();
    assertThat(errors(pod("name: p", "x") + "---\n" + pod("name: p", "x")))
        .containsExactly("m.yaml:6:1: metadata.name: Pod \"x/p\" is already defined at m.yaml:1:1");
  }

  @Test
  void generatedNamesAreNotDuplicates() {
    assertThat(errors(pod("generateName: p-", "x") + "---\n" + pod("generateName: p-", "x"))).isEmpty();
  }

  @Test
  void itemsOfAListCountAndNodeNamespacesDoNot() {
    String list = """
        apiVersion: v1
        kind: List
        items:
        - apiVersion: v1
          kind: Node
          metadata: {name: a, namespace: one}
        - apiVersion: v1
          kind: Node
          metadata: {name: a, namespace: two}
        """;
    assertThat(errors(list)).singleElement().asString()
        .startsWith("m.yaml:7:3: metadata.name: Node \"a\" is already defined at m.yaml:4:3");
  }

  @Test
  void theSameNameInDifferentKindsIsFine() {
    assertThat(errors(NODE.formatted("a") + "---\n" + pod("name: a", "default"))).isEmpty();
  }
}
