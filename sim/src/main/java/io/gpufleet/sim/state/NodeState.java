package io.gpufleet.sim.state;

import io.gpufleet.engine.deviceplugin.NodeDevices;
import io.gpufleet.engine.mig.MigManager;
import io.gpufleet.model.cloud.GpuSpec;
import io.gpufleet.model.gpu.MigLayout;
import io.gpufleet.model.node.Node;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A registered node with what its kubelet knows beyond the Node object: whether it reports Ready,
 * its device plugin's registration, the images it is pulling and when its pull slots free up, when a
 * pod last arrived or left (Karpenter's {@code lastPodEventTime}), and the MIG layout its GPUs have.
 *
 * @param gpus the node's physical GPUs, which its device plugin advertises
 * @param pluginGeneration bumped when the plugin must register again (a config-label change, a MIG
 *     reconfiguration), so stale registration timers can be told apart
 * @param pulling images being pulled and when each pull finishes
 * @param pullSlots when each of the kubelet's pull slots frees up (one with serialized pulls; as
 *     many as {@code maxParallelImagePulls} allows; none when parallel pulls are unbounded)
 * @param allocatableShrunk allocatable dropped below what bound pods request (a plugin
 *     re-registration with fewer replicas; running pods stay), so the overcommit invariant waits
 * @param devices the kubelet device manager's state: the devices the plugin advertises and which
 *     pod's containers hold which (empty until the plugin registers, or on nodes without GPUs)
 * @param pluginPod the plugin pod whose process registered, where the scenario runs the plugin in a
 *     DaemonSet; empty for a plugin outside the modelled pods or one registered before the run
 * @param migLayout the layout the MIG manager last applied to the GPUs
 * @param migInFlight the MIG manager's reconfiguration under way: its drain is done, its finish
 *     (layout, operands back, final state) waits for mig-parted
 */
public record NodeState(Node node, Optional<String> claim, Optional<GpuSpec> gpus, Instant registered,
    boolean ready, boolean pluginRegistered, long pluginGeneration, Map<String, Instant> pulling,
    List<Instant> pullSlots, Instant lastPodEvent, boolean allocatableShrunk, Optional<NodeDevices> devices,
    Optional<String> pluginPod, MigLayout migLayout, Optional<MigManager.Decision> migInFlight) {

  public NodeState {
    Objects.requireNonNull(node, "node");
    pulling = Map.copyOf(pulling);
    pullSlots = List.copyOf(pullSlots);
    devices = devices == null ? Optional.empty() : devices;
    Objects.requireNonNull(pluginPod, "pluginPod");
    Objects.requireNonNull(migLayout, "migLayout");
    Objects.requireNonNull(migInFlight, "migInFlight");
  }

  /** A node as it joins: nothing pulled, no devices allocated yet, GPUs as the MIG manager laid them out. */
  public static NodeState joining(Node node, Optional<String> claim, Optional<GpuSpec> gpus, Instant now, boolean ready,
      boolean pluginRegistered, int pullSlots, MigLayout layout) {
    return new NodeState(node, claim, gpus, now, ready, pluginRegistered, 0, Map.of(),
        Collections.nCopies(pullSlots, now), now, false, Optional.empty(), Optional.empty(), layout,
        Optional.empty());
  }

  public NodeState withDevices(Optional<NodeDevices> d) {
    return new NodeState(node, claim, gpus, registered, ready, pluginRegistered, pluginGeneration, pulling,
        pullSlots, lastPodEvent, allocatableShrunk, d, pluginPod, migLayout, migInFlight);
  }

  public String name() {
    return node.name();
  }

  public NodeState withNode(Node n) {
    return new NodeState(n, claim, gpus, registered, ready, pluginRegistered, pluginGeneration, pulling, pullSlots,
        lastPodEvent, allocatableShrunk, devices, pluginPod, migLayout, migInFlight);
  }

  public NodeState withReady(boolean r) {
    return new NodeState(node, claim, gpus, registered, r, pluginRegistered, pluginGeneration, pulling, pullSlots,
        lastPodEvent, allocatableShrunk, devices, pluginPod, migLayout, migInFlight);
  }

  public NodeState withPlugin(boolean registeredNow, long generation) {
    return new NodeState(node, claim, gpus, registered, ready, registeredNow, generation, pulling, pullSlots,
        lastPodEvent, allocatableShrunk, devices, pluginPod, migLayout, migInFlight);
  }

  /** The plugin registered from this pod (empty: from outside the modelled pods). */
  public NodeState withPluginPod(Optional<String> pod) {
    return new NodeState(node, claim, gpus, registered, ready, pluginRegistered, pluginGeneration, pulling, pullSlots,
        lastPodEvent, allocatableShrunk, devices, pod, migLayout, migInFlight);
  }

  public NodeState withPulls(Map<String, Instant> p, List<Instant> slots) {
    return new NodeState(node, claim, gpus, registered, ready, pluginRegistered, pluginGeneration, p, slots,
        lastPodEvent, allocatableShrunk, devices, pluginPod, migLayout, migInFlight);
  }

  public NodeState withLastPodEvent(Instant t) {
    return new NodeState(node, claim, gpus, registered, ready, pluginRegistered, pluginGeneration, pulling, pullSlots,
        t, allocatableShrunk, devices, pluginPod, migLayout, migInFlight);
  }

  public NodeState withAllocatableShrunk(boolean s) {
    return new NodeState(node, claim, gpus, registered, ready, pluginRegistered, pluginGeneration, pulling, pullSlots,
        lastPodEvent, s, devices, pluginPod, migLayout, migInFlight);
  }

  public NodeState withMig(MigLayout layout, Optional<MigManager.Decision> inFlight) {
    return new NodeState(node, claim, gpus, registered, ready, pluginRegistered, pluginGeneration, pulling, pullSlots,
        lastPodEvent, allocatableShrunk, devices, pluginPod, layout, inFlight);
  }
}
