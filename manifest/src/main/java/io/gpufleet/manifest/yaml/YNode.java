package io.gpufleet.manifest.yaml;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A YAML value that remembers where it was written, so errors can point at it. */
public sealed interface YNode {

  Location location();

  /** What kind of value this is, for "expected a mapping, found a list" messages. */
  String describe();

  /** A mapping; keys keep their order and their own locations. */
  record YMap(Map<String, Entry> entries, Location location) implements YNode {
    public YMap {
      entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
    }

    public record Entry(Location keyLocation, YNode value) {}

    @Override
    public String describe() {
      return "a mapping";
    }
  }

  record YList(List<YNode> items, Location location) implements YNode {
    public YList {
      items = List.copyOf(items);
    }

    @Override
    public String describe() {
      return "a list";
    }
  }

  /** A scalar with its text as written and the type YAML's core schema gave it. */
  record YScalar(String text, Type type, Location location) implements YNode {
    public enum Type { STRING, INTEGER, FLOAT, BOOLEAN }

    @Override
    public String describe() {
      return switch (type) {
        case STRING -> "the string \"" + text + "\"";
        case INTEGER -> "the integer " + text;
        case FLOAT -> "the number " + text;
        case BOOLEAN -> "the boolean " + text;
      };
    }
  }

  record YNull(Location location) implements YNode {
    @Override
    public String describe() {
      return "null";
    }
  }
}
