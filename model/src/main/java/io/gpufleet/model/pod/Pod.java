package io.gpufleet.model.pod;

import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.resource.ResourceList;
import java.util.Objects;

/**
 * A pod: what it is and what it asks for. Where it runs and its phase belong to the cluster state.
 *
 * @param key {@code namespace/name}, always made from {@code meta} (a key passed in is not kept): the
 *     twin finds pods by it everywhere, and a run of 100,000 pods made it afresh about a million times
 */
public record Pod(ObjectMeta meta, PodSpec spec, String key) {

  public Pod {
    Objects.requireNonNull(meta, "meta");
    Objects.requireNonNull(spec, "spec");
    key = meta.key();
  }

  public Pod(ObjectMeta meta, PodSpec spec) {
    this(meta, spec, null);
  }

  public String name() {
    return meta.name();
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
