package io.gpufleet.lint;

import java.util.Objects;

/**
 * The object a finding is about: its kind and name, and its namespace when it has one (empty for
 * Nodes and NodePools).
 */
public record ObjectRef(String kind, String namespace, String name) implements Comparable<ObjectRef> {

  public ObjectRef {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
  }

  public static ObjectRef clusterScoped(String kind, String name) {
    return new ObjectRef(kind, "", name);
  }

  /** {@code Deployment/default/vllm}, or {@code NodePool/gpu} when cluster-scoped. */
  @Override
  public String toString() {
    return namespace.isEmpty() ? kind + "/" + name : kind + "/" + namespace + "/" + name;
  }

  @Override
  public int compareTo(ObjectRef o) {
    int c = kind.compareTo(o.kind);
    if (c == 0) {
      c = namespace.compareTo(o.namespace);
    }
    return c != 0 ? c : name.compareTo(o.name);
  }
}
