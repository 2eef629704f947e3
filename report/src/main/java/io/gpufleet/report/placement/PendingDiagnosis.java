package io.gpufleet.report.placement;

import io.gpufleet.engine.scheduler.BatchPlacement.Outcome;
import io.gpufleet.engine.scheduler.FitError;
import io.gpufleet.engine.scheduler.Status;
import io.gpufleet.model.time.KubeDuration;
import io.gpufleet.report.sim.Durations;
import io.gpufleet.sim.record.PendingFates;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * For {@code schedule --explain}: why each Pending pod fits no node, node by node, as kube-scheduler's
 * diagnosis records it ({@code Diagnosis.NodeToStatus} in {@code pkg/scheduler/framework/types.go},
 * the statuses {@code FitError.Error} counts into its message), nodes with the same reasons
 * grouped; and what would make it fit, as a run of the same cluster answered it (Karpenter's launch,
 * an existing node, or Karpenter's own {@code FailedScheduling}).
 */
public final class PendingDiagnosis {
  private PendingDiagnosis() {}

  /** Nodes named in a text line before the rest are counted. */
  private static final int NAMED = 4;

  /**
   * Karpenter's answer for the Pending pods: each pod's fate in a run of {@code ranFor}, or, when
   * {@code none} is not empty, why no run could answer (the same for every pod).
   */
  public record KarpenterAnswer(Map<String, PendingFates.Fate> fates, Duration ranFor, String none) {
    public KarpenterAnswer {
      fates = Map.copyOf(fates);
    }

    /** No run: {@code why} Karpenter would launch nothing for any pod. */
    public static KarpenterAnswer without(String why) {
      return new KarpenterAnswer(Map.of(), Duration.ZERO, why);
    }
  }

  /**
   * Nodes that failed with the same reasons (kube-scheduler's words); {@code nodes} names them,
   * or is empty when the status was every node's (a PreFilter rejection) or the nodes a PreFilter
   * plugin left out, of which there are {@code count}.
   */
  public record NodeGroup(List<String> reasons, List<String> nodes, int count) {
    public NodeGroup {
      reasons = List.copyOf(reasons);
      nodes = List.copyOf(nodes);
    }
  }

  /** The per-node statuses of {@code error} grouped by reasons, first seen first; empty once they were dropped. */
  public static List<NodeGroup> groups(FitError error) {
    if (error.numAllNodes() == 0) {
      return List.of(new NodeGroup(List.of(FitError.NO_NODES), List.of(), 0));
    }
    if (!error.preFilterMessage().isEmpty()) {
      return List.of(new NodeGroup(List.of(error.preFilterMessage()), List.of(), error.numAllNodes()));
    }
    Map<List<String>, List<String>> byReasons = new LinkedHashMap<>();
    for (Map.Entry<String, Status> e : error.nodeStatuses().entrySet()) {
      byReasons.computeIfAbsent(e.getValue().reasons(), k -> new ArrayList<>()).add(e.getKey());
    }
    List<NodeGroup> out = new ArrayList<>();
    byReasons.forEach((reasons, nodes) -> out.add(new NodeGroup(reasons, nodes, nodes.size())));
    int absent = error.numAllNodes() - error.nodeStatuses().size();
    if (absent > 0 && error.absentStatus().isPresent() && !out.isEmpty()) {
      out.add(new NodeGroup(error.absentStatus().get().reasons(), List.of(), absent));
    }
    return out;
  }

  /** The section {@code schedule --explain} prints after the events; nothing when no pod is Pending. */
  public static void text(List<Outcome> outcomes, KarpenterAnswer answer, Appendable out) {
    try {
      boolean first = true;
      for (Outcome o : outcomes) {
        if (!(o instanceof Outcome.Pending p)) {
          continue;
        }
        if (first) {
          out.append("\nWhy each Pending pod fits no node (kube-scheduler's reason per node), and what would make "
              + "it fit:\n");
          first = false;
        }
        out.append("pod/").append(p.pod().key()).append('\n');
        for (NodeGroup g : groups(p.error())) {
          out.append("  ").append(String.format("%-30s", nodes(g))).append("  ")
              .append(String.join("; ", g.reasons())).append('\n');
        }
        out.append("  would fit: ").append(fit(p.pod().key(), answer)).append('\n');
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The members {@code schedule -o json --explain} adds to a Pending pod: {@code diagnosis} and {@code karpenter}. */
  public static Map<String, Object> json(Outcome.Pending p, KarpenterAnswer answer) {
    List<Map<String, Object>> groups = new ArrayList<>();
    for (NodeGroup g : groups(p.error())) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("reasons", g.reasons());
      m.put("nodes", g.nodes());
      m.put("count", g.count());
      groups.add(m);
    }
    Map<String, Object> k = new LinkedHashMap<>();
    Optional<PendingFates.Fate> fate = Optional.ofNullable(answer.fates().get(p.pod().key()));
    k.put("outcome", answer.none().isEmpty() ? fate.map(f -> f.kind().name()).orElse("UNKNOWN") : "NO_NODEPOOL");
    fate.ifPresent(f -> {
      k.put("at", offset(f.at()));
      putIf(k, "node", f.node());
      putIf(k, "nodePool", f.nodePool());
      putIf(k, "launch", f.launch());
      putIf(k, "message", f.message());
    });
    k.put("text", fit(p.pod().key(), answer));
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("diagnosis", groups);
    out.put("karpenter", k);
    return out;
  }

  private static void putIf(Map<String, Object> m, String key, String value) {
    if (!value.isEmpty()) {
      m.put(key, value);
    }
  }

  private static String nodes(NodeGroup g) {
    if (g.nodes().isEmpty()) {
      return g.count() == 0 ? "-" : (g.count() == 1 ? "1 node" : "all " + g.count() + " nodes");
    }
    String named = String.join(", ", g.nodes().subList(0, Math.min(NAMED, g.nodes().size())));
    return g.nodes().size() <= NAMED ? named : named + " and " + (g.nodes().size() - NAMED) + " more";
  }

  /** One sentence: what would make the pod fit, from Karpenter's answer. */
  static String fit(String pod, KarpenterAnswer answer) {
    if (!answer.none().isEmpty()) {
      return "nothing from Karpenter: " + answer.none();
    }
    PendingFates.Fate f = answer.fates().get(pod);
    if (f == null) {
      return "unknown: the run of this cluster made no pod like it";
    }
    return switch (f.kind()) {
      case LAUNCHED -> "Karpenter would launch " + f.launch() + " from NodePool " + f.nodePool() + " (nodeclaim/"
          + f.node() + "); the pod binds there at " + offset(f.at());
      case EXISTING_NODE -> "no new node: in a run of this cluster it binds to " + f.node() + " at " + offset(f.at());
      case REFUSED -> "nothing from Karpenter, which says: " + f.message();
      case STILL_PENDING -> "nothing within " + KubeDuration.format(answer.ranFor())
          + " of simulated time: no node launched, and Karpenter gave no reason";
    };
  }

  private static String offset(Duration d) {
    return Durations.offset(d);
  }
}
