package io.gpufleet.report.placement;

import io.gpufleet.engine.scheduler.BatchPlacement.Outcome;
import io.gpufleet.engine.scheduler.BatchPlacement;
import io.gpufleet.engine.scheduler.ScheduleResult;
import io.gpufleet.engine.scheduler.plugin.SchedulingGates;
import io.gpufleet.report.json.JsonText;
import io.gpufleet.report.table.Table;
import io.gpufleet.report.table.Wrap;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Renders a batch placement as {@code kubectl get pods -o wide} plus the FailedScheduling events
 * of the pods left Pending, or as JSON for scripts.
 */
public final class PlacementReport {
  private PlacementReport() {}

  private static final List<String> POD_HEADERS =
      List.of("NAMESPACE", "NAME", "READY", "STATUS", "RESTARTS", "AGE", "NODE", "NOMINATED NODE");
  private static final List<String> EVENT_HEADERS = List.of("TYPE", "REASON", "OBJECT", "MESSAGE");

  public static String text(BatchPlacement.Result result, boolean explain) {
    StringBuilder b = new StringBuilder();
    text(result, explain, b);
    return b.toString();
  }

  /**
   * Writes the text to {@code out} as it goes: rows are made from the outcomes one at a time (twice,
   * for the column widths), so 50,000 pods never sit in memory as a table.
   */
  public static void text(BatchPlacement.Result result, boolean explain, Appendable out) {
    text(result, explain, Optional.empty(), out, Wrap.UNLIMITED);
  }

