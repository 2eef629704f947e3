package io.gpufleet.report.chart;

import static io.gpufleet.report.chart.SvgLineChart.escape;
import static io.gpufleet.report.chart.SvgLineChart.fixed;
import static io.gpufleet.report.chart.SvgLineChart.num;

import java.util.ArrayList;
import java.util.List;

/**
 * Draws a {@link GanttChart} as self-contained SVG: one row per lane, bars clipped to the time
 * axis, a colour per bar group (the chart's own where it names one, as the lifecycle lanes do; else in
 * order of first appearance, from the line chart's palette), the
 * bar's label inside it when it fits and in a tooltip always. Deterministic like {@link SvgLineChart}.
 */
public final class SvgGanttChart {
  private SvgGanttChart() {}

  private static final int MIN_LEFT = 120;
  private static final int RIGHT = 20;
  private static final int TOP = 40;
  private static final int BOTTOM = 48;
  private static final int ROW = 26;

  public static String render(GanttChart c) {
    // The label column is as wide as the longest lane label needs (about 7 px a character at 12 px).
    int longest = c.lanes().stream().mapToInt(l -> l.label().length()).max().orElse(0);
    int left = Math.min(c.width() / 2, Math.max(MIN_LEFT, 7 * longest + 16));
    int w = c.width();
    int h = TOP + BOTTOM + ROW * Math.max(1, c.lanes().size());
    double plotW = w - left - RIGHT;
    Axis t = c.time();
    List<String> groups = new ArrayList<>();
    for (GanttChart.Lane lane : c.lanes()) {
      for (GanttChart.Bar bar : lane.bars()) {
        if (!groups.contains(bar.group())) {
          groups.add(bar.group());
        }
      }
    }
    StringBuilder o = new StringBuilder(4096);
    o.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(w).append("\" height=\"").append(h)
        .append("\" viewBox=\"0 0 ").append(w).append(' ').append(h)
        .append("\" font-family=\"sans-serif\" font-size=\"12\" role=\"img\">\n");
    o.append("<title>").append(escape(c.title())).append("</title>\n");
    o.append("<rect x=\"0\" y=\"0\" width=\"").append(w).append("\" height=\"").append(h)
        .append("\" fill=\"#ffffff\"/>\n");
    o.append("<text x=\"").append(num(left + plotW / 2)).append("\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">")
        .append(escape(c.title())).append("</text>\n");
    double plotBottom = TOP + ROW * Math.max(1, c.lanes().size());
    o.append("<g stroke=\"#e0e0e0\">\n");
    for (double tick : t.ticks()) {
      double px = x(tick, t, plotW, left);
      o.append("<line x1=\"").append(num(px)).append("\" y1=\"").append(TOP).append("\" x2=\"").append(num(px))
          .append("\" y2=\"").append(num(plotBottom)).append("\"/>\n");
    }
    o.append("</g>\n<g fill=\"#333333\">\n");
    for (double tick : t.ticks()) {
      o.append("<text x=\"").append(num(x(tick, t, plotW, left))).append("\" y=\"").append(num(plotBottom + 16))
          .append("\" text-anchor=\"middle\">").append(fixed(tick, t.decimals())).append("</text>\n");
    }
    o.append("<text x=\"").append(num(left + plotW / 2)).append("\" y=\"").append(h - 10)
        .append("\" text-anchor=\"middle\">").append(escape(t.label())).append("</text>\n");
    for (int i = 0; i < c.lanes().size(); i++) {
      o.append("<text x=\"").append(left - 8).append("\" y=\"").append(num(TOP + ROW * i + ROW / 2.0 + 4))
          .append("\" text-anchor=\"end\">").append(escape(c.lanes().get(i).label())).append("</text>\n");
    }
    o.append("</g>\n");
    for (int i = 0; i < c.lanes().size(); i++) {
      double y = TOP + ROW * i + 3;
      for (GanttChart.Bar bar : c.lanes().get(i).bars()) {
        double from = Math.max(t.min(), Math.min(t.max(), bar.start()));
        double to = Math.max(t.min(), Math.min(t.max(), bar.end()));
        double x0 = x(from, t, plotW, left);
        double bw = Math.max(1, x(to, t, plotW, left) - x0);
        String colour = c.colours().getOrDefault(bar.group(),
            SvgLineChart.PALETTE.get(groups.indexOf(bar.group()) % SvgLineChart.PALETTE.size()));
        o.append("<g><title>").append(escape(bar.label())).append(" (").append(time(c, bar.start())).append(" to ")
            .append(time(c, bar.end())).append(")</title>");
        o.append("<rect x=\"").append(num(x0)).append("\" y=\"").append(num(y)).append("\" width=\"").append(num(bw))
            .append("\" height=\"").append(ROW - 6).append("\" fill=\"").append(colour)
            .append("\" fill-opacity=\"0.85\" stroke=\"#ffffff\"/>");
        if (bw > 7.0 * bar.label().length()) {
          o.append("<text x=\"").append(num(x0 + 4)).append("\" y=\"").append(num(y + ROW / 2.0 + 1))
              .append("\" fill=\"#ffffff\">").append(escape(bar.label())).append("</text>");
        }
        o.append("</g>\n");
      }
    }
    o.append("<rect x=\"").append(left).append("\" y=\"").append(TOP).append("\" width=\"").append(num(plotW))
        .append("\" height=\"").append(num(plotBottom - TOP)).append("\" fill=\"none\" stroke=\"#333333\"/>\n");
    o.append("</svg>\n");
    return o.toString();
  }

  private static double x(double v, Axis t, double plotW, int left) {
    return left + (v - t.min()) / (t.max() - t.min()) * plotW;
  }

  private static String time(GanttChart c, double v) {
    return c.timeText() == null ? fixed(v, 1) : escape(c.timeText().apply(v));
  }
}
