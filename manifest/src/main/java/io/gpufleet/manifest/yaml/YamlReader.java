package io.gpufleet.manifest.yaml;

import java.io.Reader;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.dataformat.yaml.YAMLFactory;

/**
 * Reads a YAML stream (one or more {@code ---} documents) into located trees with Jackson's
 * streaming YAML parser. Syntax errors and duplicate keys become {@link ManifestException}s that
 * name the file, line and column.
 */
public final class YamlReader {

  private final YAMLFactory factory = YAMLFactory.builder().build();

  /** Every non-empty document of the stream, in order. */
  public List<YNode> readAll(String file, String text) {
    return readAll(file, new StringReader(text));
  }

  public List<YNode> readAll(String file, Reader reader) {
    List<YNode> docs = new ArrayList<>();
    try (JsonParser p = factory.createParser(ObjectReadContext.empty(), reader)) {
      JsonToken t;
      while ((t = p.nextToken()) != null) {
        YNode doc = read(file, p, t);
        if (!(doc instanceof YNode.YNull)) {
          docs.add(doc);
        }
      }
    } catch (JacksonException e) {
      throw new ManifestException(syntaxError(file, e));
    }
    return docs;
  }

  private static final java.util.regex.Pattern MARK =
      java.util.regex.Pattern.compile("line (\\d+), column (\\d+)");

  /**
   * The YAML parser's message as one line, at its problem mark: snakeyaml writes a context
   * ("while parsing a flow sequence") and a problem ("expected ',' or ']'"), each followed by a
   * mark and an excerpt; the last mark is where the problem is.
   */
  static ManifestProblem syntaxError(String file, JacksonException e) {
    TokenStreamLocation l = e.getLocation();
    Location at = l == null ? Location.unknown(file) : new Location(file, l.getLineNr(), l.getColumnNr());
    String raw = e.getOriginalMessage() == null ? "syntax error" : e.getOriginalMessage();
    List<String> parts = new ArrayList<>();
    for (String line : raw.split("\n")) {
      java.util.regex.Matcher m = MARK.matcher(line);
      if (line.startsWith(" in ") && m.find()) {
        at = new Location(file, Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
      } else if (!line.isBlank() && !Character.isWhitespace(line.charAt(0))) {
        parts.add(line.strip());
      }
    }
    return ManifestProblem.error(at, "", "invalid YAML: " + String.join(": ", parts));
  }

  private YNode read(String file, JsonParser p, JsonToken t) {
    Location at = location(file, p);
    return switch (t) {
      case START_OBJECT -> {
        Map<String, YNode.YMap.Entry> entries = new LinkedHashMap<>();
        JsonToken k;
        while ((k = p.nextToken()) == JsonToken.PROPERTY_NAME) {
          String key = p.currentName();
          Location keyAt = location(file, p);
          YNode value = read(file, p, p.nextToken());
          if (entries.containsKey(key)) {
            throw new ManifestException(ManifestProblem.error(keyAt, key,
                "duplicate key \"" + key + "\" (first at line " + entries.get(key).keyLocation().line() + ")"));
          }
          entries.put(key, new YNode.YMap.Entry(keyAt, value));
        }
        yield new YNode.YMap(entries, at);
      }
      case START_ARRAY -> {
        List<YNode> items = new ArrayList<>();
        JsonToken i;
        while ((i = p.nextToken()) != JsonToken.END_ARRAY) {
          items.add(read(file, p, i));
        }
        yield new YNode.YList(items, at);
      }
      case VALUE_STRING -> "~".equals(p.getString()) ? new YNode.YNull(at)
          : new YNode.YScalar(p.getString(), YNode.YScalar.Type.STRING, at);
      case VALUE_NUMBER_INT -> new YNode.YScalar(p.getString(), YNode.YScalar.Type.INTEGER, at);
      case VALUE_NUMBER_FLOAT -> new YNode.YScalar(p.getString(), YNode.YScalar.Type.FLOAT, at);
      case VALUE_TRUE, VALUE_FALSE -> new YNode.YScalar(p.getString(), YNode.YScalar.Type.BOOLEAN, at);
      case VALUE_NULL -> new YNode.YNull(at);
      default -> throw new ManifestException(ManifestProblem.error(at, "", "unexpected YAML token " + t));
    };
  }

  private static Location location(String file, JsonParser p) {
    TokenStreamLocation l = p.currentTokenLocation();
    return new Location(file, l.getLineNr(), l.getColumnNr());
  }
}
