package io.gpufleet.model.dra;

import io.gpufleet.model.resource.Quantity;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A shareable device's capacity's {@code requestPolicy} ({@code k8s.io/api/resource/v1}
 * {@code CapacityRequestPolicy}, DRAConsumableCapacity): the amount a request without one consumes
 * ({@code default}) and which amounts it may consume, either {@code validValues} (ascending) or a
 * {@code validRange} of {@code min}, optional {@code max} and {@code step}.
 */
public record RequestPolicy(Optional<Quantity> defaultValue, List<Quantity> validValues, Optional<Quantity> min,
    Optional<Quantity> max, Optional<Quantity> step) {

  public RequestPolicy {
    Objects.requireNonNull(defaultValue, "defaultValue");
    validValues = List.copyOf(validValues);
    Objects.requireNonNull(min, "min");
    Objects.requireNonNull(max, "max");
    Objects.requireNonNull(step, "step");
  }
}
