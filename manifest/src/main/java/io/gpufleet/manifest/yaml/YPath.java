package io.gpufleet.manifest.yaml;

import java.util.ArrayList;
import java.util.List;

/** Finds where a field path such as {@code spec.containers[0].resources.limits[nvidia.com/gpu]} was written. */
public final class YPath {
  private YPath() {}

  /** The location of the deepest node the path reaches (the document's when nothing matches). */
  public static Location locate(YNode root, String path) {
    YNode at = root;
    Location best = root.location();
    for (String seg : segments(path)) {
      YNode next = null;
      if (at instanceof YNode.YMap m) {
        YNode.YMap.Entry e = m.entries().get(seg);
        if (e != null) {
          next = e.value();
          // A scalar is best shown where its value is; a block mapping or list where its key is.
          best = e.value() instanceof YNode.YScalar ? e.value().location() : e.keyLocation();
        }
      } else if (at instanceof YNode.YList l && seg.chars().allMatch(Character::isDigit) && !seg.isEmpty()) {
        int i = Integer.parseInt(seg);
        if (i < l.items().size()) {
          next = l.items().get(i);
          best = next.location();
        }
      }
      if (next == null) {
        return best;
      }
      at = next;
    }
    return best;
  }

  /** Whether every segment of the path was written (a field the API server defaulted was not). */
  public static boolean written(YNode root, String path) {
    YNode at = root;
    for (String seg : segments(path)) {
      if (at instanceof YNode.YMap m && m.entries().get(seg) != null) {
        at = m.entries().get(seg).value();
      } else if (at instanceof YNode.YList l && !seg.isEmpty() && seg.chars().allMatch(Character::isDigit)
          && Integer.parseInt(seg) < l.items().size()) {
        at = l.items().get(Integer.parseInt(seg));
      } else {
        return false;
      }
    }
    return true;
  }

  /** {@code a.b[0][x.y/z]} → {@code a, b, 0, x.y/z}. */
  static List<String> segments(String path) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if (c == '.') {
        flush(out, cur);
      } else if (c == '[') {
        flush(out, cur);
        int end = path.indexOf(']', i);
        if (end < 0) {
          end = path.length();
        }
        out.add(path.substring(i + 1, end));
        i = end;
      } else {
        cur.append(c);
      }
    }
    flush(out, cur);
    return out;
  }

  private static void flush(List<String> out, StringBuilder cur) {
    if (!cur.isEmpty()) {
      out.add(cur.toString());
      cur.setLength(0);
    }
  }
}
