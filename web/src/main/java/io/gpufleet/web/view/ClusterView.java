package io.gpufleet.web.view;

import io.gpufleet.model.cloud.Money;
import io.gpufleet.engine.deviceplugin.ContainerDevices;
import io.gpufleet.engine.deviceplugin.Device;
import io.gpufleet.engine.deviceplugin.NodeDevices;
import io.gpufleet.model.cloud.InstanceLabels;
import io.gpufleet.model.cloud.Offering;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.report.smi.SmiView;
import io.gpufleet.report.timeline.FleetCounts;
import io.gpufleet.report.timeline.Frame;
import io.gpufleet.report.timeline.NodeLifecycle;
import io.gpufleet.sim.state.ClusterState;
import io.gpufleet.sim.state.NodeState;
import io.gpufleet.sim.state.PodState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The cluster of one frame as the dashboard draws it: a card per node (and per NodeClaim whose
 * node has not registered yet) with its instance type, capacity type, NodePool, lifecycle and
 * price, each physical GPU with the devices its plugin advertises from it and the pods holding
 * them, the node's taints and GFD labels; then the pods waiting for a node and why.
 */
public final class ClusterView {
  private ClusterView() {}

  /** Cards drawn at most when none are asked for; the page asks for one page at a time. */
  public static final int PAGE = 100;

  /** The dimensions of the fleet overview: the filter's field name and how a card's value is read. */
  private static final List<String> DIMENSIONS = List.of("pool", "type", "capacity", "state");

  /** Every card of the moment (tests and small clusters). */
  public static Map<String, Object> of(PlayedRun run, int index) {
    return of(run, index, NodeFilter.NONE, 0, Integer.MAX_VALUE);
  }

