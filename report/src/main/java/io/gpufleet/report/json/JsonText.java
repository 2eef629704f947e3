package io.gpufleet.report.json;

import java.io.FilterWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedCollection;
import java.util.SequencedMap;
import java.util.TreeMap;
import tools.jackson.core.io.JsonStringEncoder;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes a tree of maps, lists and plain values as indented JSON whose bytes depend only on the
 * tree: a map with an encounter order ({@link SequencedMap}: {@code LinkedHashMap}, {@code TreeMap})
 * keeps it, and any other map ({@code Map.of}, {@code HashMap}, whose iteration order can change
 * from one JVM to the next) is written with its keys sorted, and so is a set without an order.
 */
public final class JsonText {
  private JsonText() {}

  private static final JsonMapper MAPPER = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

  /** The tree as JSON, ending with a newline. */
  public static String write(Object tree) {
    return MAPPER.writeValueAsString(ordered(tree)) + "\n";
  }

  private static final JsonMapper COMPACT = JsonMapper.builder().build();

  /** The tree as JSON on one line, without a newline: a line of a JSON Lines file. */
  public static String line(Object tree) {
    return COMPACT.writeValueAsString(ordered(tree));
  }

  private static final JsonStringEncoder STRINGS = JsonStringEncoder.getInstance();

  /**
   * Appends {@code s} as a JSON string value, quoted and escaped byte for byte as {@link #line}
   * writes it (the same Jackson escaping), for a line of a fixed shape written without a tree.
   */
  public static StringBuilder quoted(StringBuilder b, String s) {
    b.append('"');
    if (plain(s)) {
      // Printable ASCII but quote and backslash: Jackson writes it as it is (its escape table marks
      // only control characters, '"' and '\\' below 128), and half a million event lines skip its copy.
      b.append(s);
    } else {
      STRINGS.quoteAsString(s, b);
    }
    return b.append('"');
  }

  /** Whether {@code s} is printable ASCII with no quote or backslash: nothing in it is escaped. */
  private static boolean plain(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') {
        return false;
      }
    }
    return true;
  }

  /**
   * Writes {@code {"<name>": [elements...]}} to {@code out} element by element, byte for byte as
   * {@link #write} writes the same tree, so a long list is never held as one tree or one string.
   * {@code out} is flushed, not closed.
   */
  public static void writeList(String name, Iterable<?> elements, Writer out) {
    writeList(name, elements, new LinkedHashMap<>(), out);
  }

  /**
   * As {@link #writeList(String, Iterable, java.io.Writer)}, with more members after the list, as
   * {@link #write} writes a map holding the list first and then {@code after}'s entries.
   */
  public static void writeList(String name, Iterable<?> elements, SequencedMap<String, ?> after,
      Writer out) {
    Writer kept = new FilterWriter(out) {
      @Override
      public void close() throws IOException {
        flush();
      }
    };
    try (tools.jackson.core.JsonGenerator g = MAPPER.createGenerator(kept)) {
      g.writeStartObject();
      g.writeName(name);
      g.writeStartArray();
      for (Object e : elements) {
        MAPPER.writeValue(g, ordered(e));
      }
      g.writeEndArray();
      for (var e : after.entrySet()) {
        g.writeName(e.getKey());
        MAPPER.writeValue(g, ordered(e.getValue()));
      }
      g.writeEndObject();
    }
    try {
      out.write('\n');
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Object ordered(Object value) {
    return switch (value) {
      case SequencedMap<?, ?> m -> orderedEntries(m, new LinkedHashMap<>());
      case Map<?, ?> m -> orderedEntries(m, new TreeMap<>());
      case SequencedCollection<?> c -> {
        List<Object> out = new ArrayList<>(c.size());
        c.forEach(x -> out.add(ordered(x)));
        yield out;
      }
      case Collection<?> c -> {
        // A set without an order (Set.of, HashSet): its elements sorted by their text.
        List<Object> out = new ArrayList<>(c.size());
        c.forEach(x -> out.add(ordered(x)));
        out.sort(Comparator.comparing(String::valueOf));
        yield out;
      }
      case null -> null;
      default -> value;
    };
  }

  private static Map<String, Object> orderedEntries(Map<?, ?> in, Map<String, Object> out) {
    in.forEach((k, v) -> out.put(String.valueOf(k), ordered(v)));
    return out;
  }
}
