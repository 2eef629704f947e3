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
 * alone implying the request), huge pages, the node selector, node and pod (anti-)affinity,
 * topology spread constraints, tolerations and the priority class name. Source: kubernetes/kubernetes
 * {@code pkg/apis/core/validation/validation.go} ({@code ValidatePodSpec},
 * {@code ValidateContainerResourceRequirements}, {@code ValidateTolerations}).
 */
public final class PodValidation {
  private PodValidation() {}

  /** Validates a pod spec found at {@code prefix} (e.g. {@code spec} or {@code spec.template.spec}), in ValidatePodSpec's order. */
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
    LabelSyntax.validateLabels(spec.nodeSelector(), prefix + ".nodeSelector", errors);
    NodeAffinityValidation.validate(spec.nodeAffinity(), prefix + ".affinity.nodeAffinity", errors);
    PodAffinityValidation.validate(spec.podAffinity(), prefix + ".affinity.podAffinity", errors);
    PodAffinityValidation.validate(spec.podAntiAffinity(), prefix + ".affinity.podAntiAffinity", errors);
    TopologySpreadValidation.validate(spec.topologySpreadConstraints(), prefix + ".topologySpreadConstraints", errors);
    for (int i = 0; i < spec.tolerations().size(); i++) {
      validateToleration(spec.tolerations().get(i), prefix + ".tolerations[" + i + "]", errors);
    }
    spec.priorityClassName().filter(n -> !n.isEmpty()).ifPresent(n -> {
      for (String m : LabelSyntax.dns1123SubdomainErrors(n)) {
        errors.add(FieldError.invalid(prefix + ".priorityClassName", n, m));
      }
    });
    // validateOverhead reuses the container rules with the overhead as limits, path included.
    resources(ResourceList.EMPTY, spec.overhead(), prefix + ".overhead", errors);
    if (spec.terminationGracePeriodSeconds() < 0) {
      errors.add(FieldError.invalid(prefix + ".terminationGracePeriodSeconds",
          Long.toString(spec.terminationGracePeriodSeconds()), "must be greater than or equal to 0"));
    }
    return errors;
  }

  static void validateContainer(Container c, String path, List<FieldError> errors) {
    resources(c.requests(), c.limits(), path + ".resources", errors);
  }

  /**
   * {@code ValidateContainerResourceRequirements} for a new pod: limits, then requests (names,
   * quantities, request against limit, whole huge pages), then huge pages' need of cpu or memory.
   */
  private static void resources(ResourceList requests, ResourceList limits, String path, List<FieldError> errors) {
    String lim = path + ".limits";
    String req = path + ".requests";
    boolean cpuOrMemory = false;
    boolean hugePages = false;
    for (Map.Entry<ResourceName, Quantity> e : limits.quantities().entrySet()) {
      quantity(e.getKey(), e.getValue(), lim + "[" + e.getKey() + "]", errors);
      hugePages |= e.getKey().isHugePages();
      cpuOrMemory |= isCpuOrMemory(e.getKey());
    }
    for (Map.Entry<ResourceName, Quantity> e : requests.quantities().entrySet()) {
      ResourceName name = e.getKey();
      Quantity request = e.getValue();
      quantity(name, request, req + "[" + name + "]", errors);
      var limit = limits.get(name);
      if (limit.isPresent()) {
        if (name.overcommitForbidden() && !limit.get().equals(request)) {
          errors.add(FieldError.invalid(req, request.toString(), "must be equal to " + name + " limit of " + limit.get()));
        } else if (request.compareTo(limit.get()) > 0) {
          errors.add(FieldError.invalid(req, request.toString(),
              "must be less than or equal to " + name + " limit of " + limit.get()));
        }
      } else if (name.overcommitForbidden()) {
        errors.add(FieldError.required(lim, "Limit must be set for non overcommitable resources"));
      }
      hugePages |= name.isHugePages();
      cpuOrMemory |= isCpuOrMemory(name);
    }
    if (hugePages && !cpuOrMemory) {
      errors.add(FieldError.forbidden(path, "HugePages require cpu or memory"));
    }
  }

  /** The name, the quantity ({@code ValidateResourceQuantityValue}) and, for huge pages, the page multiple. */
  private static void quantity(ResourceName name, Quantity q, String at, List<FieldError> errors) {
    ResourceNameValidation.validateContainerResourceName(name, at, errors);
    if (q.signum() < 0) {
      errors.add(FieldError.invalid(at, q.toString(), "must be greater than or equal to 0"));
    }
    if (name.mustBeInteger() && !q.isInteger()) {
      errors.add(FieldError.invalid(at, q.toString(), "must be an integer"));
    }
    for (String m : ResourceNameValidation.hugePageValueErrors(name, q)) {
      errors.add(FieldError.invalid(at, q.toString(), m));
    }
  }

  private static boolean isCpuOrMemory(ResourceName name) {
    return name.equals(ResourceName.CPU) || name.equals(ResourceName.MEMORY);
  }

  static void validateToleration(Toleration t, String path, List<FieldError> errors) {
    if (!t.key().isEmpty()) {
      LabelSyntax.validateLabelName(t.key(), path + ".key", errors);
    }
    if (t.operator() == Toleration.Operator.EQUAL) {
      List<String> bad = LabelSyntax.labelValueErrors(t.value());
      if (!bad.isEmpty()) {
        errors.add(FieldError.invalid(path + ".operator", t.value(), String.join(";", bad)));
      }
    }
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
