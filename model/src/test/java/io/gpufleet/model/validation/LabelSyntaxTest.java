package io.gpufleet.model.validation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Label key and value syntax as apimachinery's IsQualifiedName and IsValidLabelValue word it. */
class LabelSyntaxTest {

  @Test
  void qualifiedNamesWithAndWithoutPrefixPass() {
    assertThat(LabelSyntax.qualifiedNameErrors("app")).isEmpty();
    assertThat(LabelSyntax.qualifiedNameErrors("topology.kubernetes.io/zone")).isEmpty();
    assertThat(LabelSyntax.qualifiedNameErrors("nvidia.com/gpu.product")).isEmpty();
  }

  @Test
  void badKeysAreNamedPartByPart() {
    assertThat(LabelSyntax.qualifiedNameErrors("/zone")).containsExactly("prefix part must be non-empty");
    assertThat(LabelSyntax.qualifiedNameErrors("Example.com/zone")).singleElement().asString()
        .startsWith("prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters");
    assertThat(LabelSyntax.qualifiedNameErrors("a/b/c")).singleElement().asString()
        .startsWith("a qualified name must consist of").endsWith("with an optional DNS subdomain prefix and '/' "
            + "(e.g. 'example.com/MyName')");
    assertThat(LabelSyntax.qualifiedNameErrors("x".repeat(64))).containsExactly(
        "name part must be no more than 63 characters");
    assertThat(LabelSyntax.qualifiedNameErrors("zone/")).first().isEqualTo("name part must be non-empty");
  }

  @Test
  void labelValuesMayBeEmptyButNotSpaced() {
    assertThat(LabelSyntax.labelValueErrors("")).isEmpty();
    assertThat(LabelSyntax.labelValueErrors("NVIDIA-A10G")).isEmpty();
    assertThat(LabelSyntax.labelValueErrors("-x")).containsExactly("a valid label must be an empty string or consist "
        + "of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. "
        + "'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?"
        + "[A-Za-z0-9])?')");
  }
}
