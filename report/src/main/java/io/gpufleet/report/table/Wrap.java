package io.gpufleet.report.table;

import java.util.ArrayList;
import java.util.List;

/**
 * Text cut into lines of at most a given width without losing a character: breaks go at a space
 * (which is dropped) in the second half of the line, else at the last space or after the last of
 * {@code / , ; : = - .} (kept on the line, so a path, a UUID or a list rejoins by reading on), and
 * only where there is none, inside a word.
 */
public final class Wrap {
  private Wrap() {}

  /** What a terminal shows by default: every line fits this many columns; {@code --wide} lifts it. */
  public static final int TERMINAL = 120;

  /** No limit: lines as long as their content. */
  public static final int UNLIMITED = Integer.MAX_VALUE;

  /** {@code text} in pieces of at most {@code width} characters (at least 1); one piece when it fits. */
  public static List<String> lines(String text, int width) {
    int w = Math.max(1, width);
    List<String> out = new ArrayList<>();
    String rest = text;
    while (rest.length() > w) {
      int cut = -1;
      boolean atSpace = false;
      // Between words where a space lies in the second half of the piece, else after any separator.
      for (int i = w; i >= w / 2 && i > 0; i--) {
        if (rest.charAt(i) == ' ') {
          cut = i;
          atSpace = true;
          break;
        }
      }
      for (int i = w; cut < 0 && i > 0; i--) { // break before index i
        if (rest.charAt(i) == ' ') {
          cut = i;
          atSpace = true;
        } else if (breaksAfter(rest.charAt(i - 1))) {
          cut = i;
        }
      }
      if (cut <= 0 || rest.substring(0, cut).isBlank()) {
        cut = w;
        atSpace = false;
      }
      out.add(rest.substring(0, cut).stripTrailing());
      rest = atSpace ? rest.substring(cut + 1) : rest.substring(cut);
      rest = rest.stripLeading();
    }
    if (!rest.isEmpty() || out.isEmpty()) {
      out.add(rest);
    }
    return out;
  }

  /** Whether a line may end after {@code c} inside a run of text without spaces. */
  static boolean breaksAfter(char c) {
    return c == '/' || c == ',' || c == ';' || c == ':' || c == '=' || c == '-' || c == '.';
  }

  /**
   * One line of output folded to {@code width}: its continuation lines start under where its text
   * does after the label, for a {@code "  label      value"} line (a run of two or more spaces after the
   * indent), under the item's text for a {@code "- item"}, else four columns deeper than its own
   * indent. A line that fits comes back as it is.
   */
  public static String fold(String line, int width) {
    if (line.length() <= width) {
      return line;
    }
    int indent = 0;
    while (indent < line.length() && line.charAt(indent) == ' ') {
      indent++;
    }
    // A list item ("- text") continues under its text, other lines four columns in.
    int hang = line.startsWith("- ", indent) ? indent + 2 : indent + 4;
    int gap = line.indexOf("  ", indent);
    if (gap > indent) {
      int value = gap;
      while (value < line.length() && line.charAt(value) == ' ') {
        value++;
      }
      if (value < width / 2) {
        hang = value;
      }
    }
    if (hang >= width) {
      hang = 0;
    }
    String first = lines(line, width).getFirst();
    StringBuilder b = new StringBuilder(first);
    // What follows the first piece, cut again at the width left after the hang.
    for (String l : lines(line.substring(first.length()).stripLeading(), width - hang)) {
      b.append('\n').append(" ".repeat(hang)).append(l);
    }
    return b.toString();
  }

  /** Each line of {@code text} (lines end in {@code \n}) folded as {@link #fold} does. */
  public static String foldAll(String text, int width) {
    if (width == UNLIMITED) {
      return text;
    }
    StringBuilder b = new StringBuilder();
    String[] ls = text.split("\n", -1);
    for (int i = 0; i < ls.length; i++) {
      b.append(fold(ls[i], width));
      if (i < ls.length - 1) {
        b.append('\n');
      }
    }
    return b.toString();
  }
}
