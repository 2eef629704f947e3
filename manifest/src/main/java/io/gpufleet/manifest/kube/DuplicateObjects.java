package io.gpufleet.manifest.kube;

import io.gpufleet.manifest.yaml.Cursor;
import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.Location;
import io.gpufleet.manifest.yaml.YNode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Rejects a second object of the same kind, namespace and name among the manifests of one read, as
 * the API server refuses to create it ({@code AlreadyExists}); the error names both places. Objects
 * named by {@code generateName} get distinct names on the server, so only explicit names count.
 * Works on the YAML itself, so every reader of manifests checks the same way before decoding.
 */
public final class DuplicateObjects {

  /** Kinds without a namespace, where {@code metadata.namespace} does not tell two objects apart. */
  private static final Set<String> CLUSTER_SCOPED = Set.of("Node", "Namespace", "PriorityClass", "NodePool",
      "NodeClaim", "EC2NodeClass", "KWOKNodeClass", "PersistentVolume", "StorageClass", "RuntimeClass",
      "ClusterRole", "ClusterRoleBinding", "CustomResourceDefinition");

  /**
   * An object's identity on the API server. Its equals and hashCode are written out: a record's own are
   * linked at their first call by ObjectMethods' bootstrap, which spins method-handle classes that no
   * AOT cache holds, and every read of manifests hashes these.
   */
  private record Key(String group, String kind, String namespace, String name) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && group.equals(k.group) && kind.equals(k.kind) && namespace.equals(k.namespace)
          && name.equals(k.name);
    }

    @Override
    public int hashCode() {
      return 31 * (31 * (31 * group.hashCode() + kind.hashCode()) + namespace.hashCode()) + name.hashCode();
    }
  }

  private final Map<Key, Location> seen = new HashMap<>();
  private final Diagnostics diagnostics;

  /** Errors go to {@code diagnostics}; one instance spans every file read together. */
  public DuplicateObjects(Diagnostics diagnostics) {
    this.diagnostics = diagnostics;
  }

  /** Checks the objects in {@code documents} (items of a {@code kind: List} included) against all seen so far. */
  public void check(List<YNode> documents) {
    // Shape errors are the decoder's to report; reading here must not report them twice.
    Diagnostics quiet = new Diagnostics();
    for (YNode doc : documents) {
      check(Cursor.root(doc, quiet), quiet);
    }
  }

  private void check(Cursor doc, Diagnostics quiet) {
    if (!doc.isMap()) {
      return;
    }
    String kind = text(doc, "kind").orElse("");
    if (kind.equals("List")) {
      doc.get("items").filter(i -> i.node() instanceof YNode.YList).ifPresent(items -> items.asList()
          .forEach(item -> check(item, quiet)));
      return;
    }
    Optional<Cursor> meta = doc.get("metadata").filter(Cursor::isMap);
    Optional<String> name = meta.flatMap(m -> text(m, "name")).filter(n -> !n.isEmpty());
    if (kind.isEmpty() || name.isEmpty()) {
      return;
    }
    String apiVersion = text(doc, "apiVersion").orElse("");
    String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
    String namespace = CLUSTER_SCOPED.contains(kind) ? ""
        : meta.flatMap(m -> text(m, "namespace")).filter(n -> !n.isEmpty()).orElse("default");
    Location previous = seen.putIfAbsent(new Key(group, kind, namespace, name.get()), doc.location());
    if (previous != null) {
      diagnostics.error(doc.location(), "metadata.name", kind + " \"" + (namespace.isEmpty() ? "" : namespace + "/")
          + name.get() + "\" is already defined at " + previous);
    }
  }

  private static Optional<String> text(Cursor map, String key) {
    return map.get(key).filter(c -> c.node() instanceof YNode.YScalar).map(Cursor::asString);
  }
}
