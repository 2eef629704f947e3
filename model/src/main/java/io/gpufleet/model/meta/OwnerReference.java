package io.gpufleet.model.meta;

/** The controller that made an object: a ReplicaSet owns a Deployment's pods, a DaemonSet its own. */
public record OwnerReference(String kind, String name) {
  @Override
  public String toString() {
    return kind + "/" + name;
  }
}
