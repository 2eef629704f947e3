package io.gpufleet.manifest.kube;

import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.YNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The Kubernetes API as far as reading manifests needs it: every built-in kind with its API
 * versions, and every field of the kinds gpufleet decodes. Generated from k8s.io/api's round-trip
 * fixtures ({@code api-fields.txt}; see its header), so a field the twin does not model is still
 * known and only a field the API lacks is reported, as {@code kubectl --validate} reports it.
 */
public final class ApiSchema {

  /** Groups outside Kubernetes whose kinds gpufleet reads itself (Karpenter) or names. */
  private static final Map<String, Set<String>> EXTRA_GROUPS = Map.of(
      "karpenter.sh", Set.of("NodePool", "NodeClaim", "NodeOverlay"),
      "karpenter.k8s.aws", Set.of("EC2NodeClass"),
      "karpenter.kwok.sh", Set.of("KWOKNodeClass"));

  /** The one schema, read once from the class path; immutable. */
  public static final ApiSchema BUILT_IN = load();

  /** How a field's value is checked: its own fields, any keys (labels), anything, or a named type. */
  private record Field(String flag) {
    boolean freeMap() {
      return flag.equals("{}");
    }

    boolean anything() {
      return flag.equals("*");
    }

    Optional<String> type() {
      return flag.startsWith("=") ? Optional.of(flag.substring(1)) : Optional.empty();
    }
  }

  private final Map<String, Set<String>> versionsByKind;
  private final Set<String> groups;
  private final Map<String, Map<String, Field>> fieldsByKind;

  private ApiSchema(Map<String, Set<String>> versionsByKind, Map<String, Map<String, Field>> fieldsByKind) {
    this.versionsByKind = versionsByKind;
    this.fieldsByKind = fieldsByKind;
    Set<String> g = new TreeSet<>(EXTRA_GROUPS.keySet());
    versionsByKind.values().forEach(vs -> vs.forEach(v -> g.add(group(v))));
    this.groups = Set.copyOf(g);
  }

  /** The API group of {@code group/version}, or {@code ""} for the core group's {@code v1}. */
  public static String group(String apiVersion) {
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? "" : apiVersion.substring(0, slash);
  }

  /** What an object's {@code apiVersion} and {@code kind} are, as far as gpufleet knows. */
  public sealed interface KindCheck {
    /** A built-in kind at a version the API has, or a Karpenter kind. */
    record Known() implements KindCheck {}

    /** A kind of an API group gpufleet does not know (another project's custom resource). */
    record Foreign() implements KindCheck {}

    /** A built-in kind at a version the API does not have. */
    record WrongVersion(Set<String> versions) implements KindCheck {}

    /** No such kind in a group gpufleet knows: a typo, perhaps of {@code suggestion}. */
    record Unknown(Optional<String> suggestion) implements KindCheck {}
  }

  public KindCheck check(String apiVersion, String kind) {
    Set<String> versions = versionsByKind.get(kind);
    String group = group(apiVersion);
    if (EXTRA_GROUPS.getOrDefault(group, Set.of()).contains(kind)) {
      return new KindCheck.Known();
    }
    if (versions != null) {
      return versions.contains(apiVersion) ? new KindCheck.Known() : new KindCheck.WrongVersion(versions);
    }
    if (!groups.contains(group)) {
      return new KindCheck.Foreign();
    }
    return new KindCheck.Unknown(closest(kind));
  }

  /** The API version gpufleet's decoder reads a kind at, for the kinds it decodes field by field. */
  public static Optional<String> decodedVersion(String kind) {
    return Optional.ofNullable(switch (kind) {
      case "Pod", "Node", "ConfigMap" -> "v1";
      case "Deployment", "ReplicaSet", "StatefulSet", "DaemonSet" -> "apps/v1";
      case "Job" -> "batch/v1";
      case "PodDisruptionBudget" -> "policy/v1";
      case "PriorityClass" -> "scheduling.k8s.io/v1";
      case "DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice" -> "resource.k8s.io/v1";
      default -> null;
    });
  }

