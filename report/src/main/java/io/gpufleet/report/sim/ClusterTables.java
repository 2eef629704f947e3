package io.gpufleet.report.sim;

import io.gpufleet.engine.deviceplugin.NodeDevices;
import io.gpufleet.engine.dra.GpuClaimPreparation;
import io.gpufleet.engine.dra.NvidiaDraDriver;
import io.gpufleet.engine.scheduler.ResourceVector;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.pod.PodRequests;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.model.time.KubeDuration;
import io.gpufleet.report.smi.SmiView;
import io.gpufleet.report.table.Table;
import io.gpufleet.report.table.Wrap;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.state.BySequence;
import io.gpufleet.sim.state.ClaimTable;
import io.gpufleet.sim.state.ClusterState;
import io.gpufleet.sim.state.NodeState;
import io.gpufleet.sim.state.PodState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * What {@code kubectl get nodes}, {@code kubectl get pods -o wide}, {@code kubectl get events} and
 * {@code nvidia-smi} would show of a simulated cluster at one moment.
 */
public final class ClusterTables {
  private ClusterTables() {}

  /** Nodes by name, with their GPU capacity, allocatable and what pods hold of it. */
  public static Table nodes(ClusterState s, Instant now) {
    return nodes(s, now, Integer.MAX_VALUE).table();
  }

  /** The first {@code limit} rows of {@link #nodes(ClusterState, Instant)}, and how many it has. */
  public static Table.Head nodes(ClusterState s, Instant now, int limit) {
    List<List<String>> rows = new ArrayList<>();
    for (NodeState n : first(s.nodes().values(), Comparator.comparing(NodeState::name), limit)) {
      var labels = n.node().labels();
      String status = n.ready() ? "Ready" : "NotReady";
      if (n.node().unschedulable()) {
        status += ",SchedulingDisabled";
      }
      String allocated = s.snapshot().node(n.name()).map(info -> gpus(info.requested())).orElse("-");
      rows.add(Table.cells(n.name(), status, labels.get("node.kubernetes.io/instance-type").orElse("<none>"),
          labels.get(KarpenterLabels.CAPACITY_TYPE).orElse("<none>"),
          labels.get(KarpenterLabels.NODEPOOL).orElse("<none>"),
          gpus(n.node().capacity()), gpus(n.node().allocatable()), allocated,
          KubeDuration.age(Duration.between(n.registered(), now))));
    }
    return new Table.Head(new Table(List.of("NAME", "STATUS", "INSTANCE-TYPE", "CAPACITY-TYPE", "NODEPOOL",
        "GPU CAPACITY", "GPU ALLOCATABLE", "GPU ALLOCATED", "AGE"), rows), s.nodes().size());
  }

  /**
   * The first {@code limit} of {@code all} in {@code order}, sorted: a bounded heap when that is
   * fewer than all, so a report showing 200 of 100,000 pods sorts and formats only those.
   */
  static <T> List<T> first(Collection<T> all, Comparator<? super T> order, int limit) {
    if (limit >= all.size()) {
      List<T> out = new ArrayList<>(all);
      out.sort(order);
      return out;
    }
    PriorityQueue<T> last = new PriorityQueue<>(limit + 1, order.reversed());
    for (T t : all) {
      if (last.size() < limit) {
        last.add(t);
      } else if (limit > 0 && order.compare(t, last.peek()) < 0) {
        last.poll();
        last.add(t);
      }
    }
    List<T> out = new ArrayList<>(last);
    out.sort(order);
    return out;
  }

  /** The GPU resources bound pods hold, from the scheduler's image of the node. */
  static String gpus(ResourceVector requested) {
    List<String> parts = new ArrayList<>();
    for (int i = 0; i < requested.scalarCount(); i++) {
      if (ResourceName.of(requested.scalarName(i)).isNvidiaGpuLike() && requested.scalarValue(i) != 0) {
        parts.add(requested.scalarName(i) + "=" + requested.scalarValue(i));
      }
    }
    return parts.isEmpty() ? "-" : String.join(",", parts);
  }

