package io.gpufleet.model.meta;

import java.util.Objects;

/** The controller that made an object: a ReplicaSet owns a Deployment's pods, a DaemonSet its own. */
public record OwnerReference(String kind, String name) {

  // equals and hashCode written out, as the record's own would be (RecordMethodsTest): those are
  // linked at their first call by ObjectMethods' bootstrap, which spins method-handle classes that
  // no AOT cache holds, and every schedule compares these.
  @Override
  public boolean equals(Object o) {
    return o instanceof OwnerReference r && Objects.equals(kind, r.kind) && Objects.equals(name, r.name);
  }

  @Override
  public int hashCode() {
    return 31 * Objects.hashCode(kind) + Objects.hashCode(name);
  }

  @Override
  public String toString() {
    return kind + "/" + name;
  }
}
