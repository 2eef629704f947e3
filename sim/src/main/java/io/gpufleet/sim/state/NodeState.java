package io.gpufleet.sim.state;

import io.gpufleet.model.cloud.GpuSpec;
import io.gpufleet.model.node.Node;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

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
 */
public record NodeState(Node node, Optional<String> claim, Optional<GpuSpec> gpus, Instant registered,
    boolean ready, boolean pluginRegistered, long pluginGeneration, Map<String, Instant> pulling,
    Instant pullQueueFreeAt, Instant lastPodEvent, boolean allocatableShrunk) {

  public NodeState {
    Objects.requireNonNull(node, "node");
    pulling = Map.copyOf(pulling);
  }

  public String name() {
    return node.name();
  }

  public NodeState withNode(Node n) {
    return new NodeState(n, claim, gpus, registered, ready, pluginRegistered, pluginGeneration, pulling, pullQueueFreeAt,
        lastPodEvent, allocatableShrunk);
  }

  public NodeState withReady(boolean r) {
    return new NodeState(node, claim, gpus, registered, r, pluginRegistered, pluginGeneration, pulling, pullQueueFreeAt,
        lastPodEvent, allocatableShrunk);
  }

  public NodeState withPlugin(boolean registeredNow, long generation) {
    return new NodeState(node, claim, gpus, registered, ready, registeredNow, generation, pulling, pullQueueFreeAt,
        lastPodEvent, allocatableShrunk);
  }

  public NodeState withPulls(Map<String, Instant> p, Instant freeAt) {
    return new NodeState(node, claim, gpus, registered, ready, pluginRegistered, pluginGeneration, p, freeAt, lastPodEvent,
        allocatableShrunk);
  }

  public NodeState withLastPodEvent(Instant t) {
    return new NodeState(node, claim, gpus, registered, ready, pluginRegistered, pluginGeneration, pulling, pullQueueFreeAt,
        t, allocatableShrunk);
  }

  public NodeState withAllocatableShrunk(boolean s) {
    return new NodeState(node, claim, gpus, registered, ready, pluginRegistered, pluginGeneration, pulling, pullQueueFreeAt,
        lastPodEvent, s);
  }
}
