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
import io.gpufleet.report.table.Wrap;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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

  @CommandLine.Mixin DraDriverOptions draDriver = new DraDriverOptions();
  @picocli.CommandLine.Mixin WidthOption width;

  @Option(names = "--seed", defaultValue = "1", description = "Seed for pod names and score ties (default ${DEFAULT-VALUE}).")
  long seed;


  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    Cluster cluster = input.cluster(draDriver.gates());
    Cli.printWarnings(cluster, spec);
    if (cluster.nodes().isEmpty()) {
      // nvidia-smi runs on a node; with none in the input there is no card to show. Pods still get their
      // line (why they stay Pending), so a NodePool-only input is read; with nothing to show it is refused.
      String noNode = "no Node in the input: smi shows the GPUs of the nodes it is given (kubectl get nodes -o yaml, "
          + "or a gpufleet Node), and pods' places on them";
      if (cluster.pods().isEmpty() && cluster.workloads().isEmpty()) {
        throw new UserError(noNode);
      }
      // Named as its error is, and as probe names its warnings: "gpufleet smi: warning: ...".
      spec.commandLine().getErr().println(spec.qualifiedName() + ": warning: " + noNode);
    }
    GpuClaimPreparation.FeatureGates gates = draDriver.gates();
    Cluster.Placement placement = cluster.place(Cluster.defaultProfiles(), seed, false);
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
        case BatchPlacement.Outcome.Unprepared u -> unplaced.add(new SmiView.Unplaced(u.pod().key(),
            "ContainerCreating", BatchPlacement.Outcome.Unprepared.REASON + ": " + u.message()));
        case BatchPlacement.Outcome.Gated g -> unplaced.add(new SmiView.Unplaced(g.pod().key(), "SchedulingGated",
            g.message()));
      }
    }
    List<SmiView.DraNode> draNodes = draNodes(cluster, placed, dynamicResources, gates, unplaced);
    out.print(SmiView.render(List.copyOf(devices.values()), draNodes, unplaced, width.columns()));
    if (!devices.isEmpty()) {
      out.println(Wrap.foldAll("note: " + SmiView.DEVICE_IDS_NOTE, width.columns()));
    }
    out.flush();
    return 0;
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
