package io.gpufleet.cli;

import io.gpufleet.model.text.Printable;
import java.io.FilterWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * Standard output or error of a command, in UTF-8, where a control character from any input (a label
 * with ESC or BEL, an annotation with a carriage return, a server's reply) arrives escaped as
 * {@code \x1b}, never as the byte a terminal would act on. Line feeds and tabs pass. Only the progress
 * bar's own carriage returns go through as they are, by {@link #printControl}.
 */
final class TerminalWriter extends PrintWriter {

  private final Writer raw;

  private TerminalWriter(Writer raw) {
    super(new Escaping(raw), true);
    this.raw = raw;
  }

  static TerminalWriter over(OutputStream stream) {
    return new TerminalWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8));
  }

  /** Writes {@code s} unescaped, after what was printed before it: for gpufleet's own cursor moves. */
  void printControl(String s) {
    flush();
    try {
      raw.write(s);
      raw.flush();
    } catch (IOException e) {
      setError();
    }
  }

  /** Escapes controls other than line feed and tab on their way to the stream. */
  private static final class Escaping extends FilterWriter {
    Escaping(Writer out) {
      super(out);
    }

    @Override
    public void write(int c) throws IOException {
      if (c != '\n' && c != '\t' && Printable.isControl(c)) {
        StringBuilder b = new StringBuilder();
        Printable.escape(b, c);
        out.write(b.toString());
      } else {
        out.write(c);
      }
    }

    @Override
    public void write(char[] cbuf, int off, int len) throws IOException {
      for (int i = off; i < off + len; i++) {
        write(cbuf[i]);
      }
    }

    @Override
    public void write(String str, int off, int len) throws IOException {
      for (int i = off; i < off + len; i++) {
        write(str.charAt(i));
      }
    }
  }
}
