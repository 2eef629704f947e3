package io.gpufleet.manifest.openb;

import io.gpufleet.model.gpu.share.SharePod;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One row of an openb pod list: the pod and its request, plus what the production cluster recorded
 * about it where the file has those columns (the multigpu variants do not).
 */
public record OpenbPod(SharePod pod, Optional<History> history) {

  /** QoS class, last phase and times in seconds from the start of the trace. */
  public record History(String qos, String phase, long creationTime, OptionalLong deletionTime,
      OptionalLong scheduledTime) {}

  public String name() {
    return pod.name();
  }
}
