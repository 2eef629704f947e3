package io.gpufleet.manifest.yaml;

import io.gpufleet.manifest.yaml.YNode.YList;
import io.gpufleet.manifest.yaml.YNode.YMap;
import io.gpufleet.manifest.yaml.YNode.YNull;
import io.gpufleet.manifest.yaml.YNode.YScalar;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.QuantityFormatException;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * A position in a YAML tree with its field path ({@code spec.containers[0].resources}), through
 * which decoders read typed values. Type mismatches and bad values are recorded in the shared
 * {@link Diagnostics} (file, line, column, path, expected, found) and a neutral value is returned,
 * so one read reports every problem.
 */
public record Cursor(YNode node, String path, Diagnostics diagnostics) {

  public static Cursor root(YNode node, Diagnostics diagnostics) {
    return new Cursor(node, "", diagnostics);
  }

  public Location location() {
    return node.location();
  }

  public boolean isNull() {
    return node instanceof YNull;
  }

  public boolean isMap() {
    return node instanceof YMap;
  }

  public boolean isList() {
    return node instanceof YList;
  }

  /** A string scalar (not a number or boolean written bare). */
  public boolean isString() {
    return node instanceof YScalar s && s.type() == YScalar.Type.STRING;
  }

  public void error(String message) {
    diagnostics.error(node.location(), path, message);
  }

  public void warning(String message) {
    diagnostics.warning(node.location(), path, message);
  }

  /** Records "expected X, found Y" for this node. */
  public void expected(String what) {
    diagnostics.typeError(node.location(), path, "expected " + what + ", found " + node.describe());
  }

