package io.gpufleet.lint;

import io.gpufleet.manifest.yaml.Location;
import io.gpufleet.manifest.yaml.YNode;
import io.gpufleet.manifest.yaml.YPath;

/** A decoded object with the YAML it came from, so a finding can point at any of its fields. */
public record Located<T>(T value, ObjectRef ref, YNode node) {

  /** Where {@code field} was written, or its nearest written parent when the field is absent. */
  public Location at(String field) {
    return field.isEmpty() ? node.location() : YPath.locate(node, field);
  }

  /** Whether {@code field} was written, rather than defaulted by the API server. */
  public boolean written(String field) {
    return YPath.written(node, field);
  }

  public Location location() {
    return node.location();
  }
}
