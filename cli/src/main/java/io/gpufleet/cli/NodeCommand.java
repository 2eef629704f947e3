package io.gpufleet.cli;

import io.gpufleet.cluster.Cluster;
import io.gpufleet.cluster.ClusterNode;
import io.gpufleet.report.node.NodeDescription;
import io.gpufleet.report.smi.SmiView;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code gpufleet node describe -f FILE}: what each node advertises and how GFD labels it. */
@Command(name = "node", description = "Nodes as the device plugin and GPU Feature Discovery present them.",
    mixinStandardHelpOptions = true, subcommands = {NodeCommand.Describe.class})
public final class NodeCommand implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  @Command(name = "describe", mixinStandardHelpOptions = true,
      description = "Print each node like kubectl describe node, after its device plugin registered.")
  static final class Describe implements Callable<Integer> {

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    /** Nodes, device-plugin ConfigMap and optional mig-parted ConfigMap. */
    @CommandLine.Mixin ManifestInputOptions input;

    @Option(names = "--node", paramLabel = "NAME", description = "Describe only this node.")
    String only;

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      Cluster cluster = input.cluster();
      Cli.printWarnings(cluster, spec);
      boolean first = true;
      int shown = 0;
      for (ClusterNode n : cluster.nodes()) {
        if (only != null && !only.equals(n.node().name())) {
          continue;
        }
        if (!first) {
          out.println();
        }
        first = false;
        shown++;
        if (n.registration().isPresent()) {
          out.print(NodeDescription.render(n.registration().get(), n.inventory().orElseThrow(), n.inventorySource(),
              n.selection()));
        } else {
          out.print(NodeDescription.renderWithoutDevices(n.node(), n.inventorySource()));
        }
      }
      if (cluster.nodes().stream().anyMatch(n -> n.registration().isPresent()
          && (only == null || only.equals(n.node().name())))) {
        out.println();
        out.println("note: " + SmiView.DEVICE_IDS_NOTE);
      }
      if (shown == 0) {
        throw new UserError(input.names() + ": "
            + (only == null ? "no Node in the input" : "no node named " + only));
      }
      out.flush();
      return 0;
    }
  }
}
