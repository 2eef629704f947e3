package io.gpufleet.report.table;

import io.gpufleet.report.chart.SvgLineChart;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
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

  /** The first rows of a table of {@code total} rows: what a bounded view makes of a long one. */
  public record Head(Table table, int total) {}

  public boolean isEmpty() {
    return rows.isEmpty();
  }

  /** The table as lines ending in {@code \n}. */
  public String render() {
    return render(Wrap.UNLIMITED);
  }

  /** The table in at most {@code maxWidth} columns where it can be: see {@link #write(List, Iterable, Appendable, int)}. */
  public String render(int maxWidth) {
    StringBuilder b = new StringBuilder();
    write(headers, rows, b, maxWidth);
    return b.toString();
  }

  /**
   * The same table as HTML: a header row as {@link #render()} writes it, then at most {@code rowBound}
   * rows; a longer table ends in a caption row saying how many rows are left out and where they are
   * ({@code whereTheRestIs}). Every cell is escaped.
   */
  public String html(String cssClass, int rowBound, String whereTheRestIs) {
    return html(cssClass, rowBound, whereTheRestIs, rows.size());
  }

  /**
   * As {@link #html(String, int, String)} for a table of {@code total} rows of which this one holds
   * the first (at least {@code min(rowBound, total)}): a caller that shows a few rows of a long table
   * makes only those.
   */
  public String html(String cssClass, int rowBound, String whereTheRestIs, int total) {
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
    if (total > rowBound) {
      b.append(String.format(Locale.ROOT, "<tfoot><tr><td colspan=\"%d\">... %,d more rows not shown; %s"
          + "</td></tr></tfoot>\n", headers.size(), total - rowBound,
          SvgLineChart.escape(whereTheRestIs)));
    }
    return b.append("</table>\n").toString();
  }

  /**
   * Writes a table as {@link #render()} does without holding it: {@code rows} is iterated twice,
   * once for the column widths and once to write, so a table of any length costs one row at a time.
   */
  public static void write(List<String> headers, Iterable<List<String>> rows, Appendable out) {
    write(headers, rows, out, Wrap.UNLIMITED);
  }

  /**
   * As {@link #write(List, Iterable, Appendable)}, in at most {@code maxWidth} columns: while the
   * table is wider, a column gives up a column (the one that costs the fewest added lines; none below
   * its header's longest word or {@value #MIN_COLUMN}), and a cell longer than its column goes on over more lines of the same
   * row, cut by {@link Wrap#lines}, the other cells blank. Nothing is cut off; a table whose columns
   * cannot all shrink that far stays wider.
   */
  public static void write(List<String> headers, Iterable<List<String>> rows, Appendable out, int maxWidth) {
    write(headers, rows, out, maxWidth, Integer.MAX_VALUE);
  }

  /**
   * As {@link #write(List, Iterable, Appendable, int)}, writing only the header and the first
   * {@code rowLimit} rows; the columns are as wide as every row makes them, so those lines are the
   * same as in the whole table. A caller that shows the head of a long table formats only that.
   */
  public static void write(List<String> headers, Iterable<List<String>> rows, Appendable out, int maxWidth,
      int rowLimit) {
    int[] width = new int[headers.size()];
    // The first SAMPLE rows price a narrower column in lines; a long table is not held whole.
    List<List<String>> sample = new ArrayList<>();
    sample.add(headers.stream().map(h -> h.toUpperCase(Locale.ROOT)).toList());
    int[] word = new int[headers.size()];
    boolean[] prose = new boolean[headers.size()];
    for (int i = 0; i < width.length; i++) {
      width[i] = headers.get(i).length();
    }
    for (List<String> r : rows) {
      if (r.size() != width.length) {
        throw new IllegalArgumentException("expected " + width.length + " cells, found " + r.size());
      }
      if (sample.size() <= SAMPLE) {
        sample.add(r);
      }
      for (int i = 0; i < width.length; i++) {
        width[i] = Math.max(width[i], r.get(i).length());
      }
    }
    // Longest words and prose matter only to a table that must narrow: a pass of their own, then.
    if (3 * (width.length - 1) + Arrays.stream(width).sum() > maxWidth) {
      for (List<String> r : rows) {
        for (int i = 0; i < width.length; i++) {
          word[i] = Math.max(word[i], longestWord(r.get(i)));
          prose[i] |= r.get(i).indexOf(' ') >= 0;
        }
      }
    }
    fit(headers, sample, word, prose, width, maxWidth);
    try {
      line(out, headers.stream().map(h -> h.toUpperCase(Locale.ROOT)).toList(), width);
      int written = 0;
      for (List<String> r : rows) {
        if (written++ >= rowLimit) {
          break;
        }
        line(out, r, width);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A column narrower than this (or than its header's longest word) would be read a letter at a time. */
  static final int MIN_COLUMN = 8;

  /** A column of prose (a cell with a space) narrows to this many columns before any name is cut. */
  static final int PROSE = 30;

  /** What cutting a cell that was whole costs, against one line added: more than any sample adds. */
  private static final long WHOLE_CELL = 1L << 32;

  /** Rows that price a narrower column: a table's first rows stand for the rest. */
  static final int SAMPLE = 500;

  /** The longest piece of {@code cell} that {@link Wrap#lines} would cut only inside a word. */
  private static int longestWord(String cell) {
    int longest = 0;
    for (String piece : Wrap.lines(cell, 1 << 20).getFirst().split(" ")) {
      int run = 0;
      for (int k = 0; k < piece.length(); k++) {
        run++;
        if (Wrap.breaksAfter(piece.charAt(k))) {
          longest = Math.max(longest, run);
          run = 0;
        }
      }
      longest = Math.max(longest, run);
    }
    return longest;
  }

  /**
   * Narrows {@code width} in place until the row fits {@code maxWidth} or none can give, one column at
   * a time from the column where it cuts the fewest cells that were whole, then adds the fewest lines
   * to the sampled rows (ties: the widest).
   * First no column of names goes below half its width or inside a word (prose, below {@value #PROSE}),
   * so a name or a path is cut at most once, between its parts, while another column has room; then none inside a word; then down to
   * the floor.
   */
  private static void fit(List<String> headers, List<List<String>> sample, int[] word, boolean[] prose, int[] width,
      int maxWidth) {
    int total = 3 * (width.length - 1);
    int[] floor = new int[width.length];
    int[] soft = new int[width.length];
    for (int i = 0; i < width.length; i++) {
      total += width[i];
      for (String w : headers.get(i).split(" ")) {
        floor[i] = Math.max(floor[i], w.length());
      }
      floor[i] = Math.min(width[i], Math.max(floor[i], MIN_COLUMN));
      // Prose wraps between words at any width worth reading; a name or a path keeps half its width.
      soft[i] = Math.min(width[i], Math.max(floor[i], prose[i] ? Math.max(word[i], PROSE)
          : Math.max(word[i], (width[i] + 1) / 2)));
    }
    if (total <= maxWidth) {
      return;
    }
    int[][] lines = new int[sample.size()][width.length];
    for (int r = 0; r < sample.size(); r++) {
      for (int i = 0; i < width.length; i++) {
        lines[r][i] = Wrap.lines(sample.get(r).get(i), width[i]).size();
      }
    }
    total = narrow(sample, lines, prose, width, soft, total, maxWidth);
    int[] whole = new int[width.length];
    for (int i = 0; i < width.length; i++) {
      whole[i] = Math.min(width[i], Math.max(floor[i], word[i]));
    }
    total = narrow(sample, lines, prose, width, whole, total, maxWidth);
    narrow(sample, lines, prose, width, floor, total, maxWidth);
  }

  /** Takes columns from the cheapest column above its floor until {@code total} fits; returns the new total. */
  private static int narrow(List<List<String>> sample, int[][] lines, boolean[] prose, int[] width, int[] floor,
      int total, int maxWidth) {
    while (total > maxWidth) {
      int best = -1;
      long bestCost = Long.MAX_VALUE;
      int[] bestLines = null;
      for (int i = 0; i < width.length; i++) {
        if (width[i] <= floor[i]) {
          continue;
        }
        long cost = 0;
        int[] next = new int[sample.size()];
        for (int r = 0; r < sample.size(); r++) {
          int before = 0;
          int after = 0;
          next[r] = Wrap.lines(sample.get(r).get(i), width[i] - 1).size();
          for (int k = 0; k < width.length; k++) {
            before = Math.max(before, lines[r][k]);
            after = Math.max(after, k == i ? next[r] : lines[r][k]);
          }
          // Cutting a cell that was whole outweighs any number of lines added to cells already cut.
          // So does a name's third line: a name or path reads in two parts, not in pieces.
          cost += (after - before) + (next[r] > 1 && lines[r][i] == 1 ? WHOLE_CELL : 0)
              + (!prose[i] && next[r] > 2 && lines[r][i] == 2 ? WHOLE_CELL : 0);
        }
        if (cost < bestCost || (cost == bestCost && width[i] > width[best])) {
          best = i;
          bestCost = cost;
          bestLines = next;
        }
      }
      if (best < 0) {
        return total;
      }
      width[best]--;
      for (int r = 0; r < sample.size(); r++) {
        lines[r][best] = bestLines[r];
      }
      total--;
    }
    return total;
  }

  private static void line(Appendable b, List<String> cells, int[] width) throws IOException {
    boolean fits = true;
    for (int i = 0; i < cells.size(); i++) {
      fits &= cells.get(i).length() <= width[i];
    }
    if (fits) {
      oneLine(b, cells, width);
      return;
    }
    List<List<String>> pieces = new ArrayList<>();
    int height = 0;
    for (int i = 0; i < cells.size(); i++) {
      List<String> p = Wrap.lines(cells.get(i), width[i]);
      pieces.add(p);
      height = Math.max(height, p.size());
    }
    for (int k = 0; k < height; k++) {
      List<String> l = new ArrayList<>(cells.size());
      for (List<String> p : pieces) {
        l.add(k < p.size() ? p.get(k) : "");
      }
      oneLine(b, l, width);
    }
  }

  private static void oneLine(Appendable b, List<String> cells, int[] width) throws IOException {
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
