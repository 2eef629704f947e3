package io.gpufleet.cli;

import io.gpufleet.cluster.Cluster;
import io.gpufleet.cluster.ClusterNode;
import io.gpufleet.engine.deviceplugin.DeviceAllocation;
import io.gpufleet.engine.deviceplugin.NodeDevices;
import io.gpufleet.engine.deviceplugin.Registration;
import io.gpufleet.engine.dra.Allocation;
import io.gpufleet.engine.dra.DraState;
import io.gpufleet.engine.dra.GpuClaimPreparation;
import io.gpufleet.engine.dra.NvidiaDraDriver;
import io.gpufleet.engine.dra.PodClaims;
import io.gpufleet.engine.scheduler.BatchPlacement;
import io.gpufleet.engine.scheduler.plugin.DynamicResources;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.gpu.MigLayout;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.report.smi.SmiView;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gpufleet smi -f FILE}: schedules the file's pods and workload pods onto its nodes, lets
 * each kubelet allocate devices, and prints the per-card process view.
 */
@Command(name = "smi", mixinStandardHelpOptions = true,
    description = "Schedule a cluster file's pods and show, like nvidia-smi, which pod runs on which GPU.")
public final class SmiCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Nodes, device-plugin ConfigMap, pods and workloads. */
  @CommandLine.Mixin ManifestInputOptions input;

  @Option(names = "--seed", defaultValue = "1", description = "Seed for pod names and score ties (default ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--dra-feature-gates", paramLabel = "GATE=BOOL,...",
      description = "NVIDIA DRA driver feature gates (TimeSlicingSettings, MPSSupport; both off by default, "
          + "as upstream): whether a claim's GpuConfig sharing applies.")
  String draFeatureGates;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    Cluster cluster = input.cluster();
    Cli.printWarnings(cluster, spec);
    GpuClaimPreparation.FeatureGates gates = gates(draFeatureGates);
    Cluster.Placement placement = cluster.place(Cluster.defaultProfiles(), new SplittableRandom(seed), false);
    BatchPlacement.Result placed = placement.result();
    DynamicResources dynamicResources = placement.dynamicResources();
    Map<String, NodeDevices> devices = new LinkedHashMap<>();
    for (ClusterNode n : cluster.nodes()) {
      n.registration().flatMap(Registration::devices).ifPresent(d -> devices.put(n.node().name(), d));
    }
    List<SmiView.Unplaced> unplaced = new ArrayList<>();
    Set<String> unmodelled = new HashSet<>();
    cluster.nodes().stream().filter(n -> n.registration().isEmpty() && n.inventory().isEmpty())
        .forEach(n -> unmodelled.add(n.node().name()));
    for (BatchPlacement.Outcome o : placed.outcomes()) {
      switch (o) {
        case BatchPlacement.Outcome.Bound b -> {
          NodeDevices state = devices.get(b.node());
          if (state == null) {
            // A node whose cards are not modelled (none found, or its labels unreadable, warned above) may
            // still advertise GPUs in its capacity: say where its GPU pods went rather than drop them.
            if (unmodelled.contains(b.node())
                && b.pod().requests().quantities().keySet().stream().anyMatch(ResourceName::isNvidiaGpuLike)) {
              unplaced.add(new SmiView.Unplaced(b.pod().key(), "Running", "bound to node " + b.node()
                  + ", whose GPUs gpufleet does not model (see node describe), so no card is shown"));
            }
            continue;
          }
          switch (DeviceAllocation.allocate(state, b.pod())) {
            case DeviceAllocation.Result.Granted g -> devices.put(b.node(), g.next());
            case DeviceAllocation.Result.Refused r -> unplaced.add(new SmiView.Unplaced(b.pod().key(),
                "Failed", r.reason() + ": " + r.message()));
          }
        }
        case BatchPlacement.Outcome.Pending p -> unplaced.add(new SmiView.Unplaced(p.pod().key(), "Pending",
            p.error().message()));
        case BatchPlacement.Outcome.Rejected r -> unplaced.add(new SmiView.Unplaced(r.pod().key(), "Failed",
            r.reason() + ": " + r.message()));
        case BatchPlacement.Outcome.Preempted v -> unplaced.add(new SmiView.Unplaced(v.pod().key(), "Terminating",
            "Preempted by pod " + v.preemptor().key() + " on node " + v.node()));
        case BatchPlacement.Outcome.Orphaned o2 -> unplaced.add(new SmiView.Unplaced(o2.pod().key(), "Pending",
            "spec.nodeName names node \"" + o2.node() + "\", which does not exist"));
        case BatchPlacement.Outcome.Unclaimed u -> unplaced.add(new SmiView.Unplaced(u.pod().key(), "Pending",
            "no scheduler profile named \"" + u.schedulerName() + "\""));
        case BatchPlacement.Outcome.Gated g -> unplaced.add(new SmiView.Unplaced(g.pod().key(), "SchedulingGated",
            g.message()));
      }
    }
    List<SmiView.DraNode> draNodes = draNodes(cluster, placed, dynamicResources, gates, unplaced);
    out.print(SmiView.render(List.copyOf(devices.values()), draNodes, unplaced));
    if (!devices.isEmpty()) {
      out.println("note: " + SmiView.DEVICE_IDS_NOTE);
    }
    out.flush();
    return 0;
  }

  /** {@code --dra-feature-gates}: {@code GATE=true|false}, comma-separated. */
  static GpuClaimPreparation.FeatureGates gates(String option) {
    GpuClaimPreparation.FeatureGates gates = GpuClaimPreparation.FeatureGates.DEFAULTS;
    if (option == null || option.isBlank()) {
      return gates;
    }
    for (String item : option.split(",")) {
      String[] kv = item.strip().split("=", 2);
      String value = kv.length == 2 ? kv[1].strip() : "";
      if (!value.equals("true") && !value.equals("false")) {
        throw new UserError("--dra-feature-gates: expected GATE=true or GATE=false, found \"" + item.strip() + "\"");
      }
      gates = gates.with(kv[0].strip(), Boolean.parseBoolean(value)).orElseThrow(() -> new UserError(
          "--dra-feature-gates: expected one of " + String.join(", ", GpuClaimPreparation.FeatureGates.NAMES)
              + ", found \"" + kv[0].strip() + "\""));
    }
    return gates;
  }

  /**
   * The nodes NVIDIA's DRA driver serves, with the pods holding their cards through claims, each
   * claim prepared as the driver's kubelet plugin prepares it; a pod whose claim fails to prepare
   * is listed with the driver's error instead, its containers waiting as they would.
   */
  private static List<SmiView.DraNode> draNodes(Cluster cluster, BatchPlacement.Result placed,
      DynamicResources plugin, GpuClaimPreparation.FeatureGates gates, List<SmiView.Unplaced> unplaced) {
    DraState state = plugin.state(placed.snapshot());
    // Each DRA node's cards as the MIG manager lays them out, which names the driver's MIG devices.
    NvidiaDraDriver driver = new NvidiaDraDriver(cluster.operator().catalog());
    Map<String, MigLayout> layouts = new LinkedHashMap<>();
    for (ClusterNode n : cluster.nodes()) {
      n.inventory().ifPresent(i -> layouts.put(n.node().name(), driver.layout(n.node(), i)));
    }
    Map<String, List<SmiView.ClaimedCard>> held = new LinkedHashMap<>();
    Map<String, GpuClaimPreparation.Outcome> prepared = new LinkedHashMap<>();
    for (BatchPlacement.Outcome o : placed.outcomes()) {
      if (!(o instanceof BatchPlacement.Outcome.Bound b) || placed.snapshot().node(b.node()).isEmpty()
          || !(plugin.claimsOn(b.pod(), placed.snapshot().node(b.node()).get())
              instanceof PodClaims.Resolution.Claims claims)) {
        continue;
      }
      for (ResourceClaim c : claims.claims()) {
        Allocation a = state.allocations().get(c.key());
        if (a == null) {
          continue;
        }
        MigLayout layout = layouts.getOrDefault(a.node(), MigLayout.NONE);
        switch (prepared.computeIfAbsent(c.key(),
            k -> GpuClaimPreparation.prepare(c, a, gates, NvidiaDraDriver.deviceUuids(a, layout)))) {
          case GpuClaimPreparation.Outcome.Failed f -> unplaced.add(new SmiView.Unplaced(b.pod().key(),
              "ContainerCreating", "FailedPrepareDynamicResources: claim " + c.name() + ": " + f.message()));
          case GpuClaimPreparation.Outcome.Prepared p -> {
            for (GpuClaimPreparation.PreparedDevice d : p.devices()) {
              NvidiaDraDriver.placement(d.device(), layout).ifPresent(w -> held.computeIfAbsent(a.node(),
                  k -> new ArrayList<>()).add(new SmiView.ClaimedCard(w.gpuIndex(), w.mig(), d.device(), b.pod().key(),
                  c.name(), GpuClaimPreparation.describe(d.sharing()))));
            }
          }
        }
      }
    }
    List<SmiView.DraNode> out = new ArrayList<>();
    for (ClusterNode n : cluster.nodes()) {
      if (n.registration().isEmpty() && n.inventory().isPresent() && held.containsKey(n.node().name())) {
        out.add(new SmiView.DraNode(n.node().name(), n.inventory().get(), layouts.get(n.node().name()),
            held.get(n.node().name())));
      }
    }
    return out;
  }
}
