package io.gpufleet.manifest.yaml;

import java.io.Reader;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.LoadSettings;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.dataformat.yaml.YAMLFactory;
import tools.jackson.dataformat.yaml.YAMLParser;

/**
 * Reads a YAML stream (one or more {@code ---} documents) or a JSON stream (one or more values,
 * as kubectl's YAML-or-JSON decoder accepts) into located trees with Jackson's streaming parsers.
 *
 * <p>YAML is read as kubectl reads it (go-yaml, YAML 1.1 for these features): an alias is the
 * node its anchor names, and a merge key {@code <<} folds the named mapping (or list of mappings)
 * in, keys written in the mapping itself winning. Excessive alias expansion is refused with
 * go-yaml's rule. Syntax errors, duplicate keys, unknown aliases and bad merges become
 * {@link ManifestException}s that name the file, line and column.
 *
 * <p>Cost is linear in the input: the whole text is handed to the YAML scanner in one buffer, since
 * snakeyaml-engine's reader copies its whole look-ahead window on every refill, which made one long
 * scalar quadratic (a 16 MB value took about a minute).
 */
public final class YamlReader {

  /** The largest input read, in characters: larger inputs are refused before parsing. */
  public static final int MAX_CHARS = 256 * 1024 * 1024;

  /** The deepest nesting read; deeper input is refused (Jackson's default, stated here as ours). */
  public static final int MAX_DEPTH = 1000;

  /** YAML 1.1's infinities and NaN (yaml.org/type/float.html). */
  private static final Pattern NON_FINITE =
      Pattern.compile("[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN)");

  /** The YAML merge key (YAML 1.1 type {@code tag:yaml.org,2002:merge}). */
  static final String MERGE_KEY = "<<";

  private static final JsonFactory JSON = JsonFactory.builder()
      .streamReadConstraints(constraints()).build();

  /** Every non-empty document of the stream, in order. */
  public List<YNode> readAll(String file, String text) {
    return parse(file, text, new StringReader(text));
  }

  /** Reads {@code text} through {@code source} (the same characters; a test may count the reads). */
  List<YNode> parse(String file, String text, Reader source) {
    if (text.length() > MAX_CHARS) {
      throw new ManifestException(ManifestProblem.error(Location.unknown(file), "",
          "input of " + text.length() + " characters is larger than the " + MAX_CHARS + " characters gpufleet reads"));
    }
    boolean json = looksLikeJson(text);
    List<YNode> docs = new ArrayList<>();
    // Scanned once for the whole stream: per document it made reading quadratic in the documents.
    boolean astral = text.chars().anyMatch(c -> Character.isSurrogate((char) c));
    try (JsonParser p = json ? JSON.createParser(ObjectReadContext.empty(), source)
        : yamlFactory(text.length()).createParser(ObjectReadContext.empty(), source)) {
      JsonToken t;
      while ((t = p.nextToken()) != null) {
        YNode doc = new Document(file, text, astral, p, json).read(t);
        if (!(doc instanceof YNode.YNull)) {
          docs.add(doc);
        }
      }
    } catch (JacksonException e) {
      throw new ManifestException(syntaxError(file, e, json));
    }
    return docs;
  }

