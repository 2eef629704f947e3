package io.gpufleet.model.pod;

import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.resource.ResourceList;
import java.util.Objects;

/** A pod: what it is and what it asks for. Where it runs and its phase belong to the cluster state. */
public record Pod(ObjectMeta meta, PodSpec spec) {

  public Pod {
    Objects.requireNonNull(meta, "meta");
    Objects.requireNonNull(spec, "spec");
  }

  public String name() {
    return meta.name();
  }

  /** {@code namespace/name}. */
  public String key() {
    return meta.key();
  }

  /** The requests the scheduler fits: see {@link PodRequests#of}. */
  public ResourceList requests() {
    return PodRequests.of(spec);
  }

  public Pod withMeta(ObjectMeta newMeta) {
    return new Pod(newMeta, spec);
  }

  public Pod withSpec(PodSpec newSpec) {
    return new Pod(meta, newSpec);
  }
}
