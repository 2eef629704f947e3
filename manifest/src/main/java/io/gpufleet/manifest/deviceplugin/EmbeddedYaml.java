package io.gpufleet.manifest.deviceplugin;

import io.gpufleet.manifest.yaml.Cursor;
import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.Location;
import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.manifest.yaml.YNode;
import io.gpufleet.manifest.yaml.YamlReader;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * YAML held in a ConfigMap value ({@code data: {ts4: |  version: v1 ...}}), read so that its
 * nodes carry their lines and columns in the ConfigMap's file: an error in the embedded config
 * points at the line a user would open.
 */
public final class EmbeddedYaml {
  private EmbeddedYaml() {}

  /**
   * The embedded document under {@code value}, located in {@code fileText} (the whole file the
   * ConfigMap came from). A block scalar ({@code |}, {@code >}) maps exactly; a quoted or plain
   * string maps its first line. Syntax errors are recorded in {@code diagnostics} and give null.
   */
  public static YNode read(Cursor value, String fileText, Diagnostics diagnostics) {
    String text = value.asString();
    Location at = value.location();
    int lineOffset = at.line() - 1;
    int columnOffset = at.column() - 1;
    List<String> lines = fileText.lines().toList();
    if (at.line() >= 1 && at.line() <= lines.size()) {
      String line = lines.get(at.line() - 1);
      int col = at.column() - 1;
      boolean block = col >= 0 && col < line.length() && (line.charAt(col) == '|' || line.charAt(col) == '>');
      if (block) {
        lineOffset = at.line();
        columnOffset = firstContentIndent(lines, at.line());
      }
    }
    try {
      List<YNode> docs = new YamlReader().readAll(at.file(), text);
      if (docs.isEmpty()) {
        diagnostics.error(at, value.path(), "expected an embedded YAML document, found an empty value");
        return null;
      }
      return shift(docs.getFirst(), lineOffset, columnOffset);
    } catch (ManifestException e) {
      for (ManifestProblem p : e.problems()) {
        diagnostics.error(shift(p.location(), lineOffset, columnOffset), value.path(), p.message());
      }
      return null;
    }
  }

  /** Leading spaces of the first non-blank line after {@code line} (1-based). */
  private static int firstContentIndent(List<String> lines, int line) {
    for (int i = line; i < lines.size(); i++) {
      String l = lines.get(i);
      if (!l.isBlank()) {
        int n = 0;
        while (n < l.length() && l.charAt(n) == ' ') {
          n++;
        }
        return n;
      }
    }
    return 0;
  }

  static Location shift(Location l, int lines, int columns) {
    return l.line() <= 0 ? l : new Location(l.file(), l.line() + lines, l.column() + columns);
  }

  static YNode shift(YNode node, int lines, int columns) {
    return switch (node) {
      case YNode.YMap m -> {
        Map<String, YNode.YMap.Entry> entries = new LinkedHashMap<>();
        m.entries().forEach((k, e) -> entries.put(k,
            new YNode.YMap.Entry(shift(e.keyLocation(), lines, columns), shift(e.value(), lines, columns))));
        yield new YNode.YMap(entries, shift(m.location(), lines, columns));
      }
      case YNode.YList l -> new YNode.YList(l.items().stream().map(i -> shift(i, lines, columns)).toList(),
          shift(l.location(), lines, columns));
      case YNode.YScalar s -> new YNode.YScalar(s.text(), s.type(), shift(s.location(), lines, columns));
      case YNode.YNull n -> new YNode.YNull(shift(n.location(), lines, columns));
    };
  }
}
