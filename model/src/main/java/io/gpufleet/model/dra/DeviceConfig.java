package io.gpufleet.model.dra;

import java.util.List;
import java.util.Objects;

/**
 * One {@code spec.devices.config[]} entry of a claim: opaque parameters for one driver, applied to
 * the devices of the named requests (all of the claim's requests when none are named). The
 * parameters are the driver's to decode; the twin decodes those of NVIDIA's GPU driver.
 */
public record DeviceConfig(List<String> requests, String driver, Parameters parameters) {

  /** {@code opaque.parameters}, as far as the twin understands them. */
  public sealed interface Parameters permits GpuConfig, Unmodelled {}

  /** Parameters of a kind the twin does not model (said so with a warning when read). */
  public record Unmodelled(String apiVersion, String kind) implements Parameters {}

  public DeviceConfig {
    requests = List.copyOf(requests);
    Objects.requireNonNull(driver, "driver");
    Objects.requireNonNull(parameters, "parameters");
  }

  /**
   * Whether this entry applies to the devices allocated for {@code request}; an entry naming a
   * request applies to its subrequests' results ({@code <request>/<subrequest>}) too
   * ({@code k8s.io/dynamic-resource-allocation/resourceclaim} {@code ConfigForResult}).
   */
  public boolean appliesTo(String request) {
    int slash = request.indexOf('/');
    return requests.isEmpty() || requests.contains(request)
        || slash >= 0 && requests.contains(request.substring(0, slash));
  }
}
