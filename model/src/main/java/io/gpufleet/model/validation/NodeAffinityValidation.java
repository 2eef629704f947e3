package io.gpufleet.model.validation;

import io.gpufleet.model.affinity.NodeAffinity;
import io.gpufleet.model.affinity.NodeSelectorTerm;
import io.gpufleet.model.label.Requirement;
import java.util.List;

/**
 * The API server's checks on {@code spec.affinity.nodeAffinity}, in its words and field paths.
 * Source: kubernetes/kubernetes {@code pkg/apis/core/validation/validation.go} ({@code
 * validateNodeAffinity}, {@code ValidateNodeSelector}, {@code ValidateNodeSelectorTerm}, {@code
 * ValidateNodeSelectorRequirement}, {@code ValidateNodeFieldSelectorRequirement}, {@code
 * ValidatePreferredSchedulingTerms}). Label values are checked in required terms only: upstream
 * always allows invalid values in preferred terms.
 */
final class NodeAffinityValidation {
  private NodeAffinityValidation() {}

  static void validate(NodeAffinity affinity, String path, List<FieldError> errors) {
    affinity.required().ifPresent(selector -> {
      String terms = path + ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
      if (selector.terms().isEmpty()) {
        errors.add(FieldError.required(terms, "must have at least one node selector term"));
      }
      for (int i = 0; i < selector.terms().size(); i++) {
        term(selector.terms().get(i), true, terms + "[" + i + "]", errors);
      }
    });
    for (int i = 0; i < affinity.preferred().size(); i++) {
      String at = path + ".preferredDuringSchedulingIgnoredDuringExecution[" + i + "]";
      int weight = affinity.preferred().get(i).weight();
      if (weight <= 0 || weight > 100) {
        errors.add(FieldError.invalid(at + ".weight", Integer.toString(weight), "must be in the range 1-100"));
      }
      term(affinity.preferred().get(i).preference(), false, at + ".preference", errors);
    }
  }

  private static void term(NodeSelectorTerm term, boolean checkValues, String path, List<FieldError> errors) {
    for (int j = 0; j < term.matchExpressions().size(); j++) {
      LabelSyntax.validateRequirement(term.matchExpressions().get(j), LabelSyntax.Operators.NODE_SELECTOR, checkValues,
          path + ".matchExpressions[" + j + "]", errors);
    }
    for (int j = 0; j < term.matchFields().size(); j++) {
      fieldRequirement(term.matchFields().get(j), path + ".matchFields[" + j + "]", errors);
    }
  }

  /** {@code ValidateNodeFieldSelectorRequirement}: {@code metadata.name In|NotIn [one node name]}. */
  private static void fieldRequirement(Requirement r, String path, List<FieldError> errors) {
    switch (r.operator()) {
      case IN, NOT_IN -> {
        if (r.values().size() != 1) {
          errors.add(FieldError.required(path + ".values",
              "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
        }
      }
      default -> errors.add(FieldError.invalid(path + ".operator", r.operator().wireName(),
          "not a valid selector operator"));
    }
    if (!r.key().equals("metadata.name")) {
      errors.add(FieldError.invalid(path + ".key", r.key(), "not a valid field selector key"));
    } else {
      for (int i = 0; i < r.values().size(); i++) {
        for (String m : LabelSyntax.dns1123SubdomainErrors(r.values().get(i))) {
          errors.add(FieldError.invalid(path + ".values[" + i + "]", r.values().get(i), m));
        }
      }
    }
  }
}