  /**
   * As {@link #text(BatchPlacement.Result, boolean, Appendable)}, each table in at most {@code width}
   * columns; with {@code answer} (--explain), then each Pending pod's reason per node and what would
   * make it fit ({@link PendingDiagnosis}).
   */
  public static void text(BatchPlacement.Result result, boolean explain,
      Optional<PendingDiagnosis.KarpenterAnswer> answer, Appendable out, int width) {
    List<Outcome> outcomes = result.outcomes();
    Table.write(POD_HEADERS, () -> outcomes.stream().map(PlacementReport::podRow).iterator(), out, width);
    Iterable<List<String>> events = () -> outcomes.stream()
        .map(o -> eventRow(o, explain)).filter(Objects::nonNull).iterator();
    if (events.iterator().hasNext()) {
      try {
        out.append('\n');
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      Table.write(EVENT_HEADERS, events, out, width);
    }
    answer.ifPresent(a -> PendingDiagnosis.text(outcomes, a, out));
  }

  private static List<String> podRow(Outcome o) {
    String ns = o.pod().meta().namespace();
    String ready = "0/" + containers(o);
    String name = o.pod().name();
    // On the variant, not the sealed type: no class made at run time (see Outcome.variant).
    return switch (o.variant()) {
      case BOUND -> Table.cells(ns, name, ready, "ContainerCreating", "0", "0s", ((Outcome.Bound) o).node(), "<none>");
      case PENDING -> Table.cells(ns, name, ready, "Pending", "0", "0s", "<none>",
          ((Outcome.Pending) o).nominatedNode().orElse("<none>"));
      case PREEMPTED -> Table.cells(ns, name, ready, "Terminating", "0", "0s", ((Outcome.Preempted) o).node(), "<none>");
      case REJECTED -> {
        Outcome.Rejected r = (Outcome.Rejected) o;
        yield Table.cells(ns, name, ready, r.reason(), "0", "0s", r.node(), "<none>");
      }
      case ORPHANED -> Table.cells(ns, name, ready, "Pending", "0", "0s", ((Outcome.Orphaned) o).node(), "<none>");
      case UNCLAIMED -> Table.cells(ns, name, ready, "Pending", "0", "0s", "<none>", "<none>");
      // kubectl prints the PodScheduled condition's reason as the STATUS of a gated pod.
      case GATED -> Table.cells(ns, name, ready, SchedulingGates.REASON, "0", "0s", "<none>", "<none>");
      // Its sandbox is never created: the container waits in ContainerCreating.
      case UNPREPARED -> Table.cells(ns, name, ready, "ContainerCreating", "0", "0s", ((Outcome.Unprepared) o).node(),
          "<none>");
    };
  }

  /** The event a pod's outcome shows, or null when it shows none. */
  private static List<String> eventRow(Outcome o, boolean explain) {
    // On the variant, not the sealed type: no class made at run time (see Outcome.variant).
    return switch (o.variant()) {
      case PENDING -> Table.cells("Warning", "FailedScheduling", "pod/" + o.pod().name(),
          ((Outcome.Pending) o).error().message());
      case REJECTED -> {
        Outcome.Rejected r = (Outcome.Rejected) o;
        yield Table.cells("Warning", r.reason(), "pod/" + r.pod().name(), r.message());
      }
      case ORPHANED -> null; // no scheduler and no kubelet sees it: no event
      case UNCLAIMED -> null; // no profile of this scheduler is responsible for it: no event
      case GATED -> null; // never enters the queue, so no FailedScheduling event
      case UNPREPARED -> {
        Outcome.Unprepared u = (Outcome.Unprepared) o;
        yield Table.cells("Warning", Outcome.Unprepared.REASON, "pod/" + u.pod().name(), u.message());
      }
      // Upstream names the preemptor by UID; the twin's pods have none, so by namespace/name.
      case PREEMPTED -> {
        Outcome.Preempted v = (Outcome.Preempted) o;
        yield Table.cells("Normal", "Preempted", "pod/" + v.pod().name(),
            "Preempted by pod " + v.preemptor().key() + " on node " + v.node());
      }
      case BOUND -> {
        Outcome.Bound bound = (Outcome.Bound) o;
        yield explain && bound.decision() != null
            ? Table.cells("Normal", "Scheduled", "pod/" + bound.pod().name(), explanation(bound)) : null;
      }
    };
  }

  private static int containers(Outcome o) {
    return o.pod().spec().containers().size();
  }

  private static String explanation(Outcome.Bound bound) {
    ScheduleResult.Scheduled s = bound.decision();
    StringBuilder b = new StringBuilder("Successfully assigned ").append(bound.pod().key()).append(" to ")
        .append(bound.node()).append(" (").append(s.feasibleNodes()).append(" feasible of ")
        .append(s.evaluatedNodes()).append(" evaluated");
    if (!s.ranking().isEmpty()) {
      b.append("; scores:");
      for (ScheduleResult.NodeScore ns : s.ranking()) {
        b.append(' ').append(ns.node()).append('=').append(ns.total()).append(" [");
        List<String> parts = new ArrayList<>();
        for (ScheduleResult.PluginScore ps : ns.plugins()) {
          parts.add(ps.plugin() + " " + ps.weightedScore());
        }
        b.append(String.join(", ", parts)).append(']');
      }
    }
    return b.append(')').toString();
  }

  /** {@code {"pods": [{"namespace", "name", "phase", "node", "reason", "message"}...]}}, in queue order. */
  public static String json(BatchPlacement.Result result) {
    List<Map<String, Object>> pods = new ArrayList<>();
    for (Outcome o : result.outcomes()) {
      pods.add(jsonPod(o));
    }
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("pods", pods);
    return JsonText.write(root);
  }

  /** The same JSON as {@link #json(BatchPlacement.Result)}, written one pod at a time. */
  public static void json(BatchPlacement.Result result, Writer out) {
    json(result, List.of(), out);
  }

  /**
   * As {@link #json(BatchPlacement.Result, java.io.Writer)}, followed by a {@code claims} list
   * ({@link ClaimReport#json}) when there are claims.
   */
  public static void json(BatchPlacement.Result result, List<Map<String, Object>> claims, Writer out) {
    json(result, claims, Optional.empty(), out);
  }

  /**
   * As {@link #json(BatchPlacement.Result, List, Writer)}; with {@code answer} (--explain), each Pending
   * pod also has {@code diagnosis} (its reason per group of nodes) and {@code karpenter} (what would
   * make it fit), as {@link PendingDiagnosis#json} makes them.
   */
  public static void json(BatchPlacement.Result result, List<Map<String, Object>> claims,
      Optional<PendingDiagnosis.KarpenterAnswer> answer, Writer out) {
    Iterable<Map<String, Object>> pods = () -> result.outcomes().stream().map(o -> {
      Map<String, Object> m = jsonPod(o);
      if (answer.isPresent() && o instanceof Outcome.Pending p) {
        m.putAll(PendingDiagnosis.json(p, answer.get()));
      }
      return m;
    }).iterator();
    LinkedHashMap<String, Object> after = new LinkedHashMap<>();
    if (!claims.isEmpty()) {
      after.put("claims", claims);
    }
    JsonText.writeList("pods", pods, after, out);
  }

  private static Map<String, Object> jsonPod(Outcome o) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("namespace", o.pod().meta().namespace());
    m.put("name", o.pod().name());
    switch (o) {
      case Outcome.Bound b -> {
        m.put("phase", "Scheduled");
        m.put("node", b.node());
        m.put("boundBy", b.byScheduler() ? b.pod().spec().schedulerName() : "nodeName");
      }
      case Outcome.Preempted v -> {
        m.put("phase", "Terminating");
        m.put("node", v.node());
        m.put("reason", "Preempted");
        m.put("message", "Preempted by pod " + v.preemptor().key() + " on node " + v.node());
      }
      case Outcome.Pending p -> {
        m.put("phase", "Pending");
        m.put("node", null);
        p.nominatedNode().ifPresent(n -> m.put("nominatedNode", n));
        m.put("reason", "Unschedulable");
        m.put("message", p.error().message());
      }
      case Outcome.Orphaned orphaned -> {
        m.put("phase", "Pending");
        m.put("node", orphaned.node());
        m.put("reason", "NodeNotFound");
        m.put("message", "spec.nodeName names node \"" + orphaned.node() + "\", which does not exist");
      }
      case Outcome.Unclaimed u -> {
        m.put("phase", "Pending");
        m.put("node", null);
        m.put("reason", "SchedulerNotFound");
        m.put("message", "no scheduler profile named \"" + u.schedulerName() + "\": no scheduler picks the pod up");
      }
      case Outcome.Gated g -> {
        m.put("phase", "Pending");
        m.put("node", null);
        m.put("reason", SchedulingGates.REASON);
        m.put("message", SchedulingGates.MESSAGE);
        m.put("schedulingGates", g.pod().spec().schedulingGates());
      }
      case Outcome.Unprepared u -> {
        m.put("phase", "Pending");
        m.put("node", u.node());
        m.put("boundBy", "nodeName");
        m.put("reason", Outcome.Unprepared.REASON);
        m.put("message", u.message());
      }
      case Outcome.Rejected r -> {
        m.put("phase", "Failed");
        m.put("node", r.node());
        m.put("reason", r.reason());
        m.put("message", r.message());
      }
    }
    return m;
  }
}
