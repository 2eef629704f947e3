package io.gpufleet.cli;

import io.gpufleet.engine.deviceplugin.DeviceAllocation;
import io.gpufleet.engine.deviceplugin.NodeDevices;
import io.gpufleet.engine.deviceplugin.Registration;
import io.gpufleet.engine.scheduler.BatchPlacement;
import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.Scheduler;
import io.gpufleet.engine.scheduler.SchedulerProfile;
import io.gpufleet.engine.workload.InitialPods;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.report.smi.SmiView;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    GpuClusterFile cluster = GpuClusterFile.read(input.read());
    Cli.printWarnings(cluster.bundle(), spec);
    SplittableRandom random = new SplittableRandom(seed);
    List<Node> nodes = cluster.nodes().stream().map(GpuClusterFile.GpuNode::node).toList();
    // Controllers resume from the pods the cluster has; finished pods hold nothing.
    List<Pod> pods = new ArrayList<>(InitialPods.resume(cluster.workloads(), nodes, cluster.pods(),
        cluster.bundle().succeededPods(), random));
    pods.addAll(cluster.pods());
    BatchPlacement.Result placed = BatchPlacement.place(pods, ClusterSnapshot.of(nodes),
        new Scheduler(SchedulerProfile.defaults()), random, false);
    Map<String, NodeDevices> devices = new LinkedHashMap<>();
    for (GpuClusterFile.GpuNode n : cluster.nodes()) {
      n.registration().flatMap(Registration::devices).ifPresent(d -> devices.put(n.node().name(), d));
    }
    List<SmiView.Unplaced> unplaced = new ArrayList<>();
    for (BatchPlacement.Outcome o : placed.outcomes()) {
      switch (o) {
        case BatchPlacement.Outcome.Bound b -> {
          NodeDevices state = devices.get(b.node());
          if (state == null) {
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
      }
    }
    out.print(SmiView.render(List.copyOf(devices.values()), unplaced));
    if (!devices.isEmpty()) {
      out.println("note: " + SmiView.DEVICE_IDS_NOTE);
    }
    out.flush();
    return 0;
  }
}
