package io.gpufleet.manifest.karpenter;

import io.gpufleet.manifest.yaml.Cursor;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code EC2NodeClass.spec.amiSelectorTerms} validated as the CRD validates it (karpenter.k8s.aws/v1,
 * aws/karpenter-provider-aws pkg/apis/v1/ec2nodeclass.go kubebuilder markers): an array of 1 to 30
 * terms, each with at least one selector, {@code id} and {@code alias} each alone in their term, an
 * alias alone in the list, and the alias itself {@code family@version} of at most 30 characters, of a
 * supported family, Windows only at {@code latest}. Errors are the API server's for a CEL rule
 * ({@code Invalid value: "<schema type>": <message>}) or a schema bound, once per problem.
 */
final class AmiSelectorTerms {

  private AmiSelectorTerms() {}

  /** {@code AMISelectorTerm.alias}'s first rule. */
  private static final Pattern ALIAS = Pattern.compile("^[a-zA-Z0-9]+@.+$");
  /** The families the CRD's second alias rule lists. */
  static final List<String> FAMILIES = List.of("al2", "al2023", "bottlerocket", "windows2019", "windows2022");
  private static final Set<String> SELECTORS = Set.of("tags", "id", "name", "alias", "ssmParameter");
  static final int MAX_ITEMS = 30;
  static final int ALIAS_MAX_LENGTH = 30;

  static void validate(Cursor spec) {
    Optional<Cursor> at = spec.get("amiSelectorTerms");
    if (at.isEmpty()) {
      return;
    }
    Cursor terms = at.get();
    if (!terms.isList()) {
      terms.asList();  // the type error, once
      return;
    }
    List<Cursor> items = terms.asList();
    if (items.isEmpty()) {
      terms.error("Invalid value: 0: spec.amiSelectorTerms in body should have at least 1 items");
      return;
    }
    if (items.size() > MAX_ITEMS) {
      terms.error("Too many: " + items.size() + ": must have at most " + MAX_ITEMS + " items");
    }
    boolean anyAlias = false;
    for (Cursor t : items) {
      if (!t.isMap()) {
        continue;
      }
      if (SELECTORS.stream().noneMatch(k -> t.get(k).isPresent())) {
        rule(terms, "array", "expected at least one, got none, ['tags', 'id', 'name', 'alias', 'ssmParameter']");
      }
      boolean others = t.get("tags").isPresent() || t.get("name").isPresent() || t.get("owner").isPresent();
      if (t.get("id").isPresent() && (t.get("alias").isPresent() || others)) {
        rule(terms, "array", "'id' is mutually exclusive, cannot be set with a combination of other fields in amiSelectorTerms");
      }
      if (t.get("alias").isPresent() && (t.get("id").isPresent() || others)) {
        rule(terms, "array", "'alias' is mutually exclusive, cannot be set with a combination of other fields in "
            + "amiSelectorTerms");
      }
      Optional<Cursor> alias = t.get("alias");
      if (alias.isPresent()) {
        anyAlias = true;
        alias(alias.get());
      }
    }
    if (anyAlias && items.size() != 1) {
      rule(terms, "array", "'alias' is mutually exclusive, cannot be set with a combination of other amiSelectorTerms");
    }
  }

  /** The alias's own rules, in the CRD's order; each failing rule is its own error, as the API server lists them. */
  private static void alias(Cursor c) {
    if (!c.isString()) {
      c.asString();
      return;
    }
    String a = c.asString();
    if (a.length() > ALIAS_MAX_LENGTH) {
      c.error("Too long: may not be more than " + ALIAS_MAX_LENGTH + " bytes");
      return;
    }
    if (!ALIAS.matcher(a).matches()) {
      rule(c, "string", "'alias' is improperly formatted, must match the format 'family@version'");
    }
    String[] parts = a.split("@", -1);
    if (!FAMILIES.contains(parts[0])) {
      rule(c, "string", "family is not supported, must be one of the following: 'al2', 'al2023', 'bottlerocket', "
          + "'windows2019', 'windows2022'");
    }
    if ((parts[0].equals("windows2019") || parts[0].equals("windows2022"))
        && (parts.length < 2 || !parts[1].equals("latest"))) {
      rule(c, "string", "windows families may only specify version 'latest'");
    }
  }

  /** A failed x-kubernetes-validations rule: the API server shows the value's type, not the value. */
  private static void rule(Cursor at, String type, String message) {
    at.error("Invalid value: \"" + type + "\": " + message);
  }
}
