package io.gpufleet.sim.metrics;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * What each namespace's pods held of the fleet's GPUs, and what that cost: a GPU node's price is
 * split evenly over its cards, and a card's over the pods holding it at each moment, each by the
 * share its holding stands for ({@link CardSpan.Card#share}: a whole card, a replica of a
 * time-sliced or MPS card, a MIG instance's compute slices). Where the holdings on a card add up to
 * more than the card (pods sharing one DRA claim), they split it in proportion; what nobody holds is
 * idle. Cost tools that charge a pod by its requests cannot see a replica or a slice; this charges
 * the part of the card it was given, for as long as it held it.
 *
 * @param byNamespace GPU-hours and dollars per namespace
 * @param idle GPU-hours of the fleet's cards nobody held, and the dollars of GPU nodes not charged to a namespace
 */
public record TeamCost(SortedMap<String, Share> byNamespace, Share idle) {

  /** GPU-hours and the dollars they cost. */
  public record Share(double gpuHours, double dollars) {
    public static final Share NONE = new Share(0, 0);

    Share plus(double hours, double cost) {
      return new Share(gpuHours + hours, dollars + cost);
    }
  }

  public static final TeamCost NONE = new TeamCost(new TreeMap<>(), Share.NONE);

  public TeamCost {
    byNamespace = Collections.unmodifiableSortedMap(new TreeMap<>(byNamespace));
  }

  /** Nothing held: a run with no GPU pods, or none on a priced node. */
  public boolean isEmpty() {
    return byNamespace.isEmpty();
  }

  /**
   * Charges the spans, ending those still open at {@code end}.
   *
   * @param gpuPricePerHour a node's price per GPU-hour (its instance's price over its cards); a node
   *     with no price (a static node) is charged nothing, its GPU-hours still counted
   * @param fleetGpuHours every card's hours in the fleet, held or not
   * @param gpuNodeCost the dollars billed for nodes with GPUs
   */
  public static TeamCost of(List<CardSpan> spans, Map<String, Double> gpuPricePerHour, Instant end,
      double fleetGpuHours, double gpuNodeCost) {
    return of(spans, TeamCost::namespace, gpuPricePerHour, end, fleetGpuHours, gpuNodeCost);
  }

  /** As {@link #of(List, Map, Instant, double, double)}, each pod (namespace/name) charged to {@code teamOf} it. */
  public static TeamCost of(List<CardSpan> spans, Function<String, String> teamOf, Map<String, Double> gpuPricePerHour,
      Instant end, double fleetGpuHours, double gpuNodeCost) {
    Map<String, List<CardSpan>> byCard = new LinkedHashMap<>();
    for (CardSpan s : spans) {
      byCard.computeIfAbsent(s.node() + "\u0000" + s.card().gpuUuid(), k -> new ArrayList<>()).add(s);
    }
    TreeMap<String, Share> charged = new TreeMap<>();
    double heldHours = 0;
    double heldCost = 0;
    for (List<CardSpan> card : byCard.values()) {
      double price = gpuPricePerHour.getOrDefault(card.getFirst().node(), 0.0);
      for (var e : charge(card, end).entrySet()) {
        double hours = e.getValue();
        charged.merge(teamOf.apply(e.getKey().pod()), new Share(hours, hours * price),
            (a, b) -> a.plus(b.gpuHours(), b.dollars()));
        heldHours += hours;
        heldCost += hours * price;
      }
    }
    return new TeamCost(charged, new Share(Math.max(0, fleetGpuHours - heldHours), Math.max(0, gpuNodeCost - heldCost)));
  }

  /** Each span's card-hours on one card, the card split in proportion whenever holdings exceed it. */
  private static Map<CardSpan, Double> charge(List<CardSpan> card, Instant end) {
    record Edge(Instant at, CardSpan span, boolean opens) {}
    List<Edge> edges = new ArrayList<>();
    for (CardSpan s : card) {
      Instant until = s.end().orElse(end);
      if (until.isAfter(s.start())) {
        edges.add(new Edge(s.start(), s, true));
        edges.add(new Edge(until, s, false));
      }
    }
    // Closings first at one instant: a pod that leaves as another arrives never shares with it.
    edges.sort(Comparator.comparing(Edge::at).thenComparing(Edge::opens));
    Map<CardSpan, Double> hours = new LinkedHashMap<>();
    List<CardSpan> active = new ArrayList<>();
    Instant last = null;
    for (Edge e : edges) {
      if (last != null && e.at().isAfter(last) && !active.isEmpty()) {
        double dt = Duration.between(last, e.at()).toMillis() / 3_600_000.0;
        double held = active.stream().mapToDouble(s -> s.card().share()).sum();
        double scale = held > 1 ? 1 / held : 1;
        for (CardSpan s : active) {
          hours.merge(s, dt * s.card().share() * scale, Double::sum);
        }
      }
      last = e.at();
      if (e.opens()) {
        active.add(e.span());
      } else {
        active.remove(e.span());
      }
    }
    return hours;
  }

  /** {@code team-a} of {@code team-a/trainer-0}. */
  public static String namespace(String podKey) {
    int slash = podKey.indexOf('/');
    return slash < 0 ? "default" : podKey.substring(0, slash);
  }
}
