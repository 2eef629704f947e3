package io.gpufleet.report.chart;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * Draws a {@link LineChart} as a self-contained SVG: frame, grid, ticks and tick labels, axis labels,
 * title, one polyline per series (broken where y is NaN, clipped to the plot area) and a legend.
 * Series that share values stay apart: each has its own dash pattern and width, the first solid and
 * widest at the bottom, later ones narrower on top. With a {@link LineChart.Hover}, transparent
 * bands over the plot carry a native tooltip each: x, then one row per series with its value there.
 * Deterministic: coordinates are printed with two decimals in {@link Locale#ROOT}, colours come from a
 * fixed palette in series order, nothing depends on the time or the platform, so the same chart
 * gives the same bytes.
 */
public final class SvgLineChart {

  /** Okabe–Ito colours (distinguishable with the common colour-vision deficiencies), then greys. */
  public static final List<String> PALETTE = List.of("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00",
      "#56B4E9", "#000000", "#F0E442", "#999999", "#666666");

  /** Dash patterns ({@code stroke-dasharray}, empty: solid) and widths, in series order. */
  static final List<String> DASHES = List.of("", "8 4", "2 3", "10 3 2 3", "4 4");
  static final List<Double> WIDTHS = List.of(3.5, 2.6, 2.2, 1.8, 1.5);

  private static final int LEFT = 64;
  private static final int RIGHT = 170;
  private static final int TOP = 40;
  private static final int BOTTOM = 52;

  private SvgLineChart() {}

  public static String render(LineChart chart) {
    StringBuilder out = new StringBuilder(8192);
    render(chart, out);
    return out.toString();
  }

  public static void render(LineChart chart, Appendable out) {
    try {
      write(chart, out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void write(LineChart c, Appendable o) throws IOException {
    int w = c.width();
    int h = c.height();
    double plotW = w - LEFT - RIGHT;
    double plotH = h - TOP - BOTTOM;
    Axis x = c.x();
    Axis y = c.y();
    o.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(Integer.toString(w))
        .append("\" height=\"").append(Integer.toString(h)).append("\" viewBox=\"0 0 ").append(Integer.toString(w))
        .append(' ').append(Integer.toString(h)).append("\" font-family=\"sans-serif\" font-size=\"12\" role=\"img\">\n");
    o.append("<title>").append(escape(c.title())).append("</title>\n");
    o.append("<rect x=\"0\" y=\"0\" width=\"").append(Integer.toString(w)).append("\" height=\"")
        .append(Integer.toString(h)).append("\" fill=\"#ffffff\"/>\n");
    o.append("<text x=\"").append(num(LEFT + plotW / 2)).append("\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">")
        .append(escape(c.title())).append("</text>\n");

    o.append("<g stroke=\"#e0e0e0\" stroke-width=\"1\">\n");
    for (double t : x.ticks()) {
      double px = LEFT + (t - x.min()) / (x.max() - x.min()) * plotW;
      o.append("<line x1=\"").append(num(px)).append("\" y1=\"").append(num(TOP)).append("\" x2=\"").append(num(px))
          .append("\" y2=\"").append(num(TOP + plotH)).append("\"/>\n");
    }
    for (double t : y.ticks()) {
      double py = TOP + plotH - (t - y.min()) / (y.max() - y.min()) * plotH;
      o.append("<line x1=\"").append(num(LEFT)).append("\" y1=\"").append(num(py)).append("\" x2=\"")
          .append(num(LEFT + plotW)).append("\" y2=\"").append(num(py)).append("\"/>\n");
    }
    o.append("</g>\n");

    o.append("<g fill=\"#333333\">\n");
    for (double t : x.ticks()) {
      double px = LEFT + (t - x.min()) / (x.max() - x.min()) * plotW;
      o.append("<text x=\"").append(num(px)).append("\" y=\"").append(num(TOP + plotH + 16))
          .append("\" text-anchor=\"middle\">").append(fixed(t, x.decimals())).append("</text>\n");
    }
    for (double t : y.ticks()) {
      double py = TOP + plotH - (t - y.min()) / (y.max() - y.min()) * plotH;
      o.append("<text x=\"").append(num(LEFT - 6)).append("\" y=\"").append(num(py + 4))
          .append("\" text-anchor=\"end\">").append(fixed(t, y.decimals())).append("</text>\n");
    }
    o.append("<text x=\"").append(num(LEFT + plotW / 2)).append("\" y=\"").append(num(h - 12))
        .append("\" text-anchor=\"middle\">").append(escape(x.label())).append("</text>\n");
    o.append("<text x=\"16\" y=\"").append(num(TOP + plotH / 2)).append("\" text-anchor=\"middle\" transform=\"rotate(-90 16 ")
        .append(num(TOP + plotH / 2)).append(")\">").append(escape(y.label())).append("</text>\n");
    o.append("</g>\n");

    o.append("<rect x=\"").append(num(LEFT)).append("\" y=\"").append(num(TOP)).append("\" width=\"").append(num(plotW))
        .append("\" height=\"").append(num(plotH)).append("\" fill=\"none\" stroke=\"#333333\"/>\n");

    String clip = clipId(c);
    o.append("<defs><clipPath id=\"").append(clip).append("\"><rect x=\"").append(num(LEFT)).append("\" y=\"")
        .append(num(TOP)).append("\" width=\"").append(num(plotW)).append("\" height=\"").append(num(plotH))
        .append("\"/></clipPath></defs>\n");
    o.append("<g fill=\"none\" stroke-linejoin=\"round\" clip-path=\"url(#").append(clip).append(")\">\n");
    List<Series> series = c.series();
    for (int s = 0; s < series.size(); s++) {
      String colour = PALETTE.get(s % PALETTE.size());
      StringBuilder points = new StringBuilder();
      for (Point p : series.get(s).points()) {
        if (Double.isNaN(p.y())) {
          polyline(o, points, colour, s);
          points.setLength(0);
          continue;
        }
        double px = LEFT + (p.x() - x.min()) / (x.max() - x.min()) * plotW;
        double py = TOP + plotH - (p.y() - y.min()) / (y.max() - y.min()) * plotH;
        if (!points.isEmpty()) {
          points.append(' ');
        }
        points.append(num(px)).append(',').append(num(py));
      }
      polyline(o, points, colour, s);
    }
    o.append("</g>\n");
    if (c.hover() != null) {
      hover(o, c, plotW, plotH);
    }

    o.append("<g>\n");
    double lx = LEFT + plotW + 14;
    for (int s = 0; s < series.size(); s++) {
      double ly = TOP + 10 + 18 * s;
      String colour = PALETTE.get(s % PALETTE.size());
      o.append("<line x1=\"").append(num(lx)).append("\" y1=\"").append(num(ly)).append("\" x2=\"").append(num(lx + 22))
          .append("\" y2=\"").append(num(ly)).append("\" stroke=\"").append(colour).append('"').append(style(s))
          .append("/>\n");
      o.append("<text x=\"").append(num(lx + 28)).append("\" y=\"").append(num(ly + 4)).append("\">")
          .append(escape(series.get(s).name())).append("</text>\n");
    }
    o.append("</g>\n</svg>\n");
  }

  /**
   * The id of the chart's clip path: inline SVGs on one HTML page share one id space, so it is
   * derived (FNV-1a) from what makes the plot area differ, never from identity or time.
   */
  static String clipId(LineChart c) {
    String key = c.title() + '|' + c.width() + 'x' + c.height();
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < key.length(); i++) {
      h ^= key.charAt(i);
      h *= 0x100000001b3L;
    }
    return "clip-" + Long.toHexString(h);
  }

  private static void polyline(Appendable o, CharSequence points, String colour, int series) throws IOException {
    if (points.isEmpty()) {
      return;
    }
    o.append("<polyline stroke=\"").append(colour).append('"').append(style(series)).append(" points=\"")
        .append(points).append("\"/>\n");
  }

  /** The stroke width and dash pattern of the series at this index, as attributes. */
  static String style(int series) {
    String dash = DASHES.get(series % DASHES.size());
    return " stroke-width=\"" + WIDTHS.get(series % WIDTHS.size()) + "\""
        + (dash.isEmpty() ? "" : " stroke-dasharray=\"" + dash + "\"");
  }

  /**
   * One transparent band from each x where a series has a point to the next (bands under a pixel
   * wide join the one before), titled with x and each series' value there: the last point at or
   * before it, so a step reads as the value after the change.
   */
  private static void hover(Appendable o, LineChart c, double plotW, double plotH) throws IOException {
    Axis x = c.x();
    TreeSet<Double> xs = new TreeSet<>();
    for (Series s : c.series()) {
      for (Point p : s.points()) {
        if (p.x() >= x.min() && p.x() <= x.max()) {
          xs.add(p.x());
        }
      }
    }
    List<Double> starts = new ArrayList<>();
    double lastPx = Double.NEGATIVE_INFINITY;
    for (double v : xs) {
      double px = (v - x.min()) / (x.max() - x.min()) * plotW;
      if (px - lastPx >= 1) {
        starts.add(v);
        lastPx = px;
      }
    }
    List<Series> series = c.series();
    int[] next = new int[series.size()];
    double[] at = new double[series.size()];
    Arrays.fill(at, Double.NaN);
    o.append("<g class=\"hover\" fill=\"#000000\" fill-opacity=\"0\">\n");
    for (int i = 0; i < starts.size(); i++) {
      double from = starts.get(i);
      double to = i + 1 < starts.size() ? starts.get(i + 1) : x.max();
      double px = LEFT + (from - x.min()) / (x.max() - x.min()) * plotW;
      double pw = Math.max(1, (to - from) / (x.max() - x.min()) * plotW);
      StringBuilder text = new StringBuilder(c.hover().x().apply(from));
      for (int s = 0; s < series.size(); s++) {
        List<Point> points = series.get(s).points();
        while (next[s] < points.size() && points.get(next[s]).x() <= from) {
          at[s] = points.get(next[s]++).y();
        }
        if (!Double.isNaN(at[s])) {
          text.append('\n').append(series.get(s).name()).append(": ").append(c.hover().y().apply(at[s]));
        }
      }
      o.append("<rect x=\"").append(num(px)).append("\" y=\"").append(num(TOP)).append("\" width=\"").append(num(pw))
          .append("\" height=\"").append(num(plotH)).append("\"><title>").append(escape(text.toString()))
          .append("</title></rect>\n");
    }
    o.append("</g>\n");
  }

  /** A coordinate: two decimals, root locale. */
  static String num(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }

  static String fixed(double v, int decimals) {
    String s = String.format(Locale.ROOT, "%." + decimals + "f", v);
    return s.equals("-0") || s.matches("-0\\.0+") ? s.substring(1) : s;
  }

  /** Escapes text for XML content and attribute values. */
  public static String escape(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      switch (ch) {
        case '&' -> b.append("&amp;");
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> b.append(ch);
      }
    }
    return b.toString();
  }
}