  /** {@code nvidia.com/gpu=4}, several GPU resources joined by commas, {@code -} for none. */
  static String gpus(ResourceList r) {
    List<String> parts = new ArrayList<>();
    for (Map.Entry<ResourceName, Quantity> e : r.quantities().entrySet()) {
      if (e.getKey().isNvidiaGpuLike()) {
        parts.add(e.getKey() + "=" + e.getValue());
      }
    }
    return parts.isEmpty() ? "-" : String.join(",", parts);
  }

  /**
   * Pods in creation order with kubectl's columns, the GPUs they ask for, and how long each took
   * from creation to Ready (image pulls show here).
   */
  public static Table pods(ClusterState s, Instant now) {
    return pods(s, now, Integer.MAX_VALUE).table();
  }

  /** The first {@code limit} rows of {@link #pods(ClusterState, Instant)}, and how many it has. */
  public static Table.Head pods(ClusterState s, Instant now, int limit) {
    List<List<String>> rows = new ArrayList<>();
    for (PodState p : first(s.pods().values(), Comparator.comparingLong(PodState::sequence), limit)) {
      int containers = p.pod().spec().containers().size();
      String status = p.isTerminating() ? "Terminating" : switch (p.phase()) {
        // kubectl shows a gated pod's PodScheduled reason (the scheduler never queues it).
        case PENDING -> p.pod().spec().schedulingGates().isEmpty() ? "Pending" : "SchedulingGated";
        case STARTING -> "ContainerCreating";
        case RUNNING -> "Running";
        case FAILED -> p.schedulingMessage().orElse("Failed"); // kubectl shows a Failed pod's reason
      };
      rows.add(Table.cells(p.pod().meta().namespace(), p.pod().name(), (p.isReady() ? containers : 0) + "/" + containers,
          status, p.node().or(() -> p.pod().spec().nodeName()).orElse("<none>"), gpus(PodRequests.of(p.pod().spec())),
          KubeDuration.age(Duration.between(p.created(), now)),
          p.ready().map(r -> KubeDuration.format(Duration.between(p.created(), r))).orElse("-")));
    }
    return new Table.Head(new Table(List.of("NAMESPACE", "NAME", "READY", "STATUS", "NODE", "GPU", "AGE",
        "READY AFTER"), rows), s.pods().size());
  }

  /**
   * Run-record entries in {@code [from, to)}, as events with their offset from the run's start; what
   * the disruption controller weighed at a decision is left to {@code --explain} ({@link DisruptionDecisions}).
   */
  public static Table events(RunRecord record, int from, int to, Instant start) {
    return events(record, from, to, start, Integer.MAX_VALUE).table();
  }

  /** The first {@code limit} rows of {@link #events(RunRecord, int, int, Instant)}, and how many it has. */
  public static Table.Head events(RunRecord record, int from, int to, Instant start, int limit) {
    List<RunRecord.Entry> entries = record.entries();
    int end = Math.min(to, entries.size());
    List<EventRow> shown = new ArrayList<>();
    int total = 0;
    for (int i = from; i < end; i++) {
      RunRecord.Entry e = entries.get(i);
      if (e.kind() == RunRecord.Kind.DISRUPTION_CONSIDERED) {
        continue;
      }
      if (total++ < limit) {
        shown.add(new EventRow(i, e.time(), title(e.kind()), e.subject(), e.message()));
      }
    }
    return new Table.Head(EventRow.table(shown, start), total);
  }

  /** {@code POD_SCHEDULED} → {@code PodScheduled}, the way Kubernetes names event reasons. */
  public static String title(RunRecord.Kind k) {
    return TITLES.get(k);
  }

  /** Every kind's title, made once: events.jsonl and the event tables ask for one per record. */
  private static final Map<RunRecord.Kind, String> TITLES = titles();

  private static Map<RunRecord.Kind, String> titles() {
    Map<RunRecord.Kind, String> out = new EnumMap<>(RunRecord.Kind.class);
    for (RunRecord.Kind k : RunRecord.Kind.values()) {
      out.put(k, titleOf(k));
    }
    return Collections.unmodifiableMap(out);
  }

  private static String titleOf(RunRecord.Kind k) {
    StringBuilder b = new StringBuilder();
    for (String part : k.name().split("_")) {
      b.append(part.charAt(0)).append(part.substring(1).toLowerCase(Locale.ROOT));
    }
    return b.toString();
  }

