package io.gpufleet.cli;

import io.gpufleet.engine.scheduler.BatchPlacement;
import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.Scheduler;
import io.gpufleet.engine.scheduler.SchedulerProfile;
import io.gpufleet.manifest.ManifestBundle;
import io.gpufleet.manifest.ManifestReader;
import io.gpufleet.report.placement.PlacementReport;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * {@code gpufleet lab}: the GPU-scheduling lab. Until the simulator lands this plays its first
 * lesson only: a tainted GPU node, a pod that forgot its toleration, and the same pod fixed.
 */
@Command(name = "lab", mixinStandardHelpOptions = true,
    description = "Plays the GPU scheduling and sharing lab on a built-in cluster.")
final class LabCommand implements Callable<Integer> {

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    ManifestBundle bundle;
    try (InputStream in = LabCommand.class.getResourceAsStream("lab-cluster.yaml")) {
      bundle = new ManifestReader().read("lab-cluster.yaml", new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
    out.println("== Scheduling mechanics: GPU nodes are tainted, GPU pods tolerate ==");
    out.println();
    out.println("Cluster: one g5.xlarge GPU node (1 x NVIDIA A10G, tainted nvidia.com/gpu=true:NoSchedule)");
    out.println("and two CPU nodes. Two pods ask for nvidia.com/gpu: 1; only one tolerates the taint.");
    out.println();
    var result = BatchPlacement.place(bundle.pods(), ClusterSnapshot.of(bundle.nodes()),
        new Scheduler(SchedulerProfile.defaults()), new SplittableRandom(1), false);
    out.print(PlacementReport.text(result, false));
    out.println();
    out.println("The pod without a toleration stays Pending with the message kube-scheduler emits;");
    out.println("the tolerating pod takes the GPU. Try your own cluster: ./gpufleet schedule -f cluster.yaml");
    out.flush();
    return ExitCodes.OK;
  }
}
