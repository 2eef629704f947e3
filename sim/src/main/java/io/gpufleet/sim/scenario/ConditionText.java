package io.gpufleet.sim.scenario;

import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Requirement;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A condition as a scenario file writes it, in YAML flow style, e.g.
 * {@code {readyPods: {workload: Deployment/vllm, atLeast: 4}}}: how expectations and wait-until
 * timeouts name their condition to users, in the words they wrote it with.
 */
public final class ConditionText {
  private ConditionText() {}

  public static String of(Condition c) {
    return switch (c) {
      case Condition.PodRunningOn p -> wrap("podRunningOn", map(List.of("workload: " + scalar(p.workload()),
          "node: " + node(p.node()))));
      case Condition.PodReady r -> wrap("podReady", scalar(r.pod()));
      case Condition.ReadyPods r -> wrap("readyPods", map(List.of("workload: " + scalar(r.workload()),
          count(r.comparison(), r.count()))));
      case Condition.NodeCount n -> selected("nodeCount", n.selector(), n.comparison(), n.count());
      case Condition.NodeInitialized n -> wrap("nodeInitialized", map(List.of("node: " + node(n.node()))));
      case Condition.ResourceAdvertised r -> wrap("resourceAdvertised", map(List.of("node: " + node(r.node()),
          "resource: " + scalar(r.resource()), count(r.comparison(), r.quantity()))));
      case Condition.PendingPods p -> wrap("pendingPods", map(List.of(count(p.comparison(), p.count()))));
      case Condition.NodeClaimCount n -> selected("nodeClaimCount", n.selector(), n.comparison(), n.count());
      case Condition.Events e -> {
        List<String> fields = new ArrayList<>();
        e.type().ifPresent(t -> fields.add("type: " + t.wireName()));
        e.reason().ifPresent(r -> fields.add("reason: " + scalar(r)));
        e.object().ifPresent(o -> fields.add("object: " + scalar(o)));
        fields.add(count(e.comparison(), e.count()));
        yield wrap("events", map(fields));
      }
      case Condition.Disruptions d -> {
        List<String> fields = new ArrayList<>();
        d.method().ifPresent(m -> fields.add("method: " + scalar(m)));
        d.reason().ifPresent(r -> fields.add("reason: " + scalar(r)));
        fields.add(count(d.comparison(), d.count()));
        yield wrap("disruptions", map(fields));
      }
      case Condition.Evictions e -> {
        List<String> fields = new ArrayList<>();
        e.reason().ifPresent(r -> fields.add("reason: " + scalar(r)));
        fields.add(count(e.comparison(), e.count()));
        yield wrap("evictions", map(fields));
      }
      case Condition.Cost k -> wrap("cost", map(List.of(k.comparison().field() + ": "
          + BigDecimal.valueOf(k.dollars()).stripTrailingZeros().toPlainString())));
      case Condition.All a -> wrap("all", "[" + String.join(", ", a.conditions().stream().map(ConditionText::of)
          .toList()) + "]");
      case Condition.Not n -> wrap("not", of(n.condition()));
    };
  }

  /** A node reference: {@code name}, {@code {selector: ..., index: 1}} or {@code {hosting: {workload: w, index: 0}}}. */
  static String node(NodeRef n) {
    return switch (n) {
      case NodeRef.Named named -> scalar(named.name());
      case NodeRef.Selected s -> map(List.of("selector: " + selector(s.selector()), "index: " + s.index()));
      case NodeRef.Hosting h -> map(List.of("hosting: " + map(List.of("workload: " + scalar(h.workload()),
          "index: " + h.index()))));
    };
  }

  static String selector(LabelSelector s) {
    List<String> fields = new ArrayList<>();
    if (!s.matchLabels().isEmpty()) {
      List<String> labels = new ArrayList<>();
      for (Map.Entry<String, String> e : s.matchLabels().map().entrySet()) {
        labels.add(scalar(e.getKey()) + ": " + scalar(e.getValue()));
      }
      fields.add("matchLabels: " + map(labels));
    }
    if (!s.matchExpressions().isEmpty()) {
      List<String> exprs = new ArrayList<>();
      for (Requirement r : s.matchExpressions()) {
        List<String> f = new ArrayList<>(List.of("key: " + scalar(r.key()), "operator: " + r.operator().wireName()));
        if (!r.values().isEmpty()) {
          f.add("values: [" + String.join(", ", r.values().stream().map(ConditionText::scalar).toList()) + "]");
        }
        exprs.add(map(f));
      }
      fields.add("matchExpressions: [" + String.join(", ", exprs) + "]");
    }
    return map(fields);
  }

  /** A count of objects a selector picks: the selector only where it narrows. */
  private static String selected(String kind, LabelSelector s, Comparison c, int n) {
    List<String> fields = new ArrayList<>();
    if (!s.isEmpty()) {
      fields.add("selector: " + selector(s));
    }
    fields.add(count(c, n));
    return wrap(kind, map(fields));
  }

  private static String count(Comparison c, long n) {
    return c.field() + ": " + n;
  }

  private static String wrap(String kind, String body) {
    return "{" + kind + ": " + body + "}";
  }

  private static String map(List<String> fields) {
    return "{" + String.join(", ", fields) + "}";
  }

  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./-][A-Za-z0-9_./ -]*");

  /** A plain scalar where YAML reads it back as the same string; otherwise double-quoted. */
  static String scalar(String s) {
    if (PLAIN.matcher(s).matches() && !s.endsWith(" ") && !s.matches("(?i)true|false|null|~|yes|no|on|off")
        && !s.matches("[-+]?[0-9.]+([eE][-+]?[0-9]+)?")) {
      return s;
    }
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
