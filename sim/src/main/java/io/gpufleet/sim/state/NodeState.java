package io.gpufleet.sim.state;

import io.gpufleet.model.cloud.GpuSpec;
import io.gpufleet.model.node.Node;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import io.gpufleet.engine.deviceplugin.NodeDevices;

/**
 * A registered node with what its kubelet knows beyond the Node object: whether it reports Ready,
 * its device plugin's registration, the images it is pulling and when its pull queue frees up, and
 * when a pod last arrived or left (Karpenter's {@code lastPodEventTime}).
 *
 * @param gpus the node's physical GPUs, which its device plugin advertises
 * @param pluginGeneration bumped when a config-label change makes the plugin re-register
 * @param pulling images being pulled and when each pull finishes
 * @param allocatableShrunk allocatable dropped below what bound pods request (a plugin
 *     re-registration with fewer replicas; running pods stay), so the overcommit invariant waits
 * @param devices the kubelet device manager's state: the devices the plugin advertises and which
 *     pod's containers hold which (empty until the plugin registers, or on nodes without GPUs)
 */
public record NodeState(Node node, Optional<String> claim, Optional<GpuSpec> gpus, Instant registered,
    boolean ready, boolean pluginRegistered, long pluginGeneration, Map<String, Instant> pulling,
    Instant pullQueueFreeAt, Instant lastPodEvent, boolean allocatableShrunk, Optional<NodeDevices> devices) {

  public NodeState {
    Objects.requireNonNull(node, "node");
    pulling = Map.copyOf(pulling);
    devices = devices == null ? Optional.empty() : devices;
  }

  /** A node as it joins: nothing pulled, no devices allocated yet. */
  public static NodeState joining(Node node, Optional<String> claim, Optional<GpuSpec> gpus, Instant now, boolean ready,
      boolean pluginRegistered) {
    return new NodeState(node, claim, gpus, now, ready, pluginRegistered, 0, Map.of(), now, now, false,
        Optional.empty());
  }

  public NodeState withDevices(Optional<NodeDevices> d) {
    return new NodeState(node, claim, gpus, registered, ready, pluginRegistered, pluginGeneration, pulling,
        pullQueueFreeAt, lastPodEvent, allocatableShrunk, d);
  }

  public String name() {
    return node.name();
  }

  public NodeState withNode(Node n) {
    return new NodeState(n, claim, gpus, registered, ready, pluginRegistered, pluginGeneration, pulling, pullQueueFreeAt,
        lastPodEvent, allocatableShrunk, devices);
  }

  public NodeState withReady(boolean r) {
    return new NodeState(node, claim, gpus, registered, r, pluginRegistered, pluginGeneration, pulling, pullQueueFreeAt,
        lastPodEvent, allocatableShrunk, devices);
  }

  public NodeState withPlugin(boolean registeredNow, long generation) {
    return new NodeState(node, claim, gpus, registered, ready, registeredNow, generation, pulling, pullQueueFreeAt,
        lastPodEvent, allocatableShrunk, devices);
  }

  public NodeState withPulls(Map<String, Instant> p, Instant freeAt) {
    return new NodeState(node, claim, gpus, registered, ready, pluginRegistered, pluginGeneration, p, freeAt, lastPodEvent,
        allocatableShrunk, devices);
  }

  public NodeState withLastPodEvent(Instant t) {
    return new NodeState(node, claim, gpus, registered, ready, pluginRegistered, pluginGeneration, pulling, pullQueueFreeAt,
        t, allocatableShrunk, devices);
  }

  public NodeState withAllocatableShrunk(boolean s) {
    return new NodeState(node, claim, gpus, registered, ready, pluginRegistered, pluginGeneration, pulling, pullQueueFreeAt,
        lastPodEvent, s, devices);
  }
}
