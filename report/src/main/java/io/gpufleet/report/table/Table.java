package io.gpufleet.report.table;

import io.gpufleet.report.chart.SvgLineChart;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A kubectl-style text table: an upper-case header row, left-aligned columns separated by three
 * spaces, no trailing spaces. Immutable; {@link #row} returns a new table.
 */
public record Table(List<String> headers, List<List<String>> rows) {

  public Table {
    headers = List.copyOf(headers);
    rows = List.copyOf(rows);
  }

  public static Table of(String... headers) {
    return new Table(List.of(headers), List.of());
  }

  /** A new table with one more row; for many rows, build them with {@link #cells} and make the table once. */
  public Table row(Object... cells) {
    if (cells.length != headers.size()) {
      throw new IllegalArgumentException("expected " + headers.size() + " cells, found " + cells.length);
    }
    List<List<String>> next = new ArrayList<>(rows);
    next.add(cells(cells));
    return new Table(headers, next);
  }

  /** A row's cells as text; a missing value shows as {@code <none>}, as kubectl prints it. */
  public static List<String> cells(Object... values) {
    List<String> r = new ArrayList<>(values.length);
    for (Object c : values) {
      r.add(c == null ? "<none>" : c.toString());
    }
    return List.copyOf(r);
  }

  public boolean isEmpty() {
    return rows.isEmpty();
  }

  /** The table as lines ending in {@code \n}. */
  public String render() {
    StringBuilder b = new StringBuilder();
    write(headers, rows, b);
    return b.toString();
  }

  /**
   * The same table as HTML: a header row as {@link #render()} writes it, then at most {@code rowBound}
   * rows; a longer table ends in a caption row saying how many rows are left out and where they are
   * ({@code whereTheRestIs}). Every cell is escaped.
   */
  public String html(String cssClass, int rowBound, String whereTheRestIs) {
    StringBuilder b = new StringBuilder();
    b.append("<table class=\"").append(io.gpufleet.report.chart.SvgLineChart.escape(cssClass)).append("\">\n<thead><tr>");
    for (String h : headers) {
      b.append("<th>").append(SvgLineChart.escape(h.toUpperCase(Locale.ROOT)))
          .append("</th>");
    }
    b.append("</tr></thead>\n<tbody>\n");
    for (List<String> r : rows.subList(0, Math.min(rowBound, rows.size()))) {
      b.append("<tr>");
      for (String c : r) {
        b.append("<td>").append(SvgLineChart.escape(c)).append("</td>");
      }
      b.append("</tr>\n");
    }
    b.append("</tbody>\n");
    if (rows.size() > rowBound) {
      b.append(String.format(Locale.ROOT, "<tfoot><tr><td colspan=\"%d\">... %,d more rows not shown; %s"
          + "</td></tr></tfoot>\n", headers.size(), rows.size() - rowBound,
          SvgLineChart.escape(whereTheRestIs)));
    }
    return b.append("</table>\n").toString();
  }

  /**
   * Writes a table as {@link #render()} does without holding it: {@code rows} is iterated twice,
   * once for the column widths and once to write, so a table of any length costs one row at a time.
   */
  public static void write(List<String> headers, Iterable<List<String>> rows, Appendable out) {
    int[] width = new int[headers.size()];
    for (int i = 0; i < width.length; i++) {
      width[i] = headers.get(i).length();
    }
    for (List<String> r : rows) {
      if (r.size() != width.length) {
        throw new IllegalArgumentException("expected " + width.length + " cells, found " + r.size());
      }
      for (int i = 0; i < width.length; i++) {
        width[i] = Math.max(width[i], r.get(i).length());
      }
    }
    try {
      line(out, headers.stream().map(h -> h.toUpperCase(Locale.ROOT)).toList(), width);
      for (List<String> r : rows) {
        line(out, r, width);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void line(Appendable b, List<String> cells, int[] width) throws IOException {
    StringBuilder l = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      l.append(cells.get(i));
      if (i < cells.size() - 1) {
        l.append(" ".repeat(width[i] - cells.get(i).length() + 3));
      }
    }
    b.append(l.toString().stripTrailing()).append('\n');
  }

  @Override
  public String toString() {
    return render();
  }
}