  /**
   * The moment with the cards the filter matches from {@code offset}, at most {@code limit} of them;
   * {@code total} and {@code matching} count all, and the overview counts the whole moment's nodes
   * and GPUs by NodePool, instance type, capacity type and state, whatever the filter.
   */
  public static Map<String, Object> of(PlayedRun run, int index, NodeFilter filter, int offset, int limit) {
    Frame f = run.frames().get(index);
    ClusterState s = f.state();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("frame", index);
    out.put("frames", run.frames().size());
    out.put("time", f.time().toString());
    out.put("seconds", Duration.between(run.result().start(), f.time()).getSeconds());
    f.checkpoint().ifPresent(c -> out.put("checkpoint", c));
    Map<String, List<PodState>> byNode = podsByNode(s);
    List<Head> heads = heads(s, byNode);
    List<Head> matching = filter.isEmpty() ? heads : heads.stream().filter(h -> h.matches(filter)).toList();
    out.put("total", heads.size());
    out.put("matching", matching.size());
    out.put("offset", offset);
    out.put("overview", overview(heads));
    List<Map<String, Object>> cards = new ArrayList<>();
    for (Head h : matching.subList(Math.min(offset, matching.size()),
        (int) Math.min((long) offset + limit, matching.size()))) {
      cards.add(h.node() != null ? node(s, h.node(), byNode.getOrDefault(h.name(), List.of())) : claim(h.claim()));
    }
    out.put("nodes", cards);
    List<Map<String, Object>> pending = new ArrayList<>();
    List<PodState> pods = new ArrayList<>();
    s.pods().forEach((k, p) -> {
      if (p.isPending()) {
        pods.add(p);
      }
    });
    pods.sort(Comparator.comparingLong(PodState::sequence));
    out.put("pendingCount", pods.size());
    // As many pending pods as cards asked for (a page at least); the rest are counted.
    for (PodState p : pods.subList(0, Math.min(pods.size(), Math.max(PAGE, limit)))) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("pod", p.key());
      e.put("gpus", FleetCounts.gpuRequest(p));
      e.put("waitingSeconds", Duration.between(p.created(), f.time()).getSeconds());
      e.put("message", p.schedulingMessage().orElse(""));
      pending.add(e);
    }
    out.put("pending", pending);
    return out;
  }

  /** The names of the moment's nodes and NodeClaims the filter matches (the lanes it keeps). */
  public static Set<String> matchingNames(PlayedRun run, int index, NodeFilter filter) {
    ClusterState s = run.frames().get(index).state();
    Set<String> out = new HashSet<>();
    for (Head h : heads(s, Map.of())) {
      if (h.matches(filter)) {
        out.add(h.name());
      }
    }
    return out;
  }

  /**
   * What the filter and the overview read of a card, cheap to make for every node of a moment:
   * {@code node} for a registered node, else {@code claim}; {@code physical} the cards it draws.
   */
  private record Head(String name, String nodePool, String instanceType, String capacityType, String lifecycle,
      long physical, long allocated, NodeState node, NodeClaim claim) {

    boolean matches(NodeFilter f) {
      return f.matches(name, nodePool, instanceType, capacityType, lifecycle);
    }

    String value(String dimension) {
      return switch (dimension) {
        case "pool" -> nodePool;
        case "type" -> instanceType;
        case "capacity" -> capacityType;
        default -> lifecycle;
      };
    }
  }

  /** The nodes by name, then the NodeClaims whose node has not registered, by name: the cards' order. */
  private static List<Head> heads(ClusterState s, Map<String, List<PodState>> byNode) {
    List<Head> out = new ArrayList<>();
    for (NodeState n : sorted(s)) {
      var labels = n.node().labels();
      long physical = n.devices().map(d -> (long) d.inventory().gpus().size())
          .orElseGet(() -> n.gpus().map(g -> (long) g.count()).orElse(0L));
      long allocated = byNode.getOrDefault(n.name(), List.of()).stream().mapToLong(FleetCounts::gpuRequest).sum();
      out.add(new Head(n.name(), labels.get(KarpenterLabels.NODEPOOL).orElse(""),
          labels.get(InstanceLabels.INSTANCE_TYPE).orElse(""), labels.get(KarpenterLabels.CAPACITY_TYPE).orElse(""),
          NodeLifecycle.of(s, n).wire(), physical, allocated, n, null));
    }
    List<NodeClaim> unregistered = new ArrayList<>(s.claims().values());
    unregistered.removeIf(c -> c.nodeName().filter(name -> s.nodes().get(name) != null).isPresent());
    unregistered.sort(Comparator.comparing(NodeClaim::name));
    for (NodeClaim c : unregistered) {
      out.add(new Head(c.name(), c.nodePool(), c.instanceType().name(), c.offering().capacityType().wireName(),
          NodeLifecycle.of(c).wire(), 0, 0, null, c));
    }
    return out;
  }

  /** Each node's pods, in the order they were created: one pass over the moment's pods. */
  private static Map<String, List<PodState>> podsByNode(ClusterState s) {
    Map<String, List<PodState>> out = new HashMap<>();
    s.pods().forEach((k, p) -> p.node().ifPresent(n -> out.computeIfAbsent(n, x -> new ArrayList<>()).add(p)));
    out.values().forEach(l -> l.sort(Comparator.comparingLong(PodState::sequence)));
    return out;
  }

  /** Per dimension, each value's nodes, physical GPUs and GPUs allocated; most nodes first. */
  private static Map<String, Object> overview(List<Head> heads) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (String dim : DIMENSIONS) {
      Map<String, long[]> groups = new TreeMap<>();
      for (Head h : heads) {
        long[] g = groups.computeIfAbsent(h.value(dim).isEmpty() ? "-" : h.value(dim), v -> new long[3]);
        g[0]++;
        g[1] += h.physical();
        g[2] += h.allocated();
      }
      List<Map<String, Object>> rows = new ArrayList<>();
      groups.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue()[0], a.getValue()[0])).forEach(e -> {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("value", e.getKey());
        row.put("nodes", e.getValue()[0]);
        row.put("physical", e.getValue()[1]);
        row.put("allocated", e.getValue()[2]);
        rows.add(row);
      });
      out.put(dim, rows);
    }
    return out;
  }

  static List<NodeState> sorted(ClusterState s) {
    List<NodeState> nodes = new ArrayList<>(s.nodes().values());
    nodes.sort(Comparator.comparing(NodeState::name));
    return nodes;
  }

  private static Map<String, Object> node(ClusterState s, NodeState n, List<PodState> onNode) {
    var labels = n.node().labels();
    Optional<NodeClaim> claim = n.claim().flatMap(s::claim);
    Map<String, Object> card = new LinkedHashMap<>();
    card.put("name", n.name());
    card.put("nodeClaim", n.claim().orElse(null));
    card.put("instanceType", labels.get(InstanceLabels.INSTANCE_TYPE).orElse(""));
    card.put("capacityType", labels.get(KarpenterLabels.CAPACITY_TYPE).orElse(""));
    card.put("nodePool", labels.get(KarpenterLabels.NODEPOOL).orElse(""));
    card.put("lifecycle", NodeLifecycle.of(s, n).wire());
    card.put("ready", n.ready());
    Double price = price(s, n, claim);
    card.put("pricePerHour", price);
    // As every output writes a price (Money), so the page does not format it a second way.
    card.put("price", price == null ? null : Money.perHour(price));
    card.put("removalReason", claim.flatMap(c -> Optional.ofNullable(s.removalReasons().get(c.name())))
        .map(Object::toString).orElse(null));
    card.put("taints", n.node().taints().stream().map(Taint::toString).toList());
    Map<String, String> gfd = new TreeMap<>();
    labels.map().forEach((k, v) -> {
      if (k.startsWith("nvidia.com/")) {
        gfd.put(k, v);
      }
    });
    card.put("gfdLabels", gfd);
    card.put("gpuCapacity", FleetCounts.gpus(n.node().capacity()));
    card.put("gpuAdvertised", FleetCounts.gpus(n.node().allocatable()));
    card.put("gpuAllocated", onNode.stream().mapToLong(FleetCounts::gpuRequest).sum());
    card.put("sharing", n.devices().map(SmiView::sharing).orElse(n.gpus().isPresent() ? "plugin not registered" : ""));
    card.put("gpus", n.devices().map(d -> cards(d, s)).orElseGet(() -> unregisteredCards(n)));
    List<Map<String, Object>> pods = new ArrayList<>();
    for (PodState p : onNode) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("pod", p.key());
      e.put("phase", p.isTerminating() ? "Terminating" : p.isReady() ? "Ready" : switch (p.phase()) {
        case PENDING -> "Pending";
        case STARTING -> "ContainerCreating";
        case RUNNING -> "Running";
        case FAILED -> "Failed";
      });
      e.put("gpus", FleetCounts.gpuRequest(p));
      pods.add(e);
    }
    card.put("pods", pods);
    return card;
  }

  private static Map<String, Object> claim(NodeClaim c) {
    Map<String, Object> card = new LinkedHashMap<>();
    card.put("name", c.name());
    card.put("nodeClaim", c.name());
    card.put("instanceType", c.instanceType().name());
    card.put("capacityType", c.offering().capacityType().wireName());
    card.put("nodePool", c.nodePool());
    card.put("lifecycle", NodeLifecycle.of(c).wire());
    card.put("ready", false);
    card.put("pricePerHour", c.pricePerHour());
    card.put("price", Money.perHour(c.pricePerHour()));
    card.put("taints", c.taints().stream().map(Taint::toString).toList());
    card.put("gfdLabels", Map.of());
    card.put("gpuCapacity", 0);
    card.put("gpuAdvertised", 0);
    card.put("gpuAllocated", 0);
    card.put("sharing", "not registered yet");
    card.put("gpus", List.of());
    card.put("pods", List.of());
    return card;
  }

  /** The catalogue price of the node's offering; a node the scenario brought without one has none. */
  private static Double price(ClusterState s, NodeState n, Optional<NodeClaim> claim) {
    if (claim.isPresent()) {
      return claim.get().pricePerHour();
    }
    var labels = n.node().labels();
    return labels.get(InstanceLabels.INSTANCE_TYPE).flatMap(s.catalog()::find).flatMap(t -> t.offerings().stream()
        .filter(o -> labels.get(KarpenterLabels.CAPACITY_TYPE).map(o.capacityType().wireName()::equals).orElse(true))
        .findFirst()).map(Offering::pricePerHour).orElse(null);
  }

  /** Each physical card with the devices advertised from it and which pod holds each. */
  private static List<Map<String, Object>> cards(NodeDevices d, ClusterState s) {
    Map<String, String> holder = new TreeMap<>();
    for (ContainerDevices c : d.allAssignments()) {
      for (Device dev : c.devices()) {
        holder.put(dev.id(), c.podKey());
      }
    }
    List<Map<String, Object>> out = new ArrayList<>();
    for (var g : d.inventory().gpus()) {
      Map<String, Object> card = new LinkedHashMap<>();
      card.put("index", g.index());
      card.put("product", g.model().productName());
      card.put("uuid", g.uuid());
      card.put("memoryMiB", g.model().memoryMiB().orElse(-1));
      List<Map<String, Object>> devices = new ArrayList<>();
      List<Device> own = d.devices().stream().filter(x -> x.gpuIndex() == g.index()).sorted(
          Comparator.comparing((Device x) -> x.mig().map(m -> m.placement().start()).orElse(-1))
              .thenComparingInt(Device::replica)).toList();
      for (Device dev : own) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("id", dev.id());
        e.put("resource", dev.resource().toString());
        e.put("mig", dev.mig().map(m -> m.profile().name()).orElse(null));
        e.put("replica", dev.replica());
        e.put("replicas", dev.replicas());
        e.put("pod", holder.get(dev.id()));
        devices.add(e);
      }
      card.put("devices", devices);
      card.put("pods", own.stream().map(x -> holder.get(x.id())).filter(Objects::nonNull).distinct().toList());
      out.add(card);
    }
    return out;
  }

  /** The cards of a node whose plugin has not registered: present, advertising nothing. */
  private static List<Map<String, Object>> unregisteredCards(NodeState n) {
    List<Map<String, Object>> out = new ArrayList<>();
    n.gpus().ifPresent(g -> {
      for (int i = 0; i < g.count(); i++) {
        Map<String, Object> card = new LinkedHashMap<>();
        card.put("index", i);
        card.put("product", g.name());
        card.put("uuid", "");
        card.put("memoryMiB", g.memoryMib());
        card.put("devices", List.of());
        card.put("pods", List.of());
        out.add(card);
      }
    });
    return out;
  }
}
