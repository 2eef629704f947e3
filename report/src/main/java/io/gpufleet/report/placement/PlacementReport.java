package io.gpufleet.report.placement;

import io.gpufleet.engine.scheduler.BatchPlacement;
import io.gpufleet.engine.scheduler.BatchPlacement.Outcome;
import io.gpufleet.engine.scheduler.ScheduleResult;
import io.gpufleet.report.json.JsonText;
import io.gpufleet.report.table.Table;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders a batch placement as {@code kubectl get pods -o wide} plus the FailedScheduling events
 * of the pods left Pending, or as JSON for scripts.
 */
public final class PlacementReport {
  private PlacementReport() {}

  public static String text(BatchPlacement.Result result, boolean explain) {
    Table pods = Table.of("NAMESPACE", "NAME", "READY", "STATUS", "RESTARTS", "AGE", "NODE", "NOMINATED NODE");
    for (Outcome o : result.outcomes()) {
      String ns = o.pod().meta().namespace();
      pods = switch (o) {
        case Outcome.Bound b -> pods.row(ns, b.pod().name(), "0/" + containers(b), "ContainerCreating", 0, "0s", b.node(),
            "<none>");
        case Outcome.Pending p -> pods.row(ns, p.pod().name(), "0/" + containers(p), "Pending", 0, "0s", "<none>",
            p.nominatedNode().orElse("<none>"));
        case Outcome.Preempted v -> pods.row(ns, v.pod().name(), "0/" + containers(v), "Terminating", 0, "0s", v.node(),
            "<none>");
        case Outcome.Rejected r -> pods.row(ns, r.pod().name(), "0/" + containers(r), r.reason(), 0, "0s", r.node(),
            "<none>");
        case Outcome.Orphaned o2 -> pods.row(ns, o2.pod().name(), "0/" + containers(o2), "Pending", 0, "0s", o2.node(),
            "<none>");
      };
    }
    StringBuilder b = new StringBuilder(pods.render());
    Table events = Table.of("TYPE", "REASON", "OBJECT", "MESSAGE");
    for (Outcome o : result.outcomes()) {
      switch (o) {
        case Outcome.Pending p ->
            events = events.row("Warning", "FailedScheduling", "pod/" + p.pod().name(), p.error().message());
        case Outcome.Rejected r -> events = events.row("Warning", r.reason(), "pod/" + r.pod().name(), r.message());
        case Outcome.Orphaned orphaned -> { } // no scheduler and no kubelet sees it: no event
        // Upstream names the preemptor by UID; the twin's pods have none, so by namespace/name.
        case Outcome.Preempted v -> events = events.row("Normal", "Preempted", "pod/" + v.pod().name(),
            "Preempted by pod " + v.preemptor().key() + " on node " + v.node());
        case Outcome.Bound bound -> {
          if (explain && bound.decision() != null) {
            events = events.row("Normal", "Scheduled", "pod/" + bound.pod().name(), explanation(bound));
          }
        }
      }
    }
    if (!events.isEmpty()) {
      b.append('\n').append(events.render());
    }
    return b.toString();
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
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("namespace", o.pod().meta().namespace());
      m.put("name", o.pod().name());
      switch (o) {
        case Outcome.Bound b -> {
          m.put("phase", "Scheduled");
          m.put("node", b.node());
          m.put("boundBy", b.byScheduler() ? "default-scheduler" : "nodeName");
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
        case Outcome.Rejected r -> {
          m.put("phase", "Failed");
          m.put("node", r.node());
          m.put("reason", r.reason());
          m.put("message", r.message());
        }
      }
      pods.add(m);
    }
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("pods", pods);
    return JsonText.write(root);
  }
}
