package io.gpufleet.cli;

import io.gpufleet.engine.deviceplugin.DeviceAllocation;
import io.gpufleet.engine.deviceplugin.NodeDevices;
import io.gpufleet.engine.scheduler.BatchPlacement;
import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.Scheduler;
import io.gpufleet.engine.scheduler.SchedulerProfile;
import io.gpufleet.engine.workload.PodFactory;
import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.workload.Workload;
import io.gpufleet.report.smi.SmiView;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
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

  @Option(names = {"-f", "--filename"}, required = true,
      description = "Nodes, device-plugin ConfigMap, pods and workloads (YAML).")
  Path file;

  @Option(names = "--seed", defaultValue = "1", description = "Seed for pod names and score ties (default ${DEFAULT-VALUE}).")
  long seed;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    GpuClusterFile cluster;
    try {
      cluster = GpuClusterFile.read(file);
    } catch (ManifestException e) {
      return GpuClusterFile.report(e, err);
    } catch (java.nio.file.NoSuchFileException e) {
      err.println(file + ": no such file");
      return 2;
    } catch (IOException e) {
      err.println(file + ": cannot read: " + e.getMessage());
      return 2;
    }
    SplittableRandom random = new SplittableRandom(seed);
    List<Node> nodes = cluster.nodes().stream().map(GpuClusterFile.GpuNode::node).toList();
    List<Pod> pods = new ArrayList<>(cluster.pods());
    for (Workload w : cluster.workloads()) {
      pods.addAll(podsOf(w, nodes, random));
    }
    BatchPlacement.Result placed = BatchPlacement.place(pods, ClusterSnapshot.of(nodes),
        new Scheduler(SchedulerProfile.defaults()), random, false);
    Map<String, NodeDevices> devices = new LinkedHashMap<>();
    for (GpuClusterFile.GpuNode n : cluster.nodes()) {
      n.registration().ifPresent(r -> devices.put(n.node().name(), r.devices()));
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
      }
    }
    out.print(SmiView.render(List.copyOf(devices.values()), unplaced));
    out.flush();
    return 0;
  }

  /** The pods a controller would start now: its replicas, a Job's parallelism, a DaemonSet's one per node. */
  static List<Pod> podsOf(Workload w, List<Node> nodes, SplittableRandom random) {
    List<Pod> out = new ArrayList<>();
    int n = switch (w) {
      case Workload.Deployment d -> d.replicas();
      case Workload.ReplicaSet rs -> rs.replicas();
      case Workload.StatefulSet ss -> ss.replicas();
      case Workload.Job j -> Math.min(j.parallelism(), j.completions());
      case Workload.DaemonSet ds -> 0;
    };
    for (int i = 0; i < n; i++) {
      out.add(PodFactory.pod(w, i, random));
    }
    if (w instanceof Workload.DaemonSet ds) {
      for (Node node : nodes) {
        if (PodFactory.shouldRunOn(ds, node)) {
          out.add(PodFactory.daemonPod(ds, node.name(), random));
        }
      }
    }
    return out;
  }
}
