package io.gpufleet.report.sim;

import io.gpufleet.model.time.KubeDuration;
import io.gpufleet.report.chart.SvgLineChart;
import io.gpufleet.report.smi.SmiView;
import io.gpufleet.report.table.Table;
import io.gpufleet.report.table.Wrap;
import io.gpufleet.sim.Checkpoint;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.scenario.ExpectationOutcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A step of a scenario for a terminal or the HTML report: heading, what it does, what happened
 * (events with their offsets), any node launches with type, price and time to initialisation, and
 * then what the cluster shows: nodes, pods, and the per-card process view. One order of parts, two
 * ways of writing them.
 */
public final class StepText {
  private StepText() {}

  static final int WIDTH = 100;

  /** Every row of every table: what a terminal shows. */
  public static String render(StepView step, SimulationResult run, boolean explain) {
    return render(step, run, explain, Integer.MAX_VALUE);
  }

  /**
   * With at most {@code rowBound} rows of each table (events, launches, nodes, pods, and lines of
   * the card view); a longer one ends with a line saying how many rows are left out. A report keeps
   * its size this way on a fleet of thousands of nodes; the run record is whole in events.jsonl.
   */
  public static String render(StepView step, SimulationResult run, boolean explain, int rowBound) {
    return render(step, run, explain, rowBound, Wrap.UNLIMITED);
  }

  /**
   * As {@link #render(StepView, SimulationResult, boolean, int)}, each line in at most {@code width}
   * columns: tables wrap their widest cells onto more lines, other lines fold under their text
   * ({@link Wrap}); nothing is cut off.
   */
  public static String render(StepView step, SimulationResult run, boolean explain, int rowBound, int width) {
    Text out = new Text(width);
    write(step, run, explain, rowBound, out);
    return out.b.toString();
  }

  /** The step as the HTML report shows it: the same parts as {@link #render}, its tables as HTML tables. */
  public static String html(StepView step, SimulationResult run, boolean explain, int rowBound) {
    Html out = new Html();
    write(step, run, explain, rowBound, out);
    return out.b.toString();
  }

  /** What a step is made of; {@link #write} says what and in which order, each sink how it looks. */
  private interface Sink {
    void heading(String heading, String span);

    void paragraph(String text);

    /** A titled part: "What happened", "The cluster after ...", "Why". */
    void section(String title);

    /** A command whose output follows, as a terminal shows it. */
    void command(String command);

    /** The first rows of a table ({@code t.table()} holds at least {@code rowBound} of them, or all). */
    void table(Table.Head t, int rowBound);

    void items(List<String> lines, int rowBound, String what);

    /** Text already laid out in columns (the nvidia-smi view). */
    void preformatted(String text);

    void failure(String text);

    void explanation(String text);

    void end();

    /** The columns a line may take; {@link Wrap#UNLIMITED} where lines are not folded (HTML). */
    default int width() {
      return Wrap.UNLIMITED;
    }
  }

  private static void write(StepView step, SimulationResult run, boolean explain, int rowBound, Sink out) {
    Instant start = run.start();
    Instant from = step.from() < run.record().entries().size() && step.from() > 0
        ? run.record().entries().get(step.from()).time() : start;
    out.heading(step.heading(), Durations.offset(start, from) + " to " + Durations.offset(start, step.end().time()));
    if (!step.description().isEmpty()) {
      out.paragraph(step.description());
    }
    int segmentStart = step.from();
    for (int i = 0; i < step.checkpoints().size(); i++) {
      Checkpoint c = step.checkpoints().get(i);
      boolean last = i == step.checkpoints().size() - 1;
      out.section(last && i > 0 ? "Then" : "What happened");
      out.table(ClusterTables.events(run.record(), segmentStart, c.recordEntries(), start, rowBound), rowBound);
      List<String> launches = launches(run.record(), segmentStart, c.recordEntries(), start);
      if (!launches.isEmpty()) {
        out.section("Nodes Karpenter launched (the cheapest instance type its NodePool allows that fits the pending pods)");
        out.items(launches, rowBound, "launches");
      }
      if (!last) {
        out.section("The cluster " + c.label());
      }
      views(out, c, rowBound, out.width());
      segmentStart = c.recordEntries();
    }
    for (ExpectationOutcome o : run.expectations()) {
      if (!o.time().isBefore(from) && !o.time().isAfter(step.end().time()) && !o.passed()) {
        out.failure("EXPECTATION FAILED at " + Durations.offset(start, o.time()) + ": " + o.description() + " (seen: "
            + o.detail() + ")");
      }
    }
    if (explain && !step.explanation().isEmpty()) {
      out.section("Why");
      out.explanation(step.explanation());
    }
    List<String> decisions = explain ? DisruptionDecisions.render(run.record(), step.from(), step.end().recordEntries(),
        start) : List.of();
    if (!decisions.isEmpty()) {
      out.section("Disruption decisions (each node the disruption controller considered; \"left\" says why it stays)");
      out.items(decisions, Integer.MAX_VALUE, "decisions");
    }
    out.end();
  }

