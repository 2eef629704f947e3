package io.gpufleet.engine.mig;

import io.gpufleet.model.deviceplugin.MigPartedConfig;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.model.gpu.MigLayout;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The GPU Operator's MIG manager with its mig-parted configs: the stock ones for each GPU model
 * ({@link StockMigConfigs}) and the custom ones of a mig-parted ConfigMap, which replace a stock
 * config of the same name. One instance serves every command and the simulator, so a custom config
 * means the same wherever a node is registered.
 *
 * <p>{@link #configure} is its pass over a node that registers with a {@code nvidia.com/mig.config}
 * label. {@link #reconcile} is the same manager as a decision over a running node: given its label,
 * current layout and pods, the steps it would take (k8s-gpu-semantics §2.4): state
 * {@code pending}; operands ({@code nvidia.com/gpu.deploy.*}) set to {@code paused-for-mig-change},
 * which evicts the GPU clients; {@code rebooting} when MIG mode flips and the platform needs a reboot
 * for it; the new layout; operands restored; {@code success} — or {@code failed} when mig-parted
 * cannot apply the layout; a config the file does not hold fails at once, with nothing drained.
 * Pure; the simulator carries the steps out, {@link Decision#drain} at once and
 * {@link Decision#finish} after the reconfiguration time.
 *
 * @param custom the configs of the user's mig-parted ConfigMap; empty for the stock ones alone
 */
public record MigManager(MigPartedConfig custom) {

  /** The manager with the stock configs only (no custom mig-parted ConfigMap). */
  public static final MigManager STOCK = new MigManager(MigPartedConfig.of(Map.of()));

  public MigManager {
    Objects.requireNonNull(custom, "custom");
  }

  /** The configs the manager knows for a GPU model: the stock ones with the custom ones on top. */
  public MigPartedConfig configsFor(GpuModel gpu) {
    return StockMigConfigs.withUserConfigs(gpu, custom);
  }

  /**
   * The manager's outcome for a node as it registers: the layout its GPUs have, and the
   * {@code nvidia.com/mig.config.state} it set (none when the node has no {@code mig.config} label).
   */
  public record Pass(MigLayout layout, Optional<MigConfigState> state, List<String> warnings) {
    public static final Pass NOTHING = new Pass(MigLayout.NONE, Optional.empty(), List.of());

    public Pass {
      Objects.requireNonNull(layout, "layout");
      warnings = List.copyOf(warnings);
    }

    /** The node's labels with the state the manager reported. */
    public Labels labelled(Labels labels) {
      return state.map(s -> labels.with(MigPartedConfig.STATE_LABEL, s.wireName())).orElse(labels);
    }
  }

  /**
   * One pass of the manager over a node that registers with these labels and GPUs, applied at once
   * (the timing of a real reconfiguration is {@link #reconcile}'s): the layout the node's
   * {@code nvidia.com/mig.config} names and state {@code success}, or GPUs left whole and
   * {@code failed} with mig-parted's reason when the config is unknown or does not fit the GPU.
   */
  public Pass configure(Labels nodeLabels, GpuInventory inventory) {
    Optional<String> name = nodeLabels.get(MigPartedConfig.CONFIG_LABEL);
    if (name.isEmpty()) {
      return Pass.NOTHING;
    }
    return switch (MigConfigPlanner.plan(configsFor(inventory.model()), name.get(), inventory, MigLayout.NONE)) {
      case LayoutPlan.Planned p -> new Pass(p.layout(), Optional.of(MigConfigState.SUCCESS), List.of());
      case LayoutPlan.Rejected r -> new Pass(MigLayout.NONE, Optional.of(MigConfigState.FAILED),
          List.of("MIG manager: " + r.reason() + "; " + MigPartedConfig.STATE_LABEL + "=" + MigConfigState.FAILED.wireName()));
    };
  }

  /** Operand labels the manager pauses (GPU Operator's {@code gpu.deploy.*} switches). */
  public static final List<String> OPERAND_LABELS = List.of(
      "nvidia.com/gpu.deploy.device-plugin", "nvidia.com/gpu.deploy.gpu-feature-discovery",
      "nvidia.com/gpu.deploy.dcgm-exporter", "nvidia.com/gpu.deploy.dcgm", "nvidia.com/gpu.deploy.nvsm");
  public static final String PAUSED = "paused-for-mig-change";

  /** What the manager decided: the config it acted on, its steps, and the state it ends in. */
  public record Decision(Optional<String> configName, List<MigStep> steps, Optional<MigConfigState> finalState,
      Optional<String> failure) {
    public Decision {
      steps = List.copyOf(steps);
    }

    static Decision nothing() {
      return new Decision(Optional.empty(), List.of(), Optional.empty(), Optional.empty());
    }

    /**
     * The steps the manager takes as it starts: state {@code pending}, operands paused, GPU clients
     * evicted. What follows ({@link #finish}) comes once mig-parted has worked on the GPUs.
     */
    public List<MigStep> drain() {
      return steps.subList(0, drainLength());
    }

    /** The steps after mig-parted has run: the new layout (or none), operands restored, the final state. */
    public List<MigStep> finish() {
      return steps.subList(drainLength(), steps.size());
    }

    private int drainLength() {
      int i = 0;
      while (i < steps.size() && switch (steps.get(i)) {
        case MigStep.SetLabel l -> l.value().equals(MigConfigState.PENDING.wireName()) || l.value().equals(PAUSED);
        case MigStep.EvictPod e -> true;
        case MigStep.ApplyLayout a -> false;
        case MigStep.Reboot r -> false;
      }) {
        i++;
      }
      return i;
    }

    public Optional<MigLayout> layout() {
      return steps.stream().filter(s -> s instanceof MigStep.ApplyLayout).map(s -> ((MigStep.ApplyLayout) s).layout())
          .findFirst();
    }
  }

  /**
   * @param podsOnNode           pods bound to the node; those asking for a GPU-like resource are evicted
   * @param rebootForModeChange  whether flipping MIG mode needs a node reboot on this platform
   */
  public static Decision reconcile(Node node, GpuInventory inventory, MigPartedConfig config, MigLayout current,
      List<Pod> podsOnNode, boolean rebootForModeChange) {
    Optional<String> name = node.labels().get(MigPartedConfig.CONFIG_LABEL);
    if (name.isEmpty()) {
      return Decision.nothing();
    }
    LayoutPlan plan = MigConfigPlanner.plan(config, name.get(), inventory, current);
    if (plan instanceof LayoutPlan.Rejected r && config.config(name.get()).isEmpty()) {
      // k8s-mig-manager asserts the config is in the file first (mig-parted assert --valid-config)
      // and fails at once, before state pending and before touching any GPU client
      // (NVIDIA/mig-parted deployments/gpu-operator/reconfigure-mig.sh).
      return new Decision(name, List.of(new MigStep.SetLabel(MigPartedConfig.STATE_LABEL,
          MigConfigState.FAILED.wireName())), Optional.of(MigConfigState.FAILED), Optional.of(r.reason()));
    }
    Optional<MigConfigState> state = node.labels().get(MigPartedConfig.STATE_LABEL).flatMap(MigConfigState::fromWire);
    if (plan instanceof LayoutPlan.Planned p && p.layout().equals(current) && state.equals(
        Optional.of(MigConfigState.SUCCESS))) {
      return new Decision(name, List.of(), state, Optional.empty());
    }
    List<MigStep> steps = new ArrayList<>();
    steps.add(new MigStep.SetLabel(MigPartedConfig.STATE_LABEL, MigConfigState.PENDING.wireName()));
    Map<String, String> operands = new LinkedHashMap<>();
    for (String key : OPERAND_LABELS) {
      node.labels().get(key).filter(v -> !v.equals(PAUSED)).ifPresent(v -> operands.put(key, v));
    }
    operands.keySet().forEach(k -> steps.add(new MigStep.SetLabel(k, PAUSED)));
    for (Pod pod : podsOnNode) {
      if (usesGpu(pod)) {
        steps.add(new MigStep.EvictPod(pod.key(), "MIG reconfiguration to " + name.get()));
      }
    }
    switch (plan) {
      case LayoutPlan.Rejected r -> {
        // mig-parted fails at apply time, after the clients are gone (k8s-gpu-semantics §7 point 14).
        operands.forEach((k, v) -> steps.add(new MigStep.SetLabel(k, v)));
        steps.add(new MigStep.SetLabel(MigPartedConfig.STATE_LABEL, MigConfigState.FAILED.wireName()));
        return new Decision(name, steps, Optional.of(MigConfigState.FAILED), Optional.of(r.reason()));
      }
      case LayoutPlan.Planned p -> {
        if (rebootForModeChange && !p.layout().gpus().keySet().equals(current.gpus().keySet())) {
          steps.add(new MigStep.SetLabel(MigPartedConfig.STATE_LABEL, MigConfigState.REBOOTING.wireName()));
          steps.add(new MigStep.Reboot());
        }
        steps.add(new MigStep.ApplyLayout(p.layout()));
        operands.forEach((k, v) -> steps.add(new MigStep.SetLabel(k, v)));
        steps.add(new MigStep.SetLabel(MigPartedConfig.STATE_LABEL, MigConfigState.SUCCESS.wireName()));
        return new Decision(name, steps, Optional.of(MigConfigState.SUCCESS), Optional.empty());
      }
    }
  }

  static boolean usesGpu(Pod pod) {
    return pod.requests().quantities().entrySet().stream()
        .anyMatch(e -> e.getKey().isNvidiaGpuLike() && e.getValue().signum() > 0);
  }

}