  /** The per-card process view of every GPU node whose device plugin has registered. */
  public static String smi(ClusterState s) {
    return smi(s, Wrap.UNLIMITED);
  }

  /** As {@link #smi(ClusterState)}, each box in at most {@code width} columns where its tables can wrap. */
  public static String smi(ClusterState s, int width) {
    return smi(s, width, Integer.MAX_VALUE).text();
  }

  /** The first {@code lineBound} lines of {@link #smi(ClusterState, int)} and how many it leaves out. */
  public static SmiView.Head smi(ClusterState s, int width, int lineBound) {
    TreeMap<String, NodeDevices> byName = new TreeMap<>();
    for (NodeState n : s.nodes().values()) {
      n.devices().ifPresent(d -> byName.put(n.name(), d));
    }
    return SmiView.render(List.copyOf(byName.values()), draNodes(s), unplaced(s), width, lineBound);
  }

  /** Pods that want a GPU and have no node, in creation order: the view's "Pods without a GPU". */
  static List<SmiView.Unplaced> unplaced(ClusterState s) {
    // Only pods without a node are sorted, and a workload's pods share one PodSpec object, so whether
    // a spec wants a GPU is worked out once per spec rather than once per pod.
    List<PodState> pods = new ArrayList<>();
    IdentityHashMap<PodSpec, Boolean> wants = new IdentityHashMap<>();
    for (PodState p : s.pods().values()) {
      if (p.node().isEmpty() && wants.computeIfAbsent(p.pod().spec(), ClusterTables::wantsGpu)) {
        pods.add(p);
      }
    }
    BySequence.sort(pods);
    List<SmiView.Unplaced> unplaced = new ArrayList<>(pods.size());
    for (PodState p : pods) {
      unplaced.add(new SmiView.Unplaced(p.key(), p.isFailed() ? "Failed" : "Pending",
          p.schedulingMessage().orElse("")));
    }
    return unplaced;
  }

  /** Whether a pod of this spec asks for an NVIDIA GPU, as a resource or through a ResourceClaim. */
  static boolean wantsGpu(PodSpec spec) {
    return PodRequests.of(spec).names().stream().anyMatch(ResourceName::isNvidiaGpuLike)
        || !spec.resourceClaims().isEmpty();
  }

  /**
   * Nodes whose cards NVIDIA's DRA driver hands out (GPU nodes without the device manager's state),
   * with every running pod that holds one of their cards through a prepared claim.
   */
  static List<SmiView.DraNode> draNodes(ClusterState s) {
    if (s.dra().isEmpty()) {
      return List.of();
    }
    TreeMap<String, List<SmiView.ClaimedCard>> held = new TreeMap<>();
    for (ClaimTable.Claim c : s.dra().sorted()) {
      NodeState on = c.allocation().map(a -> s.nodes().get(a.node())).orElse(null);
      if (on == null) {
        continue;
      }
      for (GpuClaimPreparation.PreparedDevice d : c.prepared()) {
        var where = NvidiaDraDriver.placement(d.device(), on.migLayout());
        if (where.isEmpty()) {
          continue;
        }
        for (String pod : c.reservedFor()) {
          PodState p = s.pods().get(pod);
          if (p != null && p.phase() == PodState.Phase.RUNNING) {
            held.computeIfAbsent(on.name(), k -> new ArrayList<>()).add(new SmiView.ClaimedCard(where.get().gpuIndex(),
                where.get().mig(), d.device(), pod, c.claim().name(), GpuClaimPreparation.describe(d.sharing())));
          }
        }
      }
    }
    List<SmiView.DraNode> out = new ArrayList<>();
    TreeMap<String, NodeState> nodes = new TreeMap<>();
    s.nodes().forEach(nodes::put);
    for (NodeState n : nodes.values()) {
      if (n.devices().isPresent() || n.gpus().isEmpty() || !held.containsKey(n.name())) {
        continue;
      }
      var model = GpuCatalog.builtIn().find(n.gpus().get().name());
      model.ifPresent(m -> out.add(new SmiView.DraNode(n.name(), new GpuInventory(n.name(), m,
          n.gpus().get().count()), n.migLayout(), held.get(n.name()))));
    }
    return out;
  }
}
