package io.gpufleet.cli;

import io.gpufleet.cluster.Cluster;
import io.gpufleet.manifest.ManifestBundle;
import io.gpufleet.manifest.deviceplugin.DevicePluginManifests;
import io.gpufleet.manifest.karpenter.KarpenterManifests;
import io.gpufleet.manifest.kube.ComputeDomains;
import io.gpufleet.manifest.kube.KubeObject;
import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.manifest.yaml.ManifestProblem;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;

/** How every command reports problems: warnings to stderr, user errors as lines and exit code 2. */
final class Cli {
  private Cli() {}

  /** The read's and the assembly's warnings, to stderr. */
  static void printWarnings(Cluster cluster, CommandLine.Model.CommandSpec spec) {
    printWarnings(cluster.warnings(), spec);
  }

  static void printWarnings(List<ManifestProblem> warnings, CommandLine.Model.CommandSpec spec) {
    PrintWriter err = spec.commandLine().getErr();
    for (ManifestProblem w : warnings) {
      err.println(w);
    }
    err.flush();
  }

  /** Kinds a command does not use are skipped with a warning, never silently. */
  static void warnUnused(ManifestBundle bundle, CommandLine.Model.CommandSpec spec, String command) {
    PrintWriter err = spec.commandLine().getErr();
    // A Bottlerocket node class whose userData configures the device plugin serves its nodes (docs/eks.md).
    Set<String> pluginClasses = new HashSet<>();
    KarpenterManifests.osPlugins(bundle.objects(), new Diagnostics()).forEach(p -> pluginClasses.add(p.labelValue()));
    for (var o : bundle.others()) {
      if (o.kind().equals("EC2NodeClass") && pluginClasses.contains(o.name())) {
        continue;
      }
      err.println(o.location() + ": warning: " + ComputeDomains.warning(o).orElse(o.apiVersion() + " " + o.kind()
          + " \"" + o.name() + "\" is not used by " + command + "; skipped"));
    }
    for (var o : bundle.objects()) {
      // Device-plugin and mig-parted ConfigMaps configure the cluster's GPU Operator; others are unused.
      if (o instanceof KubeObject.PdbObject || o instanceof KubeObject.ConfigMapObject cm
          && DevicePluginManifests.kind(cm) == DevicePluginManifests.Kind.OTHER) {
        err.println(o.location() + ": warning: " + o.kind() + " \"" + o.name() + "\" is not used by " + command
            + "; skipped");
      }
    }
    err.flush();
  }

  /** A user's file as text, or a one-line error naming it. */
  static String readFile(Path file) {
    try {
      return Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new UserError(file + ": no such file");
    } catch (IOException e) {
      throw new UserError(file + ": cannot read: " + e.getMessage());
    }
  }

  /** Maps exceptions to exit codes: the user's mistakes without a stack trace, gpufleet's bugs with one. */
  static int handle(Exception e, CommandLine cmd) {
    PrintWriter err = cmd.getErr();
    switch (e) {
      case ManifestException m -> {
        for (ManifestProblem p : m.problems()) {
          err.println(p);
        }
        err.println("gpufleet: " + m.problems().size() + " error(s); nothing was run.");
        return ExitCodes.BAD_INPUT;
      }
      case UserError u -> {
        // The command as typed ("gpufleet node describe"), not its last word.
        err.println(cmd.getCommandSpec().qualifiedName() + ": " + u.getMessage());
        return ExitCodes.BAD_INPUT;
      }
      default -> {
        err.println("gpufleet: internal error (a bug; please report it with the command that caused it):");
        e.printStackTrace(err);
        return ExitCodes.INTERNAL;
      }
    }
  }
}
