package io.gpufleet.model.validation;

import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The checks the API server makes on the parts of a pod spec gpufleet models: resource names and
 * quantities (extended resources whole and never overcommitted: request equal to limit, a limit
 * alone implying the request), tolerations, topology spread constraints, pod
 * (anti-)affinity, and priorities.
 */
public final class PodValidation {
  private PodValidation() {}

  /** Validates a pod spec found at {@code prefix} (e.g. {@code spec} or {@code spec.template.spec}). */
  public static List<FieldError> validate(PodSpec spec, String prefix) {
    List<FieldError> errors = new ArrayList<>();
    if (spec.containers().isEmpty()) {
      errors.add(FieldError.required(prefix + ".containers", ""));
    }
    for (int i = 0; i < spec.containers().size(); i++) {
      validateContainer(spec.containers().get(i), prefix + ".containers[" + i + "]", errors);
    }
    for (int i = 0; i < spec.initContainers().size(); i++) {
      validateContainer(spec.initContainers().get(i), prefix + ".initContainers[" + i + "]", errors);
    }
    for (var e : spec.overhead().quantities().entrySet()) {
      if (e.getValue().signum() < 0) {
        errors.add(FieldError.invalid(prefix + ".overhead[" + e.getKey() + "]", e.getValue().toString(),
            "must be greater than or equal to 0"));
      }
    }
    for (int i = 0; i < spec.tolerations().size(); i++) {
      validateToleration(spec.tolerations().get(i), prefix + ".tolerations[" + i + "]", errors);
    }
    TopologySpreadValidation.validate(spec.topologySpreadConstraints(), prefix + ".topologySpreadConstraints", errors);
    PodAffinityValidation.validate(spec.podAffinity(), prefix + ".affinity.podAffinity", errors);
    PodAffinityValidation.validate(spec.podAntiAffinity(), prefix + ".affinity.podAntiAffinity", errors);
    if (spec.terminationGracePeriodSeconds() < 0) {
      errors.add(FieldError.invalid(prefix + ".terminationGracePeriodSeconds",
          Long.toString(spec.terminationGracePeriodSeconds()), "must be greater than or equal to 0"));
    }
    return errors;
  }

  static void validateContainer(Container c, String path, List<FieldError> errors) {
    String req = path + ".resources.requests";
    String lim = path + ".resources.limits";
    validateNames(c.requests(), req, errors);
    validateNames(c.limits(), lim, errors);
    for (Map.Entry<ResourceName, Quantity> e : c.requests().quantities().entrySet()) {
      ResourceName name = e.getKey();
      Quantity request = e.getValue();
      String at = req + "[" + name + "]";
      var limit = c.limits().get(name);
      if (name.overcommitForbidden()) {
        if (limit.isEmpty()) {
          errors.add(FieldError.required(lim, "Limit must be set for non overcommitable resources"));
        } else if (!limit.get().equals(request)) {
          errors.add(FieldError.invalid(at, request.toString(),
              "must be equal to " + name + " limit of " + limit.get()));
        }
      } else if (limit.isPresent() && request.compareTo(limit.get()) > 0) {
        errors.add(FieldError.invalid(at, request.toString(),
            "must be less than or equal to " + name + " limit of " + limit.get()));
      }
    }
  }

  private static void validateNames(ResourceList list, String path, List<FieldError> errors) {
    for (Map.Entry<ResourceName, Quantity> e : list.quantities().entrySet()) {
      ResourceName name = e.getKey();
      String at = path + "[" + name + "]";
      if (name.isNative() && !isStandardContainerResource(name)) {
        errors.add(FieldError.invalid(at, name.name(), "must be a standard resource for containers"));
        continue;
      }
      if (e.getValue().signum() < 0) {
        errors.add(FieldError.invalid(at, e.getValue().toString(), "must be greater than or equal to 0"));
      } else if (name.mustBeInteger() && !e.getValue().isInteger()) {
        errors.add(FieldError.invalid(at, e.getValue().toString(), "must be an integer"));
      }
    }
  }

  private static boolean isStandardContainerResource(ResourceName name) {
    return switch (name.name()) {
      case "cpu", "memory", "ephemeral-storage" -> true;
      default -> name.isHugePages();
    };
  }

  static void validateToleration(Toleration t, String path, List<FieldError> errors) {
    if (t.key().isEmpty() && t.operator() != Toleration.Operator.EXISTS) {
      errors.add(FieldError.invalid(path + ".operator", t.operator().wireName(),
          "operator must be Exists when `key` is empty, which means \"match all values and all keys\""));
    }
    if (t.operator() == Toleration.Operator.EXISTS && !t.value().isEmpty()) {
      errors.add(FieldError.invalid(path + ".operator", t.value(),
          "value must be empty when `operator` is 'Exists'"));
    }
    if (t.tolerationSeconds().isPresent() && t.effect().orElse(null) != TaintEffect.NO_EXECUTE) {
      errors.add(FieldError.invalid(path + ".effect", t.effect().map(TaintEffect::wireName).orElse(""),
          "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
  }
}
