package io.gpufleet.cli;

import io.gpufleet.k8s.ClusterAccessException;
import io.gpufleet.k8s.ClusterImporter;
import io.gpufleet.k8s.ClusterSource;
import io.gpufleet.k8s.Snapshot;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * Which live cluster to read, one definition for {@code import} and every command that reads
 * manifests ({@code @Mixin}): the kubeconfig, its context and a namespace. The import's problems
 * become one-line user errors (exit 2), its notes go to stderr. The import time is the wall clock's,
 * the one value of a snapshot that is not a function of the cluster.
 */
final class ClusterOptions {

  @Option(names = "--kubeconfig", paramLabel = "FILE",
      description = "The kubeconfig of a live cluster to read, read-only, through the Kubernetes API (only this "
          + "file; KUBECONFIG is not read).")
  Path kubeconfig;

  @Option(names = "--context", paramLabel = "NAME",
      description = "With --kubeconfig: the context to use (default: its current-context).")
  String context;

  @Option(names = {"-n", "--namespace"}, paramLabel = "NS",
      description = "With --kubeconfig: pods, workloads and PDBs of this namespace only (default: all). Nodes, "
          + "PriorityClasses and Karpenter's objects are cluster-wide and always read.")
  String namespace;

  boolean given() {
    if (kubeconfig == null && (context != null || namespace != null)) {
      throw new UserError((context != null ? "--context" : "--namespace") + " needs --kubeconfig FILE");
    }
    return kubeconfig != null;
  }

  /** The cluster's snapshot; call only when {@link #given()}. */
  Snapshot read(PrintWriter err) {
    Snapshot snapshot;
    try {
      snapshot = ClusterImporter.read(new ClusterSource(kubeconfig, Optional.ofNullable(context),
          Optional.ofNullable(namespace)), Instant.now());
    } catch (ClusterAccessException e) {
      throw new UserError(e.getMessage());
    }
    for (String note : snapshot.notes()) {
      err.println("gpufleet: note: " + note);
    }
    err.flush();
    return snapshot;
  }

  /** How the live snapshot is named in messages that point into it (file:line:column): its context. */
  static String sourceName(Snapshot s) {
    return "cluster:" + s.context();
  }
}