  private static void views(Sink out, Checkpoint c, int rowBound, int width) {
    var s = c.state();
    Instant now = c.time();
    out.command("$ kubectl get nodes");
    out.table(ClusterTables.nodes(s, now, rowBound), rowBound);
    out.command("$ kubectl get pods -A -o wide");
    out.table(ClusterTables.pods(s, now, rowBound), rowBound);
    // Only the rows and lines shown are made: 200 of 100,000 pending pods.
    SmiView.Head head = ClusterTables.smi(s, width == Wrap.UNLIMITED ? width : width - 2, rowBound);
    String smi = head.text();
    if (!smi.isBlank()) {
      if (head.linesLeftOut() > 0) {
        smi += more(head.linesLeftOut(), "lines") + "\n";
      }
      out.command("$ nvidia-smi   (each GPU node's cards and the pods holding them)");
      out.preformatted(smi);
    }
  }

  /** A terminal's text: rules, indented tables, wrapped paragraphs. */
  private static final class Text implements Sink {
    final StringBuilder b = new StringBuilder();
    final int width;

    Text(int width) {
      this.width = width;
    }

    @Override
    public int width() {
      return width;
    }

    /** The line folded to the width: a terminal line never runs past it. */
    private String fold(String line) {
      return width == Wrap.UNLIMITED ? line : Wrap.fold(line, width);
    }

    @Override
    public void heading(String heading, String span) {
      String rule = "=".repeat(WIDTH);
      b.append(rule).append('\n').append(heading).append("   (virtual time ").append(span).append(")\n")
          .append(rule).append('\n');
    }

    @Override
    public void paragraph(String text) {
      b.append(wrap(text, "")).append('\n');
    }

    @Override
    public void section(String title) {
      b.append('\n').append(title).append(":\n");
    }

    @Override
    public void command(String command) {
      b.append('\n').append(command).append('\n');
    }

    @Override
    public void table(Table.Head t, int rowBound) {
      b.append(indent(bounded(t, rowBound, width == Wrap.UNLIMITED ? width : width - 2)));
    }

    @Override
    public void items(List<String> lines, int rowBound, String what) {
      lines.stream().limit(rowBound).forEach(l -> b.append(fold("  " + l)).append('\n'));
      if (lines.size() > rowBound) {
        b.append("  ").append(more(lines.size() - rowBound, what)).append('\n');
      }
    }

    @Override
    public void preformatted(String text) {
      b.append(indent(text));
    }

    @Override
    public void failure(String text) {
      b.append('\n').append(fold(text)).append('\n');
    }

    @Override
    public void explanation(String text) {
      b.append(wrap(text, "  ")).append('\n');
    }

    @Override
    public void end() {
      b.append('\n');
    }
  }

  /** The report's HTML: headings, paragraphs, lists and HTML tables; only the card view stays preformatted. */
  private static final class Html implements Sink {
    final StringBuilder b = new StringBuilder();

    private static String esc(String s) {
      return SvgLineChart.escape(s);
    }

    @Override
    public void heading(String heading, String span) {
      b.append("<h3>").append(esc(heading)).append("</h3>\n<p class=\"span\">virtual time ").append(esc(span))
          .append("</p>\n");
    }

    @Override
    public void paragraph(String text) {
      b.append("<p>").append(esc(text.strip())).append("</p>\n");
    }

    @Override
    public void section(String title) {
      b.append("<h4>").append(esc(title)).append("</h4>\n");
    }

    @Override
    public void command(String command) {
      b.append("<h4><code>").append(esc(command)).append("</code></h4>\n");
    }

    @Override
    public void table(Table.Head t, int rowBound) {
      b.append(t.table().html("step", rowBound, "the whole run record is in events.jsonl", t.total()));
    }

