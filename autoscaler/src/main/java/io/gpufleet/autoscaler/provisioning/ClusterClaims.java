package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.engine.dra.DraState;
import io.gpufleet.engine.dra.PodClaims;
import java.util.Optional;

/**
 * The cluster's ResourceClaims as gpufleet's DRA sizing reads them: the claim each pod's template
 * entry became and the allocations the claims' status records. Where no resource claim controller
 * runs (a one-shot plan, {@link #REPLAYED}) a template is instantiated as {@code <pod>-<entry>} and
 * the allocations are replayed from the bound pods; the simulator hands over the claims its controller
 * made and the allocations its scheduler recorded at bind, so the sizing sees the devices really held.
 */
public interface ClusterClaims {

  /** The claim made for a pod's template entry, if one was made. */
  PodClaims.TemplateClaims templateClaims();

  /** The allocations and reservations in the claims' status; empty where the bound pods are replayed. */
  Optional<DraState> recorded();

  /** No controller: templates instantiated on the spot, allocations replayed. */
  ClusterClaims REPLAYED = new ClusterClaims() {
    @Override
    public PodClaims.TemplateClaims templateClaims() {
      return PodClaims.TemplateClaims.INSTANTIATED;
    }

    @Override
    public Optional<DraState> recorded() {
      return Optional.empty();
    }
  };
}
