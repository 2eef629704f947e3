package io.gpufleet.k8s;

/**
 * The cluster could not be read: a missing kubeconfig or context, an unreachable server, rejected
 * credentials or an RBAC denial. The message is one line a user can act on, without a stack trace.
 */
public final class ClusterAccessException extends RuntimeException {
  public ClusterAccessException(String message) {
    super(message);
  }
}