  /** kubectl's YAML-or-JSON decoder takes a stream whose first non-space character is '{' as JSON. */
  static boolean looksLikeJson(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!Character.isWhitespace(c) && c != '\uFEFF') {
        return c == '{';
      }
    }
    return false;
  }

  private static StreamReadConstraints constraints() {
    return StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).maxStringLength(MAX_CHARS)
        .maxDocumentLength(MAX_CHARS).build();
  }

  /** One buffer as large as the text: the scanner never refills, so never re-copies its window. */
  private static YAMLFactory yamlFactory(int length) {
    // Duplicate keys are allowed through so that this reader reports them, with both lines.
    LoadSettings settings = LoadSettings.builder().setBufferSize(Math.max(1024, length + 1))
        .setCodePointLimit(MAX_CHARS).setAllowDuplicateKeys(true).build();
    return YAMLFactory.builder().loadSettings(settings).streamReadConstraints(constraints()).build();
  }

  private static final Pattern MARK =
      Pattern.compile("line (\\d+), column (\\d+)");

  /**
   * The parser's message as one line, at its problem mark: snakeyaml writes a context
   * ("while parsing a flow sequence") and a problem ("expected ',' or ']'"), each followed by a
   * mark and an excerpt; the last mark is where the problem is. Limits are said in plain words.
   */
  static ManifestProblem syntaxError(String file, JacksonException e, boolean json) {
    TokenStreamLocation l = e.getLocation();
    Location at = l == null ? Location.unknown(file) : new Location(file, l.getLineNr(), l.getColumnNr());
    if (e instanceof StreamConstraintsException) {
      String what = e.getOriginalMessage() != null && e.getOriginalMessage().contains("nesting depth")
          ? "nested deeper than " + MAX_DEPTH + " levels, the most gpufleet reads"
          : "larger than the " + MAX_CHARS + " characters gpufleet reads";
      return ManifestProblem.error(at, "", "input " + what);
    }
    String raw = e.getOriginalMessage() == null ? "syntax error" : e.getOriginalMessage();
    List<String> parts = new ArrayList<>();
    for (String line : raw.split("\n")) {
      Matcher m = MARK.matcher(line);
      if (line.startsWith(" in ") && m.find()) {
        at = new Location(file, Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
      } else if (!line.isBlank() && !Character.isWhitespace(line.charAt(0))) {
        parts.add(line.strip());
      }
    }
    return ManifestProblem.error(at, "", "invalid " + (json ? "JSON" : "YAML") + ": " + String.join(": ", parts));
  }

  /**
   * The reading of one document: its anchors (YAML scopes them to a document) and its count of
   * nodes, with and without alias expansion.
   */
  private static final class Document {
    private final String file;
    private final String text;
    private final boolean astral;
    /** The last code-point offset turned into a char index (offsets only grow while parsing). */
    private long lastCodePoint;
    private int lastChar;
    private final JsonParser p;
    private final boolean json;
    private final Map<String, Anchored> anchors = new HashMap<>();
    /** Nodes as a decoder walking the tree sees them (aliases expanded) and those from aliases. */
    private long decoded;
    private long fromAliases;

    private record Anchored(YNode node, long size) {}

    Document(String file, String text, boolean astral, JsonParser p, boolean json) {
      this.file = file;
      this.text = text;
      this.astral = astral;
      this.p = p;
      this.json = json;
    }

    YNode read(JsonToken t) {
      Location at = location(file, p);
      if (!json && ((YAMLParser) p).isCurrentAlias()) {
        return alias(p.getString(), at);
      }
      String anchor = json ? null : t.isScalarValue() ? scalarAnchor() : ((YAMLParser) p).getObjectId();
      long before = decoded;
      decoded++;
      YNode node = switch (t) {
        case START_OBJECT -> map(at);
        case START_ARRAY -> {
          List<YNode> items = new ArrayList<>();
          JsonToken i;
          while ((i = p.nextToken()) != JsonToken.END_ARRAY) {
            items.add(read(i));
          }
          yield new YNode.YList(items, at);
        }
        case VALUE_STRING -> !json && "~".equals(p.getString()) ? new YNode.YNull(at)
            : new YNode.YScalar(p.getString(), !json && plainNonFinite(p.getString()) ? YNode.YScalar.Type.FLOAT
                : YNode.YScalar.Type.STRING, at);
        case VALUE_NUMBER_INT -> new YNode.YScalar(p.getString(), YNode.YScalar.Type.INTEGER, at);
        case VALUE_NUMBER_FLOAT -> new YNode.YScalar(p.getString(), YNode.YScalar.Type.FLOAT, at);
        case VALUE_TRUE, VALUE_FALSE -> new YNode.YScalar(p.getString(), YNode.YScalar.Type.BOOLEAN, at);
        case VALUE_NULL -> new YNode.YNull(at);
        default -> throw new ManifestException(ManifestProblem.error(at, "", "unexpected YAML token " + t));
      };
      if (anchor != null) {
        anchors.put(anchor, new Anchored(node, decoded - before));
      }
      return node;
    }

    /**
     * The anchor written before a scalar ({@code &name}, perhaps after or before a tag): Jackson
     * reports anchors of collections only, so it is read from the text at the scalar's event mark.
     */
    /**
     * A plain (unquoted) {@code -.inf}, {@code +.Inf} or {@code .NaN}: a float in YAML 1.1's core schema,
     * as go-yaml (kubectl) resolves it, which the parser leaves a string when signed.
     */
    private boolean plainNonFinite(String value) {
      if (!NON_FINITE.matcher(value).matches()) {
        return false;
      }
      int i = charIndex(p.currentTokenLocation().getCharOffset());
      return i >= 0 && i < text.length() && text.startsWith(value, i);
    }

    private String scalarAnchor() {
      int i = charIndex(p.currentTokenLocation().getCharOffset());
      while (i >= 0 && i < text.length() && (text.charAt(i) == '&' || text.charAt(i) == '!')) {
        int start = i + 1;
        int end = start;
        while (end < text.length() && !Character.isWhitespace(text.charAt(end)) && ",[]{}".indexOf(text.charAt(end)) < 0) {
          end++;
        }
        if (text.charAt(i) == '&') {
          return text.substring(start, end);
        }
        i = end;
        while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
          i++;
        }
      }
      return null;
    }

    /** snakeyaml counts code points; Java strings count chars, which differ past the BMP. */
    private int charIndex(long codePoint) {
      if (!astral || codePoint < 0) {
        return (int) codePoint;
      }
      if (codePoint < lastCodePoint) {
        lastCodePoint = 0;
        lastChar = 0;
      }
      while (lastCodePoint < codePoint && lastChar < text.length()) {
        lastChar += Character.charCount(text.codePointAt(lastChar));
        lastCodePoint++;
      }
      return lastChar;
    }

    private YNode alias(String name, Location at) {
      Anchored a = anchors.get(name);
      if (a == null) {
        throw new ManifestException(ManifestProblem.error(at, "", "unknown alias *" + name
            + " (no anchor &" + name + " before it in this document)"));
      }
      decoded += a.size();
      fromAliases += a.size();
      // go-yaml's (and so kubectl's) guard against alias bombs, with its constants: gopkg.in/yaml.v2 decode.go.
      if (fromAliases > 100 && decoded > 1000 && (double) fromAliases / decoded > allowedAliasRatio(decoded)) {
        throw new ManifestException(ManifestProblem.error(at, "", "document contains excessive aliasing ("
            + decoded + " nodes once aliases are expanded, " + fromAliases + " of them from aliases)"));
      }
      return a.node();
    }

    private YNode.YMap map(Location at) {
      Map<String, YNode.YMap.Entry> entries = new LinkedHashMap<>();
      List<YNode.YMap> merged = new ArrayList<>();
      JsonToken k;
      while ((k = p.nextToken()) == JsonToken.PROPERTY_NAME) {
        String key = p.currentName();
        Location keyAt = location(file, p);
        YNode value = read(p.nextToken());
        if (!json && key.equals(MERGE_KEY)) {
          merged.addAll(mergeSources(value));
          continue;
        }
        if (entries.containsKey(key)) {
          throw new ManifestException(ManifestProblem.error(keyAt, key,
              "duplicate key \"" + key + "\" (first at line " + entries.get(key).keyLocation().line() + ")"));
        }
        entries.put(key, new YNode.YMap.Entry(keyAt, value));
      }
      // YAML 1.1 merge: keys written in the mapping win; among merged mappings, the first listed wins.
      for (YNode.YMap source : merged) {
        source.entries().forEach(entries::putIfAbsent);
      }
      return new YNode.YMap(entries, at);
    }

    private static List<YNode.YMap> mergeSources(YNode value) {
      return switch (value) {
        case YNode.YMap m -> List.of(m);
        case YNode.YList l -> {
          List<YNode.YMap> out = new ArrayList<>();
          for (YNode item : l.items()) {
            if (!(item instanceof YNode.YMap m)) {
              throw badMerge(item);
            }
            out.add(m);
          }
          yield out;
        }
        default -> throw badMerge(value);
      };
    }

    private static ManifestException badMerge(YNode value) {
      return new ManifestException(ManifestProblem.error(value.location(), MERGE_KEY,
          "a merge key takes a mapping or a list of mappings, found " + value.describe()));
    }
  }

  /** go-yaml's allowed share of alias-expanded nodes for a document of {@code decodeCount} nodes. */
  static double allowedAliasRatio(long decodeCount) {
    long low = 400_000;
    long high = 4_000_000;
    if (decodeCount <= low) {
      return 0.99;
    }
    if (decodeCount >= high) {
      return 0.10;
    }
    return 0.99 - 0.89 * ((double) (decodeCount - low) / (high - low));
  }

  private static Location location(String file, JsonParser p) {
    TokenStreamLocation l = p.currentTokenLocation();
    return new Location(file, l.getLineNr(), l.getColumnNr());
  }
}
