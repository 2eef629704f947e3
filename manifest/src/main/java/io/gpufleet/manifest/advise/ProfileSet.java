package io.gpufleet.manifest.advise;

import io.gpufleet.model.advise.WorkloadProfile;
import java.util.List;
import java.util.Optional;

/**
 * Workload profiles read from files, the GPU type they name (if any, with where it is written) and
 * the defaults that were applied to them.
 */
public record ProfileSet(List<WorkloadProfile> profiles, Optional<String> gpu, Optional<String> gpuAt,
    List<String> assumptions) {

  public ProfileSet {
    profiles = List.copyOf(profiles);
    assumptions = List.copyOf(assumptions);
  }
}
