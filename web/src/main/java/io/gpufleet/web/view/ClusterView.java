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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The cluster of one frame as the dashboard draws it: a card per node (and per NodeClaim whose
 * node has not registered yet) with its instance type, capacity type, NodePool, lifecycle and
 * price, each physical GPU with the devices its plugin advertises from it and the pods holding
 * them, the node's taints and GFD labels; then the pods waiting for a node and why.
 */
public final class ClusterView {
  private ClusterView() {}

  public static Map<String, Object> of(PlayedRun run, int index) {
    Frame f = run.frames().get(index);
    ClusterState s = f.state();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("frame", index);
    out.put("frames", run.frames().size());
    out.put("time", f.time().toString());
    out.put("seconds", Duration.between(run.result().start(), f.time()).getSeconds());
    f.checkpoint().ifPresent(c -> out.put("checkpoint", c));
    List<Map<String, Object>> cards = new ArrayList<>();
    for (NodeState n : sorted(s)) {
      cards.add(node(s, n));
    }
    List<NodeClaim> unregistered = new ArrayList<>(s.claims().values());
    unregistered.removeIf(c -> c.nodeName().filter(name -> s.nodes().get(name) != null).isPresent());
    unregistered.sort(Comparator.comparing(NodeClaim::name));
    for (NodeClaim c : unregistered) {
      cards.add(claim(c));
    }
    out.put("nodes", cards);
    List<Map<String, Object>> pending = new ArrayList<>();
    List<PodState> pods = new ArrayList<>(s.pods().values());
    pods.sort(Comparator.comparingLong(PodState::sequence));
    for (PodState p : pods) {
      if (p.isPending()) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("pod", p.key());
        e.put("gpus", FleetCounts.gpuRequest(p));
        e.put("waitingSeconds", Duration.between(p.created(), f.time()).getSeconds());
        e.put("message", p.schedulingMessage().orElse(""));
        pending.add(e);
      }
    }
    out.put("pending", pending);
    return out;
  }

  static List<NodeState> sorted(ClusterState s) {
    List<NodeState> nodes = new ArrayList<>(s.nodes().values());
    nodes.sort(Comparator.comparing(NodeState::name));
    return nodes;
  }

  private static Map<String, Object> node(ClusterState s, NodeState n) {
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
    List<PodState> onNode = new ArrayList<>();
    s.pods().forEach((k, p) -> {
      if (p.node().filter(n.name()::equals).isPresent()) {
        onNode.add(p);
      }
    });
    onNode.sort(Comparator.comparingLong(PodState::sequence));
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
