package io.gpufleet.cli;

import io.gpufleet.k8s.ClusterAccessException;
import io.gpufleet.k8s.ClusterImporter;
import io.gpufleet.k8s.ClusterSource;
import io.gpufleet.k8s.Snapshot;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * A live cluster read through the Kubernetes API, as the commands take it: the import's problems
 * become one-line user errors (exit 2), its notes go to stderr. The import time is the wall clock's,
 * the one value of a snapshot that is not a function of the cluster.
 */
final class LiveCluster {
  private LiveCluster() {}

  static Snapshot read(Path kubeconfig, String context, String namespace, PrintWriter err) {
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

  /** How a snapshot is named in messages that point into it: its context. */
  static String sourceName(Snapshot s) {
    return "cluster:" + s.context();
  }
}