  /** A known kind one or two edits away (case-insensitive), for "did you mean". */
  private Optional<String> closest(String kind) {
    String best = null;
    int bestDistance = 3;
    Set<String> all = new TreeSet<>(versionsByKind.keySet());
    EXTRA_GROUPS.values().forEach(all::addAll);
    for (String k : all) {
      int d = distance(kind.toLowerCase(java.util.Locale.ROOT), k.toLowerCase(java.util.Locale.ROOT));
      if (d < bestDistance) {
        bestDistance = d;
        best = k;
      }
    }
    return Optional.ofNullable(best);
  }

  /** Optimal string alignment distance (Levenshtein with transpositions). */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }

  /** A field the API does not have: where, with its path as a user writes it. */
  public record UnknownField(YNode.YMap.Entry entry, String key, String path) {}

  /**
   * Every field under {@code doc} (an object of a decoded kind) that the kind's API type does
   * not have. Free-form maps (labels, resources) take any key.
   */
  public List<UnknownField> unknownFields(String kind, YNode doc) {
    List<UnknownField> out = new ArrayList<>();
    Map<String, Field> fields = fieldsByKind.get(kind);
    if (fields != null) {
      walk(fields, "", doc, "", out);
    }
    return out;
  }

  private void walk(Map<String, Field> fields, String schemaPath, YNode node, String path, List<UnknownField> out) {
    switch (node) {
      case YNode.YMap m -> {
        for (var e : m.entries().entrySet()) {
          String childSchema = schemaPath.isEmpty() ? e.getKey() : schemaPath + "." + e.getKey();
          String childPath = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
          Field f = fields.get(childSchema);
          if (f == null) {
            out.add(new UnknownField(e.getValue(), e.getKey(), childPath));
          } else if (f.type().isPresent()) {
            walk(fieldsByKind.get(f.type().get()), "", e.getValue().value(), childPath, out);
          } else if (f.freeMap()) {
            Field values = fields.get(childSchema + ".{}");
            if (values != null && e.getValue().value() instanceof YNode.YMap map) {
              for (var v : map.entries().entrySet()) {
                walk(fields, childSchema + ".{}", v.getValue().value(), childPath + "[" + v.getKey() + "]", out);
              }
            }
          } else if (!f.anything()) {
            walk(fields, childSchema, e.getValue().value(), childPath, out);
          }
        }
      }
      case YNode.YList l -> {
        for (int i = 0; i < l.items().size(); i++) {
          walk(fields, schemaPath + ".[]", l.items().get(i), path + "[" + i + "]", out);
        }
      }
      case YNode.YScalar s -> { }
      case YNode.YNull n -> { }
    }
  }

  /** Reports unknown fields of {@code doc}: warnings, or errors when {@code strict}. */
  public void reportUnknownFields(String kind, String object, YNode doc, Diagnostics diagnostics, boolean strict) {
    for (UnknownField u : unknownFields(kind, doc)) {
      String message = "unknown field \"" + u.key() + "\" in " + kind + " " + object
          + (strict ? "" : " (ignored; --strict makes this an error)");
      if (strict) {
        diagnostics.error(u.entry().keyLocation(), u.path(), message);
      } else {
        diagnostics.warning(u.entry().keyLocation(), u.path(), message);
      }
    }
  }

  private static ApiSchema load() {
    Map<String, Set<String>> versions = new HashMap<>();
    Map<String, Map<String, Field>> fields = new HashMap<>();
    try (InputStream in = ApiSchema.class.getResourceAsStream("api-fields.txt")) {
      if (in == null) {
        throw new IllegalStateException("api-fields.txt is missing from the class path");
      }
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        String[] p = line.split(" ");
        if (p[0].equals("KIND")) {
          versions.computeIfAbsent(p[1], k -> new LinkedHashSet<>()).add(p[2]);
        } else if (p[0].equals("FIELD")) {
          fields.computeIfAbsent(p[1], k -> new HashMap<>()).put(p[2], new Field(p.length > 3 ? p[3] : ""));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<String, Set<String>> v = new HashMap<>();
    versions.forEach((k, s) -> v.put(k, Set.copyOf(s)));
    Map<String, Map<String, Field>> f = new HashMap<>();
    fields.forEach((k, m) -> f.put(k, Map.copyOf(m)));
    return new ApiSchema(Map.copyOf(v), Map.copyOf(f));
  }
}
