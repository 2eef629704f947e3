package io.gpufleet.model.meta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpufleet.testing.property.Gen;
import io.gpufleet.testing.property.Property;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Typed object references: equal by value, shown and ordered as the {@code Kind/ns/name} text. */
class ObjectRefTest {

  @Test
  void equalByKindNamespaceAndName() {
    ObjectRef a = new ObjectRef("Deployment", "default", "web");
    assertThat(a).isEqualTo(new ObjectRef("Deployment", "default", "web")).hasSameHashCodeAs(
        new ObjectRef("Deployment", "default", "web"));
    assertThat(a).isNotEqualTo(new ObjectRef("StatefulSet", "default", "web"))
        .isNotEqualTo(new ObjectRef("Deployment", "prod", "web"))
        .isNotEqualTo(new ObjectRef("Deployment", "default", "api"));
  }

  @Test
  void partsThatJoinToTheSameTextAreStillDifferentObjects() {
    // The text key could not tell these apart; the record can.
    ObjectRef a = new ObjectRef("Job", "a/b", "c");
    ObjectRef b = new ObjectRef("Job", "a", "b/c");
    assertThat(a.toString()).isEqualTo(b.toString());
    assertThat(a).isNotEqualTo(b);
  }

  @Test
  void showsAsKindNamespaceName() {
    assertThat(new ObjectRef("Deployment", "default", "llm")).hasToString("Deployment/default/llm");
    assertThat(ObjectRef.of("Job", ObjectMeta.named("train"))).hasToString("Job/default/train");
  }

  @Test
  void rejectsMissingParts() {
    assertThatThrownBy(() -> new ObjectRef("Deployment", null, "web")).isInstanceOf(NullPointerException.class)
        .hasMessageContaining("namespace");
  }

  @Test
  void ordersASeparatorAfterDashAndDotAsTheTextDid() {
    // '-' and '.' sort before '/', letters after it: field-by-field order would differ here.
    List<ObjectRef> refs = new ArrayList<>(List.of(new ObjectRef("Deployment", "a", "x"),
        new ObjectRef("Deployment", "a-b", "x"), new ObjectRef("Deployment", "a.b", "x"),
        new ObjectRef("Deployment", "ab", "x"), new ObjectRef("DaemonSet", "a", "x")));
    refs.sort(null);
    assertThat(refs).extracting(ObjectRef::toString).containsExactly("DaemonSet/a/x", "Deployment/a-b/x",
        "Deployment/a.b/x", "Deployment/a/x", "Deployment/ab/x");
  }

  @Test
  void ordersExactlyAsItsText() {
    Property.check(20261206L, 2000, refs(), refs(), (a, b) -> {
      assertThat(Integer.signum(a.compareTo(b))).isEqualTo(Integer.signum(a.toString().compareTo(b.toString())));
      assertThat(Integer.signum(a.compareTo(b))).isEqualTo(-Integer.signum(b.compareTo(a)));
    });
  }

  @Test
  void sortsAListAsItsTextSorts() {
    Property.check(20261206L, 300, refs().list(0, 12), refs -> {
      List<ObjectRef> sorted = new ArrayList<>(refs);
      sorted.sort(null);
      List<ObjectRef> byText = new ArrayList<>(refs);
      byText.sort(Comparator.comparing(ObjectRef::toString));
      assertThat(sorted).extracting(ObjectRef::toString).containsExactlyElementsOf(
          byText.stream().map(ObjectRef::toString).toList());
    });
  }

  private static Gen<ObjectRef> refs() {
    // A small alphabet around '/' so prefixes, separators and equal parts come up often.
    Gen<String> part = Gen.strings("ab-.0Z", 0, 4);
    return Gen.combine(part, part, part, ObjectRef::new);
  }
}
