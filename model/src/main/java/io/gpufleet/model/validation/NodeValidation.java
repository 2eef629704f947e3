package io.gpufleet.model.validation;

import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The checks the API server makes on a node's {@code status.capacity} and {@code status.allocatable}
 * ({@code ValidateNode}, through {@code ValidateResourceQuantityValue}): no quantity below zero, and
 * whole numbers for the resources {@code IsIntegerResourceName} names (extended resources such as
 * {@code nvidia.com/gpu}, and {@code pods}; pkg/apis/core/helper/helpers.go).
 */
public final class NodeValidation {
  private NodeValidation() {}

  public static List<FieldError> validate(ResourceList capacity, ResourceList allocatable) {
    List<FieldError> errors = new ArrayList<>();
    quantities(capacity, "status.capacity", errors);
    quantities(allocatable, "status.allocatable", errors);
    return errors;
  }

  private static void quantities(ResourceList list, String path, List<FieldError> errors) {
    for (Map.Entry<ResourceName, Quantity> e : list.quantities().entrySet()) {
      String at = path + "[" + e.getKey() + "]";
      if (e.getValue().signum() < 0) {
        errors.add(FieldError.invalid(at, e.getValue().toString(), "must be greater than or equal to 0"));
      }
      if (e.getKey().mustBeInteger() && !e.getValue().isInteger()) {
        errors.add(FieldError.invalid(at, e.getValue().toString(), "must be an integer"));
      }
    }
  }
}
