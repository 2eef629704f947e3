package io.gpufleet.sim.controller;

import io.gpufleet.engine.mig.MigManager;
import io.gpufleet.engine.mig.MigStep;
import io.gpufleet.model.deviceplugin.MigPartedConfig;
import io.gpufleet.engine.mig.MigConfigState;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.sim.kernel.Event;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.state.NodeState;
import io.gpufleet.sim.state.PodState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The GPU Operator's MIG manager on each node, carrying out the engine's {@link MigManager} decision
 * in time, as NVIDIA's k8s-mig-manager does when a node's {@code nvidia.com/mig.config} changes:
 * at once, {@code nvidia.com/mig.config.state=pending}, the operands paused and the GPU pods evicted,
 * and the plugin stops (the node advertises no GPUs); after the scenario's {@code migReconfiguration},
 * the new layout, the operands back and {@code success} (or {@code failed}, the layout as it was),
 * then the plugin registers again. A config the mig-parted file lacks is {@code failed} at once. A
 * label changed while the manager works is looked at when it finishes, as the real one handles one
 * change at a time.
 */
final class MigManagerDaemon {

  private final ApiServer api;
  private final Kubelet kubelet;

  MigManagerDaemon(ApiServer api, Kubelet kubelet) {
    this.api = api;
    this.kubelet = kubelet;
  }

  /** The node's {@code nvidia.com/mig.config} was set or removed. */
  void configChanged(String node) {
    NodeState n = api.state().nodes().get(node);
    if (n == null || n.migInFlight().isPresent()) {
      return;
    }
    List<Pod> pods = new ArrayList<>();
    for (PodState p : api.state().pods().values()) {
      if (p.node().equals(Optional.of(node)) && !p.isTerminating()) {
        pods.add(p.pod());
      }
    }
    pods.sort(Comparator.comparing(Pod::key));
    Optional<MigManager.Decision> decision = api.devicePlugin().operator().reconcileMig(n.node(), n.gpus(),
        n.migLayout(), pods);
    if (decision.isEmpty() || decision.get().steps().isEmpty()) {
      return;
    }
    MigManager.Decision d = decision.get();
    if (d.drain().isEmpty()) {
      // Nothing to drain: the manager is done at once (a config the mig-parted file does not hold).
      carryOut(node, d.steps(), d);
      return;
    }
    api.kubeletStatus(n.withMig(n.migLayout(), Optional.of(d)));
    carryOut(node, d.drain(), d);
    kubelet.pluginDisconnected(api.state().nodes().get(node));
    api.scheduleIn(api.devicePlugin().migReconfiguration(), new Event.MigReconfigured(node));
  }

  /** mig-parted is done: the rest of the decision, then the plugin registers what the GPUs now are. */
  void onReconfigured(Event.MigReconfigured e) {
    NodeState n = api.state().nodes().get(e.node());
    if (n == null || n.migInFlight().isEmpty()) {
      return;
    }
    MigManager.Decision d = n.migInFlight().get();
    carryOut(e.node(), d.finish(), d);
    NodeState done = api.state().nodes().get(e.node());
    NodeState next = done.withMig(done.migLayout(), Optional.empty())
        .withPlugin(done.pluginRegistered(), done.pluginGeneration() + 1);
    api.kubeletStatus(next);
    kubelet.schedulePlugin(next, api.devicePlugin().registrationDelay());
    // A label changed meanwhile is the next reconfiguration; a failed one waits for a new label.
    if (!next.node().labels().get(MigPartedConfig.CONFIG_LABEL).equals(d.configName())) {
      configChanged(e.node());
    }
  }

  /** Steps as the manager takes them: labels as its kubectl sets them, evictions, the layout. */
  private void carryOut(String node, List<MigStep> steps, MigManager.Decision d) {
    for (MigStep step : steps) {
      NodeState n = api.state().nodes().get(node);
      switch (step) {
        case MigStep.SetLabel l -> {
          api.updateNode(n.withNode(n.node().withLabels(n.node().labels().with(l.key(), l.value()))));
          boolean failed = l.key().equals(MigPartedConfig.STATE_LABEL)
              && l.value().equals(MigConfigState.FAILED.wireName());
          api.log(RunRecord.Kind.NODE_LABELED, node, l.key() + "=" + l.value()
              + (failed ? d.failure().map(f -> " (" + f + ")").orElse("") : ""));
        }
        case MigStep.EvictPod p -> api.deletePod(p.podKey(), RunRecord.Kind.POD_EVICTED, p.reason());
        case MigStep.ApplyLayout a -> api.kubeletStatus(n.withMig(a.layout(), n.migInFlight()));
        case MigStep.Reboot r -> {
          // Not asked for: the simulator's reconcile passes rebootForModeChange false.
        }
      }
    }
  }
}
