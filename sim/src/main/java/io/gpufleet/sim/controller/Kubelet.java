package io.gpufleet.sim.controller;

import io.gpufleet.autoscaler.gpu.GpuAdvertiser;
import io.gpufleet.engine.deviceplugin.ContainerDevices;
import io.gpufleet.engine.deviceplugin.Device;
import io.gpufleet.engine.deviceplugin.DeviceAllocation;
import io.gpufleet.engine.deviceplugin.Registration;
import io.gpufleet.sim.metrics.CardSpan;
import io.gpufleet.engine.deviceplugin.NodeDevices;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.workload.Workload;
import io.gpufleet.sim.kernel.Event;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.state.NodeState;
import io.gpufleet.sim.state.PodState;
import io.gpufleet.sim.state.WorkloadState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The kubelets: start bound pods (pulling images the node does not have, one pull at a time as the
 * kubelet's default serialised pulls do, then starting containers and passing readiness), finish
 * Job pods, let terminating pods exit, report nodes Ready, and host the device plugin, which
 * registers {@code nvidia.com/gpu} some time after the node is Ready and re-registers when the
 * node's config label changes.
 */
final class Kubelet {

  static final Taint NOT_READY = Taint.of("node.kubernetes.io/not-ready", "", TaintEffect.NO_SCHEDULE);

  private final ApiServer api;

  Kubelet(ApiServer api) {
    this.api = api;
    api.watch(ClusterEvent.PodBound.class, b -> start(api.state().pods().get(b.pod())));
  }

  // ---- pods ----

  /**
   * A node that joins with its device plugin already registered (a node the scenario starts with)
   * gets the device manager's state at once, as one that registers later does in
   * {@link #onPluginRegisters}.
   */
  NodeState withRegisteredDevices(NodeState n) {
    return n.withDevices(api.devicePlugin().operator().register(n.node(), n.gpus()).devices());
  }

  /** A pod was bound here: the device manager assigns its GPUs, then missing images are pulled and it starts. */
  private void start(PodState p) {
    allocateDevices(p);
    NodeState n = api.state().nodes().get(p.node().get());
    Instant now = api.now();
    Instant ready = now;
    Map<String, Instant> pulling = new HashMap<>(n.pulling());
    Instant queueFree = n.pullQueueFreeAt().isBefore(now) ? now : n.pullQueueFreeAt();
    for (String image : p.pod().spec().images()) {
      if (n.node().images().contains(image)) {
        continue;
      }
      Instant done = pulling.get(image);
      if (done == null) {
        done = queueFree.plus(api.settings().pullTime(image));
        pulling.put(image, done);
        queueFree = done;
      }
      if (done.isAfter(ready)) {
        ready = done;
      }
    }
    if (!pulling.equals(n.pulling())) {
      api.kubeletStatus(n.withPulls(pulling, queueFree));
    }
    api.schedule(ready.plus(api.settings().containerStart()), new Event.PodStarts(p.key(), p.generation()));
  }

  /**
   * The kubelet's {@code Allocate} for a pod's GPU containers (engine {@code DeviceAllocation}:
   * which card, replica or MIG slice each gets). A refusal (a shared resource asked for more than
   * once under {@code failRequestsGreaterThanOne}) is recorded; the simulated pod runs on without
   * devices rather than failing, since its controller would recreate it onto the same node at once.
   */
  private void allocateDevices(PodState p) {
    NodeState n = api.state().nodes().get(p.node().get());
    Optional<NodeDevices> devices = n.devices();
    if (devices.isEmpty()) {
      return;
    }
    switch (DeviceAllocation.allocate(devices.get(), p.pod())) {
      case DeviceAllocation.Result.Granted g -> {
        api.kubeletStatus(n.withDevices(Optional.of(g.next())));
        List<CardSpan.Card> cards = new ArrayList<>();
        for (ContainerDevices c : g.containers()) {
          for (Device d : c.devices()) {
            String detail = d.mig().map(m -> m.profile().name()).orElse(d.replicas() > 1 ? "shared" : "");
            CardSpan.Card card = new CardSpan.Card(d.gpuIndex(), d.gpuUuid(), detail);
            if (!cards.contains(card)) {
              cards.add(card);
            }
          }
        }
        api.metrics().cardsAssigned(p.key(), n.name(), cards, api.now());
      }
      case DeviceAllocation.Result.Refused r -> {
        api.kubeletStatus(n.withDevices(devices));
        api.log(RunRecord.Kind.DEVICE_ALLOCATION_REFUSED, p.key(), r.reason() + ": " + r.message());
      }
    }
  }

  void onStarts(Event.PodStarts e) {
    PodState p = api.state().pods().get(e.pod());
    if (p == null || p.generation() != e.generation() || p.isTerminating()) {
      return;
    }
    cacheImages(p);
    api.podStarted(p.key());
    PodState s = api.state().pods().get(p.key());
    api.scheduleIn(api.settings().readiness(), new Event.PodBecomesReady(p.key(), s.generation()));
    runFor(s).ifPresent(d -> api.scheduleIn(d, new Event.PodCompletes(p.key(), s.generation())));
  }

  /** Images whose pull has finished join the node's cache. */
  private void cacheImages(PodState p) {
    NodeState n = api.state().nodes().get(p.node().get());
    Instant now = api.now();
    List<String> images = new ArrayList<>(n.node().images());
    Map<String, Instant> pulling = new HashMap<>(n.pulling());
    boolean changed = false;
    for (var it = pulling.entrySet().iterator(); it.hasNext();) {
      var e = it.next();
      if (!e.getValue().isAfter(now)) {
        images.add(e.getKey());
        it.remove();
        changed = true;
        api.log(RunRecord.Kind.IMAGE_PULLED, n.name(), e.getKey());
      }
    }
    if (changed) {
      api.kubeletStatus(n.withNode(n.node().withImages(images)).withPulls(pulling, n.pullQueueFreeAt()));
    }
  }

  private java.util.Optional<Duration> runFor(PodState p) {
    if (p.workload().isEmpty()) {
      return java.util.Optional.empty();
    }
    WorkloadState w = api.state().workloads().get(p.workload().get());
    if (w != null && w.workload() instanceof Workload.Job j) {
      return j.runFor();
    }
    return java.util.Optional.empty();
  }

  void onReady(Event.PodBecomesReady e) {
    PodState p = api.state().pods().get(e.pod());
    if (p == null || p.generation() != e.generation() || p.isTerminating()) {
      return;
    }
    api.podReady(p.key());
  }

  void onCompletes(Event.PodCompletes e, WorkloadControllers workloads) {
    PodState p = api.state().pods().get(e.pod());
    if (p == null || p.isTerminating() || p.phase() != PodState.Phase.RUNNING) {
      return;
    }
    workloads.jobPodSucceeded(p);
    api.removePod(p.key(), RunRecord.Kind.POD_SUCCEEDED, "completed");
  }

  void onExits(Event.PodExits e) {
    PodState p = api.state().pods().get(e.pod());
    if (p == null || p.generation() != e.generation()) {
      return;
    }
    api.removePod(p.key(), RunRecord.Kind.POD_EXITED, "terminated gracefully");
  }

  // ---- nodes and the device plugin ----

  void onNodeReady(Event.NodeReady e) {
    NodeState n = api.state().nodes().get(e.node());
    if (n == null || n.ready()) {
      return;
    }
    List<Taint> taints = new ArrayList<>(n.node().taints());
    taints.removeIf(NOT_READY::sameKeyAndEffect);
    api.updateNode(n.withNode(n.node().withTaints(taints)).withReady(true));
    api.log(RunRecord.Kind.NODE_READY, n.name(), "");
    if (!api.settings().startupTaintRemoval().isNegative() && n.claim().isPresent()) {
      api.scheduleIn(api.settings().startupTaintRemoval(), new Event.StartupTaintsRemoved(n.name()));
    }
    schedulePlugin(api.state().nodes().get(n.name()), api.devicePlugin().registrationDelay());
  }

  /** Schedules the plugin's (re-)registration unless it never registers on this node. */
  void schedulePlugin(NodeState n, Duration delay) {
    if (n.gpus().isEmpty()) {
      return;
    }
    if (api.devicePlugin().neverRegistersOn().map(s -> s.matches(n.node().labels())).orElse(false)) {
      return;
    }
    api.scheduleIn(delay, new Event.DevicePluginRegisters(n.name(), n.pluginGeneration()));
  }

  void onStartupTaintsRemoved(Event.StartupTaintsRemoved e, List<Taint> startupTaints) {
    NodeState n = api.state().nodes().get(e.node());
    if (n == null) {
      return;
    }
    List<Taint> taints = new ArrayList<>(n.node().taints());
    boolean removed = taints.removeIf(t -> startupTaints.stream().anyMatch(t::sameKeyAndEffect));
    if (removed) {
      api.updateNode(n.withNode(n.node().withTaints(taints)));
      api.log(RunRecord.Kind.NODE_UNTAINTED, n.name(), "startup taints removed");
    }
  }

  /**
   * The plugin registers with the kubelet under the config the node's label picks: the node's GPU
   * resources become what it advertises, and GPU Feature Discovery's labels appear. Pods already
   * running stay, even if allocatable shrank.
   */
  void onPluginRegisters(Event.DevicePluginRegisters e) {
    NodeState n = api.state().nodes().get(e.node());
    if (n == null || e.generation() != n.pluginGeneration() || n.gpus().isEmpty()) {
      return;
    }
    // The engine's one registration (MIG manager, plugin, GFD); the device manager's checkpoint
    // keeps what running pods hold, even devices no longer advertised.
    Registration r = api.devicePlugin().operator().register(n.node(), n.gpus()).keepingAssignmentsOf(n.devices());
    api.updateNode(n.withNode(r.node()).withPlugin(true, n.pluginGeneration()).withDevices(r.devices()));
    // What the plugin and the MIG manager log (a failed mig.config, MPS asked of a MIG device) goes with it.
    api.log(RunRecord.Kind.DEVICE_PLUGIN_REGISTERED, n.name(), "advertises " + r.advertised() + " (config "
        + n.node().labels().get(GpuAdvertiser.CONFIG_LABEL).orElse("default") + ")"
        + r.warnings().stream().map(w -> "; " + w).collect(java.util.stream.Collectors.joining()));
  }

  /** A config-label change: the config manager restarts the plugin, which registers again. */
  void configChanged(String node) {
    NodeState n = api.state().nodes().get(node);
    if (n == null || n.gpus().isEmpty()) {
      return;
    }
    NodeState next = n.withPlugin(n.pluginRegistered(), n.pluginGeneration() + 1);
    api.kubeletStatus(next);
    schedulePlugin(next, api.devicePlugin().registrationDelay());
  }

  static ResourceList withoutGpus(ResourceList r) {
    ResourceList out = r;
    for (ResourceName name : r.names()) {
      if (name.isNvidiaGpuLike()) {
        out = out.without(name);
      }
    }
    return out;
  }
}
