package io.gpufleet.manifest.openb;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The plain comma-separated rows of the openb files: a header line, then one record per line, no
 * quoting (the trace has none, so a quote is reported rather than guessed at). Each row knows its
 * file and line so that every field error can name both.
 */
final class CsvRows {

  private CsvRows() {}

  /** A data row: its fields, positioned by the header, with the file and line for error messages. */
  record Row(String file, int line, List<String> header, String[] fields) {

    String text(int column) {
      return fields[column];
    }

    long integer(int column, long min, long max) {
      String v = fields[column];
      String expected = max == Long.MAX_VALUE ? "an integer >= " + min : "an integer " + min + ".." + max;
      long n;
      try {
        n = Long.parseLong(v.trim());
      } catch (NumberFormatException e) {
        throw error(column, expected, v);
      }
      if (n < min || n > max) {
        throw error(column, expected, v);
      }
      return n;
    }

    OpenbFormatException error(int column, String expected, String found) {
      return new OpenbFormatException(file, line, header.get(column), expected, quote(found));
    }
  }

  static String quote(String s) {
    return s.isEmpty() ? "an empty value" : "\"" + s + "\"";
  }

  /**
   * Reads the header, checks it is one of {@code headers} (returned by its index), then hands each
   * data row to {@code sink}. Blank lines are skipped; a trailing newline is fine.
   */
  static int read(String file, Reader in, List<List<String>> headers, Consumer<Row> sink) throws IOException {
    BufferedReader r = in instanceof BufferedReader b ? b : new BufferedReader(in);
    String first = r.readLine();
    if (first == null) {
      throw new OpenbFormatException(file, 1, "header", "one of " + describe(headers), "an empty file");
    }
    if (first.startsWith("\uFEFF")) {
      first = first.substring(1);
    }
    List<String> header = List.of(first.trim().split(",", -1));
    int variant = headers.indexOf(header);
    if (variant < 0) {
      throw new OpenbFormatException(file, 1, "header", describe(headers), quote(first.trim()));
    }
    int lineNo = 1;
    String line;
    while ((line = r.readLine()) != null) {
      lineNo++;
      if (line.isBlank()) {
        continue;
      }
      if (line.endsWith("\r")) {
        line = line.substring(0, line.length() - 1);
      }
      if (line.indexOf('"') >= 0) {
        throw new OpenbFormatException(file, lineNo, "row", "plain comma-separated fields without quotes", quote(line));
      }
      String[] fields = line.split(",", -1);
      if (fields.length != header.size()) {
        throw new OpenbFormatException(file, lineNo, "row", header.size() + " fields (" + String.join(",", header) + ")",
            fields.length + " fields");
      }
      sink.accept(new Row(file, lineNo, header, fields));
    }
    return variant;
  }

  private static String describe(List<List<String>> headers) {
    List<String> quoted = new ArrayList<>();
    for (List<String> h : headers) {
      quoted.add("\"" + String.join(",", h) + "\"");
    }
    return String.join(" or ", quoted);
  }
}
