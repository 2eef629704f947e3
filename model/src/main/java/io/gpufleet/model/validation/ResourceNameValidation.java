package io.gpufleet.model.validation;

import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.QuantityFormatException;
import io.gpufleet.model.resource.ResourceName;
import java.util.List;
import java.util.Set;

/**
 * The API server's checks on resource names and the huge-page rules, in its words. Source:
 * kubernetes/kubernetes {@code pkg/apis/core/validation/validation.go} ({@code validateResourceName},
 * {@code validateContainerResourceName}, {@code validateResourceQuantityHugePageValue}) and
 * {@code pkg/apis/core/helper/helpers.go} ({@code IsStandardResourceName}, {@code IsNativeResource},
 * {@code IsExtendedResourceName}, {@code IsHugePageResourceValueDivisible}).
 */
public final class ResourceNameValidation {
  private ResourceNameValidation() {}

  /** helpers.go {@code standardResources}: the names a resource list may carry without a domain. */
  private static final Set<String> STANDARD = Set.of("cpu", "memory", "ephemeral-storage", "requests.cpu",
      "requests.memory", "requests.ephemeral-storage", "limits.cpu", "limits.memory", "limits.ephemeral-storage",
      "pods", "resourcequotas", "services", "replicationcontrollers", "secrets", "configmaps",
      "persistentvolumeclaims", "storage", "requests.storage", "services.nodeports", "services.loadbalancers");

  private static final Set<String> STANDARD_CONTAINER = Set.of("cpu", "memory", "ephemeral-storage");

  /** {@code validateResourceName}: a qualified name, and a standard one when it has no domain. */
  public static void validateResourceName(String name, String path, List<FieldError> errors) {
    List<String> syntax = LabelSyntax.qualifiedNameErrors(name);
    for (String m : syntax) {
      errors.add(FieldError.invalid(path, name, m));
    }
    if (syntax.isEmpty() && !name.contains("/") && !isStandard(name)) {
      errors.add(FieldError.invalid(path, name, "must be a standard resource type or fully qualified"));
    }
  }

  private static boolean isStandard(String name) {
    return STANDARD.contains(name) || name.startsWith("hugepages-") || name.startsWith("requests.hugepages-");
  }

  /**
   * {@code validateContainerResourceName}: without a domain only cpu, memory, ephemeral-storage and
   * hugepages-*; with one, a native ({@code kubernetes.io/}) or an extended resource.
   */
  public static void validateContainerResourceName(ResourceName resource, String path, List<FieldError> errors) {
    String name = resource.name();
    validateResourceName(name, path, errors);
    if (!name.contains("/")) {
      if (!STANDARD_CONTAINER.contains(name) && !resource.isHugePages()) {
        errors.add(FieldError.invalid(path, name, "must be a standard resource for containers"));
      }
    } else if (!resource.isNative() && !isExtended(name)) {
      errors.add(FieldError.invalid(path, name, "doesn't follow extended resource name standard"));
    }
  }

  /** {@code IsExtendedResourceName}: outside kubernetes.io, not a quota name, and valid with {@code requests.} prefixed. */
  private static boolean isExtended(String name) {
    return !name.startsWith("requests.") && LabelSyntax.qualifiedNameErrors("requests." + name).isEmpty();
  }

  /**
   * {@code validateResourceQuantityHugePageValue} for a new pod: the amount is a whole number of
   * pages of the size the name gives ({@code hugepages-2Mi}); empty when it is.
   */
  public static List<String> hugePageValueErrors(ResourceName resource, Quantity quantity) {
    if (!resource.isHugePages() || divisible(resource, quantity)) {
      return List.of();
    }
    return List.of(quantity + " is not positive integer multiple of " + resource.name());
  }

  private static boolean divisible(ResourceName resource, Quantity quantity) {
    Quantity page;
    try {
      page = Quantity.parse(resource.name().substring("hugepages-".length()));
    } catch (QuantityFormatException e) {
      return false;
    }
    if (page.signum() <= 0 || page.milliValue() % 1000 != 0) {
      return false;
    }
    return quantity.value() % page.value() == 0;
  }
}
