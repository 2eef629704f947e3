package io.gpufleet.cli;

import io.gpufleet.cluster.ClusterAssembly;
import io.gpufleet.cluster.ClusterSettings;
import io.gpufleet.manifest.ManifestBundle;
import io.gpufleet.manifest.ManifestReader;
import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.k8s.Snapshot;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code gpufleet import --kubeconfig FILE -o snapshot.yaml}: a live cluster's state as one manifest file. */
@Command(name = "import", mixinStandardHelpOptions = true,
    description = {
        "Reads a live cluster, read-only, into a snapshot file every command takes with -f.",
        "Lists nodes, pods, Deployments, ReplicaSets, StatefulSets, DaemonSets, Jobs,",
        "PodDisruptionBudgets, PriorityClasses, the GPU Operator's device-plugin and",
        "mig-parted ConfigMaps and, where installed, Karpenter's NodePools, NodeClaims and",
        "EC2NodeClasses. Never reads Secrets. Writes one kind: List, sorted, with the",
        "context, server version and import time in its annotations (docs/real-clusters.md)."})
final class ImportCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin ClusterOptions cluster;

  @Option(names = {"-o", "--output"}, paramLabel = "FILE",
      description = "Where the snapshot goes (default, or '-': standard output).")
  Path output;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (!cluster.given()) {
      throw new UserError("--kubeconfig FILE is required: the kubeconfig of the cluster to import");
    }
    Snapshot snapshot = cluster.read(err);
    String yaml = snapshot.toYaml();
    if (output == null || output.toString().equals("-")) {
      out.print(yaml);
      out.flush();
      err.println(summary(snapshot, "standard output"));
      err.flush();
    } else {
      Path written = OutputFiles.writeOne(output, yaml);
      out.println(summary(snapshot, written.toString()));
      out.flush();
    }
    Cli.printWarnings(readBack(snapshot, yaml), spec);
    return ExitCodes.OK;
  }

  /**
   * The snapshot as every command will read it: the cluster assembly's warnings (a node whose report
   * its selected config would not advertise, a card the catalogue lacks) are said now, after the
   * snapshot is safely written; so are problems that will stop the commands that read it.
   */
  private static List<ManifestProblem> readBack(Snapshot snapshot, String yaml) {
    try {
      ManifestBundle bundle = new ManifestReader().read(ClusterOptions.sourceName(snapshot), yaml);
      return ClusterAssembly.assemble(bundle, ClusterSettings.defaults()).warnings();
    } catch (ManifestException e) {
      return e.problems();
    }
  }

  private static String summary(Snapshot s, String where) {
    Map<String, Long> counts = s.items().stream().collect(Collectors.groupingBy(o -> String.valueOf(o.get("kind")),
        LinkedHashMap::new, Collectors.counting()));
    String kinds = counts.entrySet().stream().map(e -> e.getValue() + " " + e.getKey())
        .collect(Collectors.joining(", "));
    return "imported " + s.items().size() + " objects (" + (kinds.isEmpty() ? "none" : kinds) + ") from context \""
        + s.context() + "\" (Kubernetes " + s.serverVersion() + ") to " + where;
  }
}