  private String child(String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  /** The value under a key of this mapping; empty when absent or null, or when this is not a mapping. */
  public Optional<Cursor> get(String key) {
    if (node instanceof YNull) {
      return Optional.empty();
    }
    if (!(node instanceof YMap m)) {
      expected("a mapping");
      return Optional.empty();
    }
    YMap.Entry e = m.entries().get(key);
    if (e == null || e.value() instanceof YNull) {
      return Optional.empty();
    }
    return Optional.of(new Cursor(e.value(), child(key), diagnostics));
  }

  /** The value under a key, recording "required field is missing" when absent. */
  public Optional<Cursor> require(String key) {
    Optional<Cursor> c = get(key);
    if (c.isEmpty() && node instanceof YMap) {
      diagnostics.error(node.location(), child(key), "required field is missing");
    }
    return c;
  }

  /** The keys of this mapping in written order (empty when not a mapping). */
  public List<String> keys() {
    return node instanceof YMap m ? List.copyOf(m.entries().keySet()) : List.of();
  }

  /** Flags keys outside {@code known}: a warning (kubectl's default) or, when strict, an error. */
  public void checkKnown(Set<String> known, boolean strict) {
    if (!(node instanceof YMap m)) {
      return;
    }
    for (var e : m.entries().entrySet()) {
      if (!known.contains(e.getKey())) {
        String msg = "unknown field \"" + e.getKey() + "\"";
        if (strict) {
          diagnostics.error(e.getValue().keyLocation(), child(e.getKey()), msg);
        } else {
          diagnostics.warning(e.getValue().keyLocation(), child(e.getKey()), msg);
        }
      }
    }
  }

  /**
   * Unknown keys refused as a strict decoder refuses them, each at its line in apimachinery's words
   * ({@code runtime.NewStrictDecodingError}: {@code strict decoding error: unknown field "<path>"}).
   */
  public void checkKnownStrictDecoding(Set<String> known) {
    if (!(node instanceof YMap m)) {
      return;
    }
    for (var e : m.entries().entrySet()) {
      if (!known.contains(e.getKey())) {
        diagnostics.error(e.getValue().keyLocation(), child(e.getKey()),
            "strict decoding error: unknown field \"" + child(e.getKey()) + "\"");
      }
    }
  }

  /** This node as a string; numbers and booleans are rejected as the API server rejects them. */
  public String asString() {
    if (node instanceof YScalar s && s.type() == YScalar.Type.STRING) {
      return s.text();
    }
    if (node instanceof YScalar s) {
      diagnostics.typeError(node.location(), path, "expected a string, found " + s.describe() + " (quote it: \""
          + s.text() + "\")");
      return s.text();
    }
    expected("a string");
    return "";
  }

  public String string(String key, String fallback) {
    return get(key).map(Cursor::asString).orElse(fallback);
  }

  public Optional<String> optString(String key) {
    return get(key).map(Cursor::asString);
  }

  public String requiredString(String key) {
    return require(key).map(Cursor::asString).orElse("");
  }

  public long asLong() {
    if (node instanceof YScalar s && s.type() == YScalar.Type.INTEGER) {
      try {
        return Long.parseLong(s.text().startsWith("+") ? s.text().substring(1) : s.text());
      } catch (NumberFormatException e) {
        error("expected an integer, found " + s.describe() + " (out of range)");
        return 0;
      }
    }
    expected("an integer");
    return 0;
  }

  public int asInt() {
    long v = asLong();
    if (v > Integer.MAX_VALUE || v < Integer.MIN_VALUE) {
      error("expected a 32-bit integer, found " + v);
      return 0;
    }
    return (int) v;
  }

  public OptionalInt optInt(String key) {
    Optional<Cursor> c = get(key);
    return c.isEmpty() ? OptionalInt.empty() : OptionalInt.of(c.get().asInt());
  }

  public int integer(String key, int fallback) {
    return optInt(key).orElse(fallback);
  }

  public OptionalLong optLong(String key) {
    Optional<Cursor> c = get(key);
    return c.isEmpty() ? OptionalLong.empty() : OptionalLong.of(c.get().asLong());
  }

  public boolean asBoolean() {
    if (node instanceof YScalar s && s.type() == YScalar.Type.BOOLEAN) {
      return Boolean.parseBoolean(s.text().toLowerCase(Locale.ROOT));
    }
    expected("a boolean (true or false)");
    return false;
  }

  public boolean bool(String key, boolean fallback) {
    return get(key).map(Cursor::asBoolean).orElse(fallback);
  }

  public Optional<Boolean> optBool(String key) {
    return get(key).map(Cursor::asBoolean);
  }

  /** A Kubernetes quantity, written as a string or a number. */
  public Quantity asQuantity() {
    if (node instanceof YScalar s && s.type() != YScalar.Type.BOOLEAN) {
      try {
        return Quantity.parse(s.text());
      } catch (QuantityFormatException e) {
        error("expected a quantity such as 500m, 2, 1.5, 16Gi or 1e3, found \"" + s.text() + "\": " + e.getMessage());
        return Quantity.ZERO;
      }
    }
    expected("a quantity");
    return Quantity.ZERO;
  }

  /**
   * A duration in Go's {@code time.ParseDuration} form ({@code 30s}, {@code 10m}, {@code 720h},
   * {@code 1h30m}); {@code Never} is empty.
   */
  public Optional<Duration> asDurationOrNever() {
    String s = asString();
    if (s.equals("Never")) {
      return Optional.empty();
    }
    Duration d = GoDuration.parse(s);
    if (d == null) {
      error("expected a duration such as 30s, 10m, 720h or Never, found \"" + s + "\"");
      return Optional.of(Duration.ZERO);
    }
    return Optional.of(d);
  }

  /** Items of this list, each with its indexed path; a non-list records an error. */
  public List<Cursor> asList() {
    if (node instanceof YNull) {
      return List.of();
    }
    if (!(node instanceof YList l)) {
      expected("a list");
      return List.of();
    }
    List<Cursor> out = new ArrayList<>(l.items().size());
    for (int i = 0; i < l.items().size(); i++) {
      out.add(new Cursor(l.items().get(i), path + "[" + i + "]", diagnostics));
    }
    return out;
  }

  public List<Cursor> list(String key) {
    return get(key).map(Cursor::asList).orElse(List.of());
  }

  public List<String> stringList(String key) {
    return list(key).stream().map(Cursor::asString).toList();
  }

  /** A mapping of strings to strings (labels, annotations, nodeSelector). */
  public Map<String, String> asStringMap() {
    Map<String, String> out = new TreeMap<>();
    if (node instanceof YNull) {
      return out;
    }
    if (!(node instanceof YMap m)) {
      expected("a mapping of strings");
      return out;
    }
    for (String k : m.entries().keySet()) {
      YNode v = m.entries().get(k).value();
      Cursor c = new Cursor(v, path + "[" + k + "]", diagnostics);
      out.put(k, v instanceof YNull ? "" : c.asString());
    }
    return out;
  }

  public Map<String, String> stringMap(String key) {
    return get(key).map(Cursor::asStringMap).orElse(new TreeMap<>());
  }

  /** The entries of this mapping as cursors, in written order. */
  public Map<String, Cursor> entries() {
    Map<String, Cursor> out = new LinkedHashMap<>();
    if (node instanceof YMap m) {
      for (var e : m.entries().entrySet()) {
        out.put(e.getKey(), new Cursor(e.getValue().value(), path + "[" + e.getKey() + "]", diagnostics));
      }
    } else if (!(node instanceof YNull)) {
      expected("a mapping");
    }
    return out;
  }

  /** A resource list such as {@code {cpu: 500m, nvidia.com/gpu: 1}}. */
  public ResourceList asResourceList() {
    TreeMap<ResourceName, Quantity> out = new TreeMap<>();
    for (var e : entries().entrySet()) {
      out.put(ResourceName.of(e.getKey()), e.getValue().asQuantity());
    }
    return new ResourceList(out);
  }

  public ResourceList resourceList(String key) {
    return get(key).map(Cursor::asResourceList).orElse(ResourceList.EMPTY);
  }
}
