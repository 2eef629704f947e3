package io.gpufleet.model.validation;

import io.gpufleet.model.affinity.PodAffinity;
import io.gpufleet.model.affinity.PodAffinityTerm;
import java.util.List;

/**
 * The API server's checks on {@code spec.affinity.podAffinity} and {@code podAntiAffinity}, in its
 * words and field paths. Source: kubernetes/kubernetes {@code pkg/apis/core/validation/validation.go}
 * ({@code validatePodAffinity}, {@code validatePodAffinityTerm}, {@code
 * validateWeightedPodAffinityTerms}, {@code ValidatePodAffinityTermSelector}); the label-name checks
 * of matchLabelKeys and mismatchLabelKeys are made, their cross-checks with the selector are not.
 */
final class PodAffinityValidation {
  private PodAffinityValidation() {}

  static void validate(PodAffinity affinity, String path, List<FieldError> errors) {
    for (int i = 0; i < affinity.required().size(); i++) {
      term(affinity.required().get(i), path + ".requiredDuringSchedulingIgnoredDuringExecution[" + i + "]", errors);
    }
    for (int i = 0; i < affinity.preferred().size(); i++) {
      String at = path + ".preferredDuringSchedulingIgnoredDuringExecution[" + i + "]";
      int weight = affinity.preferred().get(i).weight();
      if (weight <= 0 || weight > 100) {
        errors.add(FieldError.invalid(at + ".weight", Integer.toString(weight), "must be in the range 1-100"));
      }
      term(affinity.preferred().get(i).term(), at + ".podAffinityTerm", errors);
    }
  }

  private static void term(PodAffinityTerm t, String path, List<FieldError> errors) {
    t.labelSelector().ifPresent(s -> LabelSyntax.validateSelector(s, path + ".labelSelector", errors));
    t.namespaceSelector().ifPresent(s -> LabelSyntax.validateSelector(s, path + ".namespaceSelector", errors));
    for (String ns : t.namespaces()) {
      // Upstream's field path is "namespace", singular.
      for (String m : LabelSyntax.dns1123LabelErrors(ns)) {
        errors.add(FieldError.invalid(path + ".namespace", ns, m));
      }
    }
    for (int i = 0; i < t.matchLabelKeys().size(); i++) {
      LabelSyntax.validateLabelName(t.matchLabelKeys().get(i), path + ".matchLabelKeys[" + i + "]", errors);
    }
    for (int i = 0; i < t.mismatchLabelKeys().size(); i++) {
      LabelSyntax.validateLabelName(t.mismatchLabelKeys().get(i), path + ".mismatchLabelKeys[" + i + "]", errors);
    }
    if (t.topologyKey().isEmpty()) {
      errors.add(FieldError.required(path + ".topologyKey", "can not be empty"));
    }
    LabelSyntax.validateLabelName(t.topologyKey(), path + ".topologyKey", errors);
  }
}
