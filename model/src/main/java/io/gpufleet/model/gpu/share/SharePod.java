package io.gpufleet.model.gpu.share;

import java.util.Objects;

/** A named pod with a {@link ShareRequest}, as a trace lists it. */
public record SharePod(String name, ShareRequest request) {

  public SharePod {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(request, "request");
  }

  /** The same request under another name, as a workload tune-up clones trace pods. */
  public SharePod renamed(String newName) {
    return new SharePod(newName, request);
  }
}
