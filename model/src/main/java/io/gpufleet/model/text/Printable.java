package io.gpufleet.model.text;

import java.util.Locale;

/**
 * Text quoted for echoing back: control characters (ESC, BEL, NUL, C1 and the like) and line breaks
 * are written as escapes, so no input can move the cursor, ring the bell or forge a line of its own;
 * long text is cut. Escapes follow Go's {@code %q} ({@code \n}, {@code \t}, {@code \x1b},
 * {@code \u0085}), the form kubectl and Kubernetes' own messages use.
 */
public final class Printable {
  private Printable() {}

  /** {@code s} escaped and cut to at most {@code max} characters of the original, with "..." when cut. */
  public static String cut(String s, int max) {
    if (s == null) {
      return "";
    }
    StringBuilder b = new StringBuilder();
    int n = 0;
    for (int i = 0; i < s.length() && n < max; i += Character.charCount(s.codePointAt(i)), n++) {
      escape(b, s.codePointAt(i));
    }
    return n < s.codePointCount(0, s.length()) ? b + "..." : b.toString();
  }

  /**
   * Whether {@code c} must not reach a terminal as it is: C0 and C1 controls and DEL (cursor moves,
   * bells, colour, title and clipboard sequences start with them) and the bidirectional overrides
   * that can reorder what is shown. Line feed and tab are controls too, but callers that print lines
   * let them through.
   */
  public static boolean isControl(int c) {
    return c < 0x20 || c >= 0x7f && c <= 0x9f || c == 0x202e || c == 0x202d || c >= 0x2066 && c <= 0x2069
        || c == 0x200e || c == 0x200f;
  }

  /** Appends {@code c}, escaped when it is a control. */
  public static void escape(StringBuilder b, int c) {
    switch (c) {
      case '\n' -> b.append("\\n");
      case '\r' -> b.append("\\r");
      case '\t' -> b.append("\\t");
      case '\\' -> b.append("\\\\");
      default -> {
        if (c < 0x20 || c == 0x7f) {
          b.append(String.format(Locale.ROOT, "\\x%02x", c));
        } else if (isControl(c)) {
          b.append(String.format(Locale.ROOT, "\\u%04x", c));
        } else {
          b.appendCodePoint(c);
        }
      }
    }
  }
}
