package io.gpufleet.model.validation;

import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Requirement;
import io.gpufleet.model.pod.TopologySpreadConstraint;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The API server's checks on {@code spec.topologySpreadConstraints}, in its order and words.
 * Source: kubernetes/kubernetes {@code pkg/apis/core/validation/validation.go} ({@code
 * validateTopologySpreadConstraints}, {@code ValidateMaxSkew}, {@code validateMinDomains}, {@code
 * ValidateTopologyKey}, {@code ValidateSpreadConstraintNotRepeat}, {@code validateMatchLabelKeys}).
 * Unsupported {@code whenUnsatisfiable} and node inclusion policy values cannot be held by the model,
 * so the manifest reader reports them as it reads.
 */
final class TopologySpreadValidation {
  private TopologySpreadValidation() {}

  private static final String NOT_POSITIVE = "must be greater than zero";

  static void validate(List<TopologySpreadConstraint> constraints, String path, List<FieldError> errors) {
    for (int i = 0; i < constraints.size(); i++) {
      TopologySpreadConstraint c = constraints.get(i);
      String at = path + "[" + i + "]";
      if (c.maxSkew() <= 0) {
        errors.add(FieldError.invalid(at + ".maxSkew", Integer.toString(c.maxSkew()), NOT_POSITIVE));
      }
      if (c.topologyKey().isEmpty()) {
        errors.add(FieldError.required(at + ".topologyKey", "can not be empty"));
      }
      for (TopologySpreadConstraint rest : constraints.subList(i + 1, constraints.size())) {
        if (rest.topologyKey().equals(c.topologyKey()) && rest.whenUnsatisfiable() == c.whenUnsatisfiable()) {
          errors.add(new FieldError(at + ".{topologyKey, whenUnsatisfiable}", FieldError.Kind.DUPLICATE,
              "{" + c.topologyKey() + ", " + c.whenUnsatisfiable().wireName() + "}", null));
          break;
        }
      }
      if (c.minDomains().isPresent()) {
        String value = Integer.toString(c.minDomains().getAsInt());
        if (c.minDomains().getAsInt() <= 0) {
          errors.add(FieldError.invalid(at + ".minDomains", value, NOT_POSITIVE));
        }
        if (!c.hard()) {
          errors.add(FieldError.invalid(at + ".minDomains", value, "can only use minDomains if whenUnsatisfiable="
              + TopologySpreadConstraint.WhenUnsatisfiable.DO_NOT_SCHEDULE.wireName() + ", not "
              + c.whenUnsatisfiable().wireName()));
        }
      }
      validateMatchLabelKeys(c, at + ".matchLabelKeys", errors);
      c.labelSelector().ifPresent(s -> LabelSyntax.validateSelector(s, at + ".labelSelector", errors));
    }
  }

  private static void validateMatchLabelKeys(TopologySpreadConstraint c, String path, List<FieldError> errors) {
    Set<String> selectorKeys = new HashSet<>();
    if (c.labelSelector().isPresent()) {
      LabelSelector s = c.labelSelector().get();
      selectorKeys.addAll(s.matchLabels().map().keySet());
      for (Requirement r : s.matchExpressions()) {
        selectorKeys.add(r.key());
      }
    }
    for (int i = 0; i < c.matchLabelKeys().size(); i++) {
      String key = c.matchLabelKeys().get(i);
      LabelSyntax.validateLabelName(key, path + "[" + i + "]", errors);
      if (selectorKeys.contains(key)) {
        errors.add(FieldError.invalid(path + "[" + i + "]", key, "exists in both matchLabelKeys and labelSelector"));
      }
    }
  }
}
