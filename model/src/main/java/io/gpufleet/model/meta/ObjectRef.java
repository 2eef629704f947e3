package io.gpufleet.model.meta;

import java.util.Objects;

/**
 * A typed reference to a namespaced object, {@code kind} + {@code namespace} + {@code name}: the key
 * the simulator finds workloads by, so no code joins or splits {@code "Kind/ns/name"} text to look
 * one up.
 *
 * <p>Ordered as its {@link #toString() text} would be, so that anything iterated in key order
 * (controllers reconciling workloads, run records) keeps the order the text keys gave it.
 */
public record ObjectRef(String kind, String namespace, String name) implements Comparable<ObjectRef> {

  public ObjectRef {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
  }

  /** The reference to the object with this kind and metadata. */
  public static ObjectRef of(String kind, ObjectMeta meta) {
    return new ObjectRef(kind, meta.namespace(), meta.name());
  }

  /** {@code Kind/namespace/name}, the form users read in run records and reports. */
  @Override
  public String toString() {
    return kind + "/" + namespace + "/" + name;
  }

  /**
   * Compares as the {@code Kind/namespace/name} text does, character by character with the
   * separators in place, without building the text.
   */
  @Override
  public int compareTo(ObjectRef o) {
    return compareJoined(this, o);
  }

  private static int compareJoined(ObjectRef a, ObjectRef b) {
    String[] x = {a.kind, a.namespace, a.name};
    String[] y = {b.kind, b.namespace, b.name};
    int i = 0;
    int j = 0;
    int xi = 0;
    int yj = 0;
    while (true) {
      int cx = charAt(x, xi, i);
      int cy = charAt(y, yj, j);
      if (cx < 0 || cy < 0) {
        return Integer.compare(cx, cy);
      }
      if (cx != cy) {
        return Integer.compare(cx, cy);
      }
      if (i < x[xi].length()) {
        i++;
      } else {
        xi++;
        i = 0;
      }
      if (j < y[yj].length()) {
        j++;
      } else {
        yj++;
        j = 0;
      }
    }
  }

  /** The character at {@code i} of part {@code p}, {@code '/'} just past a part's end, -1 at the very end. */
  private static int charAt(String[] parts, int p, int i) {
    if (p >= parts.length) {
      return -1;
    }
    if (i < parts[p].length()) {
      return parts[p].charAt(i);
    }
    return p == parts.length - 1 ? -1 : '/';
  }
}
