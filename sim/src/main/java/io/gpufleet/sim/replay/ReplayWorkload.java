package io.gpufleet.sim.replay;

import io.gpufleet.engine.placement.TypicalPods;
import io.gpufleet.model.gpu.share.SharePod;
import java.util.List;

/** One trace variant ready to replay: its pods and the typical-pod distribution drawn from them. */
public record ReplayWorkload(String variant, List<SharePod> trace, TypicalPods typical) {

  public ReplayWorkload {
    trace = List.copyOf(trace);
  }

  public static ReplayWorkload of(String variant, List<SharePod> trace, ReplayProtocol protocol) {
    return new ReplayWorkload(variant, trace,
        TypicalPods.of(trace.stream().map(SharePod::request).toList(), protocol.popularityPercent()));
  }
}