    @Override
    public void items(List<String> lines, int rowBound, String what) {
      b.append("<ul>\n");
      lines.stream().limit(rowBound).forEach(l -> b.append("<li>").append(esc(l)).append("</li>\n"));
      if (lines.size() > rowBound) {
        b.append("<li>").append(esc(more(lines.size() - rowBound, what))).append("</li>\n");
      }
      b.append("</ul>\n");
    }

    @Override
    public void preformatted(String text) {
      b.append("<pre>").append(esc(text)).append("</pre>\n");
    }

    @Override
    public void failure(String text) {
      b.append("<p class=\"failed\">").append(esc(text)).append("</p>\n");
    }

    @Override
    public void explanation(String text) {
      b.append("<p class=\"why\">").append(esc(text.strip())).append("</p>\n");
    }

    @Override
    public void end() {
    }
  }

  /** The table, or its first {@code rowBound} rows and a line saying how many more there are. */
  static String bounded(Table.Head head, int rowBound, int width) {
    Table t = head.table();
    if (head.total() <= rowBound) {
      return t.render(width);
    }
    return new Table(t.headers(), t.rows().subList(0, rowBound)).render(width)
        + more(head.total() - rowBound, "rows") + "\n";
  }

  private static String more(int count, String what) {
    return String.format(Locale.ROOT, "... %,d more %s not shown; the whole run record is in events.jsonl",
        count, what);
  }

  /**
   * Each NodeClaim launched in the range: its instance type, capacity type, zone and price (from
   * the launch entry) and how long until Karpenter counted it initialised.
   */
  static List<String> launches(RunRecord record, int from, int to, Instant start) {
    List<String> out = new ArrayList<>();
    List<RunRecord.Entry> all = record.entries();
    List<RunRecord.Entry> launched = all.subList(from, Math.min(to, all.size())).stream()
        .filter(e -> e.kind() == RunRecord.Kind.NODECLAIM_LAUNCHED).toList();
    if (launched.isEmpty()) {
      return out;
    }
    // Each NodeClaim's initialisations in record order, found in one pass instead of one per launch.
    Map<String, List<RunRecord.Entry>> initialized = new HashMap<>();
    // Nodes whose GPUs NVIDIA's DRA driver took at registration: no device plugin registers there.
    Set<String> draNodes = new HashSet<>();
    for (RunRecord.Entry later : all) {
      if (later.kind() == RunRecord.Kind.NODECLAIM_INITIALIZED) {
        initialized.computeIfAbsent(later.subject(), k -> new ArrayList<>()).add(later);
      } else if (later.kind() == RunRecord.Kind.NODE_REGISTERED && later.message().contains("NVIDIA's DRA driver")) {
        draNodes.add(later.subject());
      }
    }
    for (RunRecord.Entry e : launched) {
      String line = e.subject() + ": " + e.message() + ", launched at " + Durations.offset(start, e.time());
      for (RunRecord.Entry later : initialized.getOrDefault(e.subject(), List.of())) {
        if (!later.time().isBefore(e.time())) {
          line += ", initialised at " + Durations.offset(start, later.time()) + " ("
              + KubeDuration.format(Duration.between(e.time(), later.time())) + " later: boot and registration, then the "
              + (draNodes.contains(e.subject()) ? "node Ready; NVIDIA's DRA driver published its devices at registration)"
                  : "device plugin registering nvidia.com/gpu)");
          break;
        }
      }
      out.add(line);
    }
    return out;
  }

  static String indent(String text) {
    StringBuilder b = new StringBuilder();
    for (String line : text.split("\n", -1)) {
      if (!line.isEmpty()) {
        b.append("  ").append(line);
      }
      b.append('\n');
    }
    String s = b.toString();
    return s.endsWith("\n\n") ? s.substring(0, s.length() - 1) : s;
  }

  static String wrap(String text, String prefix) {
    StringBuilder b = new StringBuilder();
    StringBuilder line = new StringBuilder(prefix);
    for (String word : text.strip().split("\\s+")) {
      if (line.length() > prefix.length() && line.length() + 1 + word.length() > WIDTH) {
        b.append(line).append('\n');
        line = new StringBuilder(prefix);
      }
      if (line.length() > prefix.length()) {
        line.append(' ');
      }
      line.append(word);
    }
    return b.append(line).toString();
  }
}
