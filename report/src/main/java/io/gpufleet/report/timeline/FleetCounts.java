package io.gpufleet.report.timeline;

import io.gpufleet.engine.deviceplugin.ContainerDevices;
import io.gpufleet.engine.deviceplugin.Device;
import io.gpufleet.model.collect.PMap;
import io.gpufleet.model.pod.PodRequests;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.sim.state.ClusterState;
import io.gpufleet.sim.state.NodeState;
import io.gpufleet.sim.state.PodState;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The fleet at one moment: nodes, NodeClaims, physical GPUs, advertised GPU devices (replicas and
 * MIG slices count one each), GPU devices requested by pods bound to nodes, physical GPUs no
 * container holds a device of, and pending pods.
 */
public record FleetCounts(long nodes, long nodeClaims, long gpusPhysical, long gpusAdvertised, long gpusAllocated,
    long gpusIdle, long pendingPods) {

  public static FleetCounts of(ClusterState s) {
    long physical = 0;
    long advertised = 0;
    long idle = 0;
    for (NodeState n : s.nodes().values()) {
      int cards = n.gpus().map(g -> g.count()).orElse(0);
      physical += cards;
      advertised += gpus(n.node().allocatable());
      Set<Integer> held = new HashSet<>();
      n.devices().ifPresent(d -> {
        for (ContainerDevices c : d.allAssignments()) {
          for (Device dev : c.devices()) {
            held.add(dev.gpuIndex());
          }
        }
      });
      idle += cards - held.size();
    }
    long allocated = 0;
    for (PodState p : s.pods().values()) {
      if (p.node().isPresent()) {
        allocated += gpuRequest(p);
      }
    }
    return new FleetCounts(s.nodes().size(), s.claims().size(), physical, advertised, allocated, idle,
        s.pending().size());
  }

  /**
   * The GPU devices advertised at each frame, as {@link #of} counts them; each frame is read as its
   * change from the one before, so a long run of a large fleet costs what changed, not frames × nodes.
   */
  public static long[] gpusAdvertised(List<Frame> frames) {
    long[] out = new long[frames.size()];
    long sum = 0;
    PMap<String, NodeState> before = PMap.empty();
    for (int i = 0; i < out.length; i++) {
      PMap<String, NodeState> now = frames.get(i).state().nodes();
      long[] delta = new long[1];
      before.diff(now, (name, was, is) -> delta[0] += (is == null ? 0 : gpus(is.node().allocatable()))
          - (was == null ? 0 : gpus(was.node().allocatable())));
      sum += delta[0];
      out[i] = sum;
      before = now;
    }
    return out;
  }

  /** The GPU-like resources (whole GPUs, replicas, MIG slices) a list holds, summed. */
  public static long gpus(ResourceList r) {
    long sum = 0;
    for (Map.Entry<ResourceName, Quantity> e : r.quantities().entrySet()) {
      if (e.getKey().isNvidiaGpuLike()) {
        sum += e.getValue().value();
      }
    }
    return sum;
  }

  /** The GPU-like resources a pod asks for. */
  public static long gpuRequest(PodState p) {
    return gpus(PodRequests.of(p.pod().spec()));
  }
}
