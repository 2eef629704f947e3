package io.gpufleet.manifest.kube;

import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.YNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The Kubernetes API as far as reading manifests needs it: every built-in kind with its API
 * versions, and every field of the kinds gpufleet decodes. Generated from k8s.io/api's round-trip
 * fixtures ({@code api-kinds.txt} and {@code api-fields/<kind>.txt}; see the former's header), so a
 * field the twin does not model is still known and only a field the API lacks is reported, as
 * {@code kubectl --validate} reports it.
 *
 * <p>Every CLI call reads a manifest, so nothing here is read before it is needed: the kinds when a
 * kind gpufleet does not decode is checked, and a kind's fields when the first object of that kind
 * is. An instance keeps the fields it has read; one serves one reader, which is not shared between
 * threads.
 */
public final class ApiSchema {

  /** Groups outside Kubernetes whose kinds gpufleet reads itself (Karpenter) or names. */
  private static final Map<String, Set<String>> EXTRA_GROUPS = Map.of(
      "karpenter.sh", Set.of("NodePool", "NodeClaim", "NodeOverlay"),
      "karpenter.k8s.aws", Set.of("EC2NodeClass"),
      "karpenter.kwok.sh", Set.of("KWOKNodeClass"));

  /** How a field's value is checked: its own fields, any keys (labels), anything, or a named type. */
  private record Field(String flag) {
    static final Field PLAIN = new Field("");

    static Field of(String flag) {
      return flag.isEmpty() ? PLAIN : new Field(flag);
    }

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

  /** Every built-in kind's API versions and the API groups, read when first used (the JVM's holder idiom). */
  private static final class Kinds {
    static final Map<String, Set<String>> VERSIONS = versions();
    static final Set<String> GROUPS = groups(VERSIONS);

    private static Map<String, Set<String>> versions() {
      Map<String, Set<String>> versions = new HashMap<>();
      lines(resource("api-kinds.txt").orElseThrow(() -> new IllegalStateException(
          "api-kinds.txt is missing from the class path")), (kind, version) ->
          versions.computeIfAbsent(kind, k -> new LinkedHashSet<>()).add(version));
      Map<String, Set<String>> v = new HashMap<>();
      versions.forEach((k, s) -> v.put(k, Set.copyOf(s)));
      return Map.copyOf(v);
    }

    private static Set<String> groups(Map<String, Set<String>> versions) {
      Set<String> g = new TreeSet<>(EXTRA_GROUPS.keySet());
      versions.values().forEach(vs -> vs.forEach(v -> g.add(group(v))));
      return Set.copyOf(g);
    }
  }

  /** The fields of each kind read so far, by kind; a kind with no fields file maps to an empty map. */
  private final Map<String, Map<String, Field>> fieldsByKind = new HashMap<>();

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

  public static KindCheck check(String apiVersion, String kind) {
    Set<String> versions = Kinds.VERSIONS.get(kind);
    String group = group(apiVersion);
    if (EXTRA_GROUPS.getOrDefault(group, Set.of()).contains(kind)) {
      return new KindCheck.Known();
    }
    if (versions != null) {
      return versions.contains(apiVersion) ? new KindCheck.Known() : new KindCheck.WrongVersion(versions);
    }
    if (!Kinds.GROUPS.contains(group)) {
      return new KindCheck.Foreign();
    }
    return new KindCheck.Unknown(closest(kind));
  }

  /** The API version gpufleet's decoder reads a kind at, for the kinds it decodes field by field. */
  public static Optional<String> decodedVersion(String kind) {
    return Optional.ofNullable(switch (kind) {
      case "Pod", "Node", "ConfigMap", "Namespace" -> "v1";
      case "RuntimeClass" -> "node.k8s.io/v1";
      case "Deployment", "ReplicaSet", "StatefulSet", "DaemonSet" -> "apps/v1";
      case "Job" -> "batch/v1";
      case "PodDisruptionBudget" -> "policy/v1";
      case "PriorityClass" -> "scheduling.k8s.io/v1";
      case "DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice", "DeviceTaintRule" ->
          "resource.k8s.io/v1";
      default -> null;
    });
  }

  /** A known kind one or two edits away (case-insensitive), for "did you mean". */
  private static Optional<String> closest(String kind) {
    String best = null;
    int bestDistance = 3;
    Set<String> all = new TreeSet<>(Kinds.VERSIONS.keySet());
    EXTRA_GROUPS.values().forEach(all::addAll);
    for (String k : all) {
      int d = distance(kind.toLowerCase(Locale.ROOT), k.toLowerCase(Locale.ROOT));
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
    Map<String, Field> fields = fields(kind);
    if (!fields.isEmpty()) {
      walk(fields, "", doc, "", out);
    }
    return out;
  }

  // instanceof, not a pattern switch, which would make a class at run time on first use; scalars
  // and nulls are leaves, and those four are all YNode permits (YNodeBranchesTest).
  private void walk(Map<String, Field> fields, String schemaPath, YNode node, String path, List<UnknownField> out) {
    if (node instanceof YNode.YMap m) {
      for (var e : m.entries().entrySet()) {
        String childSchema = schemaPath.isEmpty() ? e.getKey() : schemaPath + "." + e.getKey();
        String childPath = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
        Field f = fields.get(childSchema);
        if (f == null) {
          out.add(new UnknownField(e.getValue(), e.getKey(), childPath));
        } else if (f.type().isPresent()) {
          walk(fields(f.type().get()), "", e.getValue().value(), childPath, out);
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
    } else if (node instanceof YNode.YList l) {
      for (int i = 0; i < l.items().size(); i++) {
        walk(fields, schemaPath + ".[]", l.items().get(i), path + "[" + i + "]", out);
      }
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

  /** A kind's fields, read from its file the first time; none for a kind without one. */
  private Map<String, Field> fields(String kind) {
    Map<String, Field> fields = fieldsByKind.get(kind);
    if (fields == null) {
      Optional<String> text = plainName(kind) ? resource("api-fields/" + kind + ".txt") : Optional.empty();
      fields = text.<Map<String, Field>>map(FieldTable::new).orElse(Map.of());
      fieldsByKind.put(kind, fields);
    }
    return fields;
  }

  /** A kind's fields as {@link #lines} splits its file, for a test to hold {@link FieldTable} to. */
  static Map<String, String> fieldLines(String kind) {
    Map<String, String> out = new LinkedHashMap<>();
    resource("api-fields/" + kind + ".txt").ifPresent(t -> lines(t, out::put));
    return out;
  }

  /** A kind's fields as {@link FieldTable} finds them: a path's flag, or none for a path it lacks. */
  static Function<String, Optional<String>> fieldFlags(String kind) {
    Map<String, Field> fields = new ApiSchema().fields(kind);
    return path -> Optional.ofNullable(fields.get(path)).map(Field::flag);
  }

  /**
   * A kind's file, looked up where it lies: its field lines are sorted by path (the generator writes
   * them so; ApiSchemaTest checks it), so a path is found by binary search over the lines' offsets.
   * Nothing is split or hashed up front: a Pod's file has 1,600 lines and a Deployment's template
   * 1,300 more, of which a manifest names a few dozen, and splitting them all into a hash map was
   * most of the time a small schedule spent checking fields. Read-only; lookups by path only.
   */
  private static final class FieldTable extends AbstractMap<String, Field> {
    private final String text;
    /** Where each field line starts, in file (so path) order; comments are left out. */
    private final int[] starts;

    FieldTable(String text) {
      this.text = text;
      this.starts = lineStarts(text);
    }

    @Override
    public Field get(Object key) {
      if (!(key instanceof String path)) {
        return null;
      }
      int lo = 0;
      int hi = starts.length - 1;
      while (lo <= hi) {
        int mid = (lo + hi) >>> 1;
        int c = compare(path, starts[mid]);
        if (c == 0) {
          return Field.of(flag(starts[mid] + path.length()));
        }
        if (c < 0) {
          hi = mid - 1;
        } else {
          lo = mid + 1;
        }
      }
      return null;
    }

    @Override
    public boolean containsKey(Object key) {
      return get(key) != null;
    }

    @Override
    public boolean isEmpty() {
      return starts.length == 0;
    }

    @Override
    public int size() {
      return starts.length;
    }

    /** Every field, split as {@link #lines} splits them; nothing here iterates, so made when asked. */
    @Override
    public Set<Entry<String, Field>> entrySet() {
      Map<String, Field> all = new LinkedHashMap<>();
      lines(text, (path, flag) -> all.put(path, Field.of(flag)));
      return Collections.unmodifiableMap(all).entrySet();
    }

    /** {@code path} against the path of the line at {@code start} (up to its space or its end). */
    private int compare(String path, int start) {
      for (int i = 0; ; i++) {
        int at = start + i;
        boolean lineEnded = at >= text.length() || text.charAt(at) == ' ' || text.charAt(at) == '\n';
        if (i == path.length()) {
          return lineEnded ? 0 : -1;
        }
        if (lineEnded) {
          return 1;
        }
        int d = path.charAt(i) - text.charAt(at);
        if (d != 0) {
          return d;
        }
      }
    }

    /** The flag after a line's path, which ends at {@code pathEnd}: {@code ""} when the line has none. */
    private String flag(int pathEnd) {
      if (pathEnd >= text.length() || text.charAt(pathEnd) != ' ') {
        return "";
      }
      int end = text.indexOf('\n', pathEnd);
      return text.substring(pathEnd + 1, end < 0 ? text.length() : end);
    }
  }

  /** Whether {@code kind} is ASCII letters only: the kind comes from the manifest, and names a file. */
  private static boolean plainName(String kind) {
    for (int i = 0; i < kind.length(); i++) {
      char c = kind.charAt(i);
      if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z')) {
        return false;
      }
    }
    return !kind.isEmpty();
  }

  /**
   * A file beside this class, from the jar or folder this class was loaded from, or else through its
   * class loader. The loader's search asks the JDK's module image first and opens every jar on the
   * class path before this one (the CLI's, the model's, reading the former's manifest of 60 jars);
   * with the classes themselves from an AOT cache, that was the whole cost of the first kind checked.
   */
  private static Optional<String> resource(String name) {
    try {
      Optional<byte[]> own = fromCodeSource(ApiSchema.class.getPackageName().replace('.', '/') + "/" + name);
      if (own.isPresent()) {
        return Optional.of(new String(own.get(), StandardCharsets.UTF_8));
      }
      try (InputStream in = ApiSchema.class.getResourceAsStream(name)) {
        return in == null ? Optional.empty() : Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The entry {@code path} of the jar or folder this class came from; empty where that is not a local file. */
  private static Optional<byte[]> fromCodeSource(String path) throws IOException {
    CodeSource source = ApiSchema.class.getProtectionDomain().getCodeSource();
    URL location = source == null ? null : source.getLocation();
    if (location == null || !location.getProtocol().equals("file")) {
      return Optional.empty();
    }
    Path at;
    try {
      at = Path.of(location.toURI());
    } catch (URISyntaxException | IllegalArgumentException e) {
      return Optional.empty();
    }
    if (Files.isDirectory(at)) {
      Path file = at.resolve(path);
      return Files.isRegularFile(file) ? Optional.of(Files.readAllBytes(file)) : Optional.empty();
    }
    if (!Files.isRegularFile(at)) {
      return Optional.empty();
    }
    try (ZipFile jar = new ZipFile(at.toFile())) {
      ZipEntry entry = jar.getEntry(path);
      if (entry == null) {
        return Optional.empty();
      }
      try (InputStream in = jar.getInputStream(entry)) {
        return Optional.of(in.readAllBytes());
      }
    }
  }

  /**
   * Each line of {@code text} but comments, split at its first space ({@code ""} after a line with
   * none). Scanned by index, not split: this runs at every start, before the JIT has compiled anything.
   */
  private static void lines(String text, BiConsumer<String, String> line) {
    for (int start : lineStarts(text)) {
      int end = text.indexOf('\n', start);
      if (end < 0) {
        end = text.length();
      }
      int space = text.indexOf(' ', start, end);
      if (space < 0) {
        line.accept(text.substring(start, end), "");
      } else {
        line.accept(text.substring(start, space), text.substring(space + 1, end));
      }
    }
  }

  /** Where each line of {@code text} starts, in order, but empty lines and comments. */
  private static int[] lineStarts(String text) {
    int[] at = new int[256];
    int n = 0;
    int start = 0;
    while (start < text.length()) {
      int end = text.indexOf('\n', start);
      if (end < 0) {
        end = text.length();
      }
      if (end > start && text.charAt(start) != '#') {
        if (n == at.length) {
          at = Arrays.copyOf(at, 2 * n);
        }
        at[n++] = start;
      }
      start = end + 1;
    }
    return Arrays.copyOf(at, n);
  }
}
