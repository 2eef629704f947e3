package io.gpufleet.model.gpu;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The GPU models gpufleet knows, read from {@code gpu-catalog.txt} beside this class: data, with
 * a source for every figure and {@code ?} for what nobody confirmed. Immutable.
 *
 * <p>The file is line-oriented: {@code gpu <id>} opens a model; indented {@code key value} lines
 * describe it; a line whose first non-blank character is {@code #} is a comment. Profile lines read
 * {@code profile <name> gi=<id> ci=<n> mem=<n> max=<n> starts=<a,b,..> gib=<x> sm=<n> engines=<CE/DEC/ENC/JPEG/OFA>}.
 */
public final class GpuCatalog {

  private static final String RESOURCE = "gpu-catalog.txt";
  /** The fields a profile line may have. */
  private static final Set<String> PROFILE_FIELDS =
      Set.of("gi", "ci", "mem", "max", "starts", "gib", "sm", "engines");
  /** The catalogue shipped in the jar: no models of its own, {@link BuiltIn} holds them. */
  private static final GpuCatalog BUILT_IN = new GpuCatalog();

  /** The models by id, in file order; {@code null} in {@link #BUILT_IN}, which reads {@link BuiltIn}'s. */
  private final Map<String, GpuModel> models;

  private GpuCatalog(Map<String, GpuModel> models) {
    this.models = Collections.unmodifiableMap(new LinkedHashMap<>(models));
  }

  private GpuCatalog() {
    this.models = null;
  }

  /**
   * The shipped catalogue's models, read when one is first asked for (the JVM's holder idiom, so
   * once and thread-safely): every {@code schedule} hands the catalogue to the DRA driver, which
   * asks it nothing when no node is served by DRA, and reading the file was about a tenth of
   * such a call's start-up.
   */
  private static final class BuiltIn {
    static final Map<String, GpuModel> MODELS = load().models;
  }

  /** The catalogue shipped in the jar. */
  public static GpuCatalog builtIn() {
    return BUILT_IN;
  }

  private Map<String, GpuModel> byId() {
    return models != null ? models : BuiltIn.MODELS;
  }

  public static GpuCatalog of(Collection<GpuModel> models) {
    Map<String, GpuModel> m = new LinkedHashMap<>();
    for (GpuModel g : models) {
      if (m.put(g.id(), g) != null) {
        throw new IllegalArgumentException("duplicate GPU model " + g.id());
      }
    }
    return new GpuCatalog(m);
  }

  /**
   * This catalogue with another's models laid over it, as a user's catalogue file extends or
   * overrides the built-in one: a model of {@code overrides} takes the place of this catalogue's
   * model of the same id or the same GFD product label (so a file may correct a built-in model
   * whichever id it gives it); its other models follow this catalogue's.
   * {@link #find} tries ids and product names before aliases, so an override answers to them; an
   * alias both catalogues list answers with the model that comes first.
   */
  public GpuCatalog with(GpuCatalog overrides) {
    List<GpuModel> added = new ArrayList<>(overrides.byId().values());
    Map<String, GpuModel> m = new LinkedHashMap<>();
    for (GpuModel old : byId().values()) {
      GpuModel over = added.stream().filter(g -> g.id().equals(old.id())
          || g.productLabel().equalsIgnoreCase(old.productLabel())).findFirst().orElse(null);
      if (over == null) {
        m.put(old.id(), old);
      } else if (!m.containsKey(over.id())) {
        // In the place of the first model it replaces; a second one it also replaces just goes.
        m.put(over.id(), over);
      }
    }
    for (GpuModel g : added) {
      m.putIfAbsent(g.id(), g);
    }
    return new GpuCatalog(m);
  }

  private static GpuCatalog load() {
    try (InputStream in = GpuCatalog.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from the classpath");
      }
      return parse(RESOURCE, new InputStreamReader(in, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every model, in file order. */
  public List<GpuModel> models() {
    return List.copyOf(byId().values());
  }

  public Optional<GpuModel> byId(String id) {
    return Optional.ofNullable(byId().get(id));
  }

  /**
   * The model that answers to a name: a catalogue id, a GFD product label (a {@code -SHARED} or
   * {@code -MIG-<profile>} suffix GFD added is ignored), an NVML name, or an alias.
   */
  public Optional<GpuModel> find(String name) {
    String plain = name.strip();
    int mig = plain.indexOf("-MIG-");
    if (mig > 0) {
      plain = plain.substring(0, mig);
    }
    if (plain.endsWith("-SHARED")) {
      plain = plain.substring(0, plain.length() - "-SHARED".length());
    }
    Map<String, GpuModel> all = byId();
    GpuModel exact = all.get(plain);
    if (exact != null) {
      return Optional.of(exact);
    }
    // Names first, aliases second: a model a user's file laid over the catalogue answers to its
    // product even where a built-in model lists that name as an alias.
    for (GpuModel g : all.values()) {
      if (g.answersToName(plain)) {
        return Optional.of(g);
      }
    }
    for (GpuModel g : all.values()) {
      if (g.answersTo(plain)) {
        return Optional.of(g);
      }
    }
    return Optional.empty();
  }

  // ---- the file format ----

  /**
   * Parses the catalogue format. A problem throws {@link GpuCatalogFormatException} naming the file,
   * line and column: the key's column for an unknown key or a model without its required lines, the
   * value's for a value that cannot be read.
   */
  public static GpuCatalog parse(String file, Reader reader) throws IOException {
    BufferedReader in = new BufferedReader(reader);
    List<GpuModel> out = new ArrayList<>();
    Map<String, Integer> idLines = new LinkedHashMap<>();
    Draft draft = null;
    int draftLine = 0;
    int draftColumn = 0;
    String line;
    int n = 0;
    while ((line = in.readLine()) != null) {
      n++;
      String s = line.strip();
      if (s.isEmpty() || s.startsWith("#")) {
        continue;
      }
      int keyColumn = line.indexOf(s.charAt(0)) + 1;
      int sp = s.indexOf(' ');
      String key = sp < 0 ? s : s.substring(0, sp);
      String value = sp < 0 ? "" : s.substring(sp + 1).strip();
      int valueColumn = value.isEmpty() ? keyColumn + key.length() : line.indexOf(value, keyColumn - 1 + key.length()) + 1;
      if (key.equals("gpu")) {
        if (draft != null) {
          out.add(build(file, draft, draftLine, draftColumn));
        }
        if (value.isEmpty()) {
          throw new GpuCatalogFormatException(file, n, keyColumn, "expected \"gpu <id>\", found no id", null);
        }
        Integer first = idLines.putIfAbsent(value, n);
        if (first != null) {
          throw new GpuCatalogFormatException(file, n, valueColumn, "GPU model \"" + value
              + "\" is already defined at line " + first + " of this file", null);
        }
        draft = new Draft(value);
        draftLine = n;
        draftColumn = keyColumn;
        continue;
      }
      if (draft == null) {
        throw new GpuCatalogFormatException(file, n, keyColumn, "expected \"gpu <id>\" before \"" + key + "\"", null);
      }
      if (!Draft.KEYS.contains(key)) {
        throw new GpuCatalogFormatException(file, n, keyColumn, "unknown key \"" + key + "\" (expected one of "
            + String.join(", ", Draft.KEYS) + ")", null);
      }
      try {
        draft.set(key, value);
      } catch (NumberFormatException e) {
        String bad = numberIn(e);
        throw new GpuCatalogFormatException(file, n, valueColumn, key + ": expected a number, found \"" + bad + "\""
            + (bad.equals(value) || value.equals("~" + bad) ? "" : " in \"" + value + "\""), e);
      } catch (RuntimeException e) {
        throw new GpuCatalogFormatException(file, n, valueColumn, key + ": " + e.getMessage(), e);
      }
    }
    if (draft != null) {
      out.add(build(file, draft, draftLine, draftColumn));
    }
    return of(out);
  }

  /** The model a draft describes; a missing required line is reported at the draft's {@code gpu} line. */
  private static GpuModel build(String file, Draft draft, int line, int column) {
    try {
      return draft.build();
    } catch (RuntimeException e) {
      throw new GpuCatalogFormatException(file, line, column, e.getMessage(), e);
    }
  }

  /** The text Java's number parsing refused, from its message ({@code For input string: "x"}). */
  private static String numberIn(NumberFormatException e) {
    String m = String.valueOf(e.getMessage());
    int q = m.indexOf('"');
    return q >= 0 && m.endsWith("\"") && m.length() > q + 1 ? m.substring(q + 1, m.length() - 1) : m;
  }

  /**
   * The words of a stripped value, split at runs of whitespace as {@code split("\\s+")} splits it
   * ({@code [""]} for an empty one). Scanned by hand over the value's characters: the regular
   * expression, compiled or not, and a {@code charAt} call per character were most of this parse,
   * which runs interpreted at every CLI start.
   */
  static List<String> words(String v) {
    char[] c = v.toCharArray();
    List<String> out = new ArrayList<>();
    int i = 0;
    do {
      int start = i;
      while (i < c.length && !blank(c[i])) {
        i++;
      }
      out.add(v.substring(start, i));
      while (i < c.length && blank(c[i])) {
        i++;
      }
    } while (i < c.length);
    return out;
  }

  /** What {@code \s} matches. */
  private static boolean blank(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
  }

  /** A model being read. */
  private static final class Draft {
    /** The keys a model line may have, in the order the file's header lists them. */
    static final List<String> KEYS = List.of("product", "memory-mib", "compute", "sm", "bandwidth-gbps",
        "bf16-tflops", "fp16-tflops", "pci-device-id", "mig", "profile", "aliases", "source");
    final String id;
    String product;
    OptionalLong memory = OptionalLong.empty();
    boolean memoryNominal;
    Optional<ComputeCapability> compute = Optional.empty();
    OptionalInt sms = OptionalInt.empty();
    Optional<MigGeometry> mig = Optional.empty();
    final List<MigProfile> profiles = new ArrayList<>();
    OptionalDouble bandwidth = OptionalDouble.empty();
    OptionalDouble bf16 = OptionalDouble.empty();
    OptionalDouble fp16 = OptionalDouble.empty();
    Optional<String> pci = Optional.empty();
    final List<String> aliases = new ArrayList<>();
    final List<String> sources = new ArrayList<>();

    Draft(String id) {
      if (id.isEmpty()) {
        throw new IllegalArgumentException("gpu needs an id");
      }
      this.id = id;
    }

    void set(String key, String value) {
      switch (key) {
        case "product" -> product = value;
        case "memory-mib" -> {
          memoryNominal = value.startsWith("~");
          memory = unknown(value) ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(value.replace("~", "")));
        }
        case "compute" -> compute = unknown(value) ? Optional.empty() : Optional.of(ComputeCapability.parse(value));
        case "sm" -> sms = optInt(value);
        case "mig" -> mig = unknown(value) ? Optional.empty() : Optional.of(geometry(value));
        case "profile" -> profiles.add(profile(value));
        case "bandwidth-gbps" -> bandwidth = optDouble(value);
        case "bf16-tflops" -> bf16 = optDouble(value);
        case "fp16-tflops" -> fp16 = optDouble(value);
        case "pci-device-id" -> pci = unknown(value) ? Optional.empty() : Optional.of(value);
        case "aliases" -> aliases.addAll(words(value));
        case "source" -> sources.add(value);
        default -> throw new IllegalArgumentException("unknown key \"" + key + "\"");
      }
    }

    GpuModel build() {
      if (product == null) {
        throw new IllegalArgumentException(id + ": product is required");
      }
      if (sources.isEmpty()) {
        throw new IllegalArgumentException(id + ": every model needs at least one source line");
      }
      return new GpuModel(id, product, memory, memoryNominal, compute, sms, mig, profiles, bandwidth, bf16, fp16,
          pci, aliases, sources);
    }

    /** {@code 8x7}. */
    static MigGeometry geometry(String v) {
      String[] p = v.split("x");
      if (p.length != 2) {
        throw new IllegalArgumentException("expected a MIG geometry such as 8x7, found \"" + v + "\"");
      }
      return new MigGeometry(Integer.parseInt(p[0]), Integer.parseInt(p[1]));
    }

    static MigProfile profile(String v) {
      String[] parts = words(v).toArray(String[]::new);
      Map<String, String> f = new LinkedHashMap<>();
      for (int i = 1; i < parts.length; i++) {
        int eq = parts[i].indexOf('=');
        if (eq < 0) {
          throw new IllegalArgumentException("expected key=value in profile, found \"" + parts[i] + "\"");
        }
        f.put(parts[i].substring(0, eq), parts[i].substring(eq + 1));
      }
      for (String k : f.keySet()) {
        if (!PROFILE_FIELDS.contains(k)) {
          throw new IllegalArgumentException("unknown profile field \"" + k + "\"");
        }
      }
      List<Integer> starts = new ArrayList<>();
      for (String s : required(f, "starts").split(",")) {
        starts.add(Integer.parseInt(s));
      }
      return new MigProfile(parts[0], optInt(f.getOrDefault("gi", "?")), Integer.parseInt(required(f, "ci")),
          Integer.parseInt(required(f, "mem")), Integer.parseInt(required(f, "max")), starts,
          optDouble(f.getOrDefault("gib", "?")), optInt(f.getOrDefault("sm", "?")),
          unknown(f.getOrDefault("engines", "?")) ? Optional.empty() : Optional.of(MigEngines.parse(f.get("engines"))));
    }

    static String required(Map<String, String> f, String k) {
      String v = f.get(k);
      if (v == null) {
        throw new IllegalArgumentException("profile needs " + k + "=");
      }
      return v;
    }

    static boolean unknown(String v) {
      return v.equals("?") || v.equals("none");
    }

    static OptionalInt optInt(String v) {
      return unknown(v) ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(v));
    }

    static OptionalDouble optDouble(String v) {
      return unknown(v) ? OptionalDouble.empty() : OptionalDouble.of(Double.parseDouble(v));
    }
  }
}
