package io.gpufleet.report.smi;

import io.gpufleet.engine.deviceplugin.ContainerDevices;
import io.gpufleet.engine.deviceplugin.Device;
import io.gpufleet.engine.deviceplugin.NodeDevices;
import io.gpufleet.model.deviceplugin.Sharing;
import io.gpufleet.model.deviceplugin.SharingMode;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.model.gpu.MigInstance;
import io.gpufleet.model.gpu.MigLayout;
import io.gpufleet.model.gpu.PhysicalGpu;
import io.gpufleet.report.table.Table;
import io.gpufleet.report.table.Wrap;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * An {@code nvidia-smi}-like view of a cluster's GPUs after scheduling: per node, each card (index,
 * product, UUID, memory) with its MIG devices under it, then the processes — one per container
 * holding a device — with the card, MIG device and replica they run on. A MIG memory size marked
 * {@code ~} is estimated from the slice share because the catalogue has no observed figure. Pods that got no GPU are
 * listed at the end with the scheduler's or the kubelet's message.
 */
public final class SmiView {
  private SmiView() {}

  /**
   * What every view of devices says about their ids: the UUIDs and the card each pod holds are the
   * twin's, since neither is in the objects a dump or an import holds (GFD publishes no UUIDs, and the
   * kubelet keeps its device assignment in its checkpoint and PodResources API on the node).
   */
  public static final String DEVICE_IDS_NOTE = "GPU UUIDs and the card each pod holds are gpufleet's (deterministic); "
      + "the cluster's objects record neither, so a dump's running pods get the cards the device plugin would give";

  /** A pod that is not running on a GPU: Pending with the scheduler's message, or Failed at admission. */
  public record Unplaced(String podKey, String status, String message) {}

  /**
   * A pod using a card that NVIDIA's DRA driver gave one of its claims: the card, the device's name in
   * the driver's slice, the claim, and how the driver prepared the card for the claim (the model keeps
   * no per-container claim list, so the row is per pod).
   */
  public record ClaimedCard(int gpuIndex, Optional<MigInstance> mig, String device, String podKey, String claim,
      String sharing) {}

  /**
   * A node whose cards NVIDIA's DRA driver publishes, their MIG layout (the driver publishes a
   * partitioned card's MIG devices), and the pods holding them through claims.
   */
  public record DraNode(String nodeName, GpuInventory inventory, MigLayout layout, List<ClaimedCard> held) {
    public DraNode {
      held = List.copyOf(held);
    }
  }

  public static String render(List<NodeDevices> nodes, List<Unplaced> unplaced) {
    return render(nodes, List.of(), unplaced);
  }

  /** Device-plugin nodes, then DRA nodes, then the pods without a GPU. */
  public static String render(List<NodeDevices> nodes, List<DraNode> draNodes, List<Unplaced> unplaced) {
    return render(nodes, draNodes, unplaced, Wrap.UNLIMITED);
  }

  /**
   * As {@link #render(List, List, List)}, in at most {@code width} columns: a box's tables wrap their
   * widest cells (the device ID, the pod) onto more lines inside the box, as {@link Table#render(int)} does.
   */
  public static String render(List<NodeDevices> nodes, List<DraNode> draNodes, List<Unplaced> unplaced, int width) {
    StringBuilder b = boxes(nodes, draNodes, width);
    if (!unplaced.isEmpty()) {
      // Rows made once: Table.row copies the table, so a row at a time costs the square of 100,000 pending pods.
      List<List<String>> rows = new ArrayList<>(unplaced.size());
      for (Unplaced u : unplaced) {
        rows.add(Table.cells(u.podKey(), u.status(), u.message()));
      }
      b.append("Pods without a GPU:\n").append(new Table(List.of("pod", "status", "message"), rows).render(width));
    }
    return b.toString();
  }

  private static StringBuilder boxes(List<NodeDevices> nodes, List<DraNode> draNodes, int width) {
    StringBuilder b = new StringBuilder();
    for (NodeDevices n : nodes) {
      b.append(node(n, width)).append('\n');
    }
    for (DraNode n : draNodes) {
      b.append(draNode(n, width)).append('\n');
    }
    return b;
  }

  /** The first lines of a view and how many lines of it are left out. */
  public record Head(String text, int linesLeftOut) {}

  /**
   * The first {@code lineBound} lines of {@link #render(List, List, List, int)} (each ending in
   * {@code \n}) and how many more it has. Without a width each pod without a GPU is one line, so only
   * the pods shown are formatted: a report of 100,000 pending pods shows 200 lines.
   */
  public static Head render(List<NodeDevices> nodes, List<DraNode> draNodes, List<Unplaced> unplaced, int width,
      int lineBound) {
    boolean oneLineEach = width == Wrap.UNLIMITED && oneLineEach(unplaced);
    if (!oneLineEach) {
      String whole = render(nodes, draNodes, unplaced, width);
      return head(whole, lineBound, count(whole));
    }
    StringBuilder b = boxes(nodes, draNodes, width);
    int lines = count(b);
    int total = lines + (unplaced.isEmpty() ? 0 : 2 + unplaced.size());
    if (!unplaced.isEmpty()) {
      // The columns are as wide as every pod makes them; only the rows shown are written.
      b.append("Pods without a GPU:\n");
      Table.write(List.of("pod", "status", "message"),
          () -> unplaced.stream().map(u -> List.of(u.podKey(), u.status(), u.message())).iterator(), b, width,
          Math.max(0, lineBound - lines - 2));
    }
    return head(b.toString(), lineBound, total);
  }

  /**
   * Whether no cell of a pod without a GPU holds a line break. A message is looked at once for a
   * run of pods that share the object (kube-scheduler gives every pod of a failed spec the same one).
   */
  private static boolean oneLineEach(List<Unplaced> unplaced) {
    String checked = null;
    for (Unplaced u : unplaced) {
      if (u.podKey().indexOf('\n') >= 0 || u.status().indexOf('\n') >= 0) {
        return false;
      }
      if (u.message() != checked) {
        if (u.message().indexOf('\n') >= 0) {
          return false;
        }
        checked = u.message();
      }
    }
    return true;
  }

  private static Head head(String text, int lineBound, int total) {
    if (total <= lineBound) {
      return new Head(text, 0);
    }
    if (lineBound <= 0) {
      return new Head("\n", total); // as the lines joined and ended: none shown is an empty line
    }
    int end = 0;
    for (int i = 0; i < lineBound; i++) {
      end = text.indexOf('\n', end) + 1;
    }
    return new Head(text.substring(0, end), total - lineBound);
  }

  private static int count(CharSequence text) {
    int n = 0;
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        n++;
      }
    }
    return n;
  }

  static String node(NodeDevices n, int width) {
    GpuModel model = n.inventory().model();
    String header = "Node " + n.nodeName() + "   " + n.inventory().count() + " x " + model.productName() + "   "
        + sharing(n);
    Table gpus = Table.of("gpu", "name", "uuid", "memory", "mig");
    for (PhysicalGpu g : n.inventory().gpus()) {
      List<MigInstance> migs = migInstances(n, g.index());
      gpus = gpus.row(g.index(), model.productName(), g.uuid(), mib(model.memoryMiB().orElse(-1)),
          migs.isEmpty() ? "-" : migs.size() + " instance(s)");
      for (MigInstance m : migs) {
        String uuid = n.devices().stream().filter(d -> d.gpuIndex() == g.index() && d.mig().equals(
            Optional.of(m))).map(Device::visibleUuid).findFirst().orElse("");
        gpus = migRow(gpus, model, m, uuid);
      }
    }
    Table procs = Table.of("gpu", "mig", "device", "pod", "container", "resource", "limits");
    int count = 0;
    List<Map.Entry<ContainerDevices, Device>> held = new ArrayList<>();
    for (ContainerDevices c : n.allAssignments()) {
      for (Device d : c.devices()) {
        held.add(Map.entry(c, d));
      }
    }
    // Card by card, as nvidia-smi lists processes; the device ID orders replicas and MIG devices.
    // Written out rather than Comparator.comparingInt(..).thenComparing(..), whose lambdas inside
    // java.util the AOT cache does not hold, so that smi makes no classes for them at run time.
    held.sort((a, b) -> {
      Device x = a.getValue();
      Device y = b.getValue();
      int c = Integer.compare(x.gpuIndex(), y.gpuIndex());
      if (c == 0) {
        c = Integer.compare(x.mig().map(m -> m.placement().start()).orElse(-1),
            y.mig().map(m -> m.placement().start()).orElse(-1));
      }
      if (c == 0) {
        c = Integer.compare(x.replica(), y.replica());
      }
      return c != 0 ? c : a.getKey().podKey().compareTo(b.getKey().podKey());
    });
    for (var e : held) {
      ContainerDevices c = e.getKey();
      Device d = e.getValue();
      {
        procs = procs.row(d.gpuIndex(), d.mig().map(SmiView::migLabel).orElse("-"),
            d.id(), c.podKey(), c.container(), c.resource(), limits(n, d));
        count++;
      }
    }
    return boxed(header, gpus, count == 0 ? null : procs, width);
  }

  /** A DRA node: its cards, then one row per container and card it holds through a claim. */
  static String draNode(DraNode n, int width) {
    GpuModel model = n.inventory().model();
    String header = "Node " + n.nodeName() + "   " + n.inventory().count() + " x " + model.productName()
        + "   NVIDIA DRA driver (ResourceClaims)";
    Table gpus = Table.of("gpu", "name", "uuid", "memory", "mig");
    for (PhysicalGpu g : n.inventory().gpus()) {
      List<MigInstance> migs = n.layout().instances(g.index());
      gpus = gpus.row(g.index(), model.productName(), g.uuid(), mib(model.memoryMiB().orElse(-1)),
          migs.isEmpty() ? "-" : migs.size() + " instance(s)");
      for (MigInstance m : migs) {
        gpus = migRow(gpus, model, m, GpuInventory.migUuid(g.uuid(), m.placement(), m.profile().name()));
      }
    }
    Table procs = Table.of("gpu", "mig", "device", "pod", "claim", "sharing");
    List<ClaimedCard> held = new ArrayList<>(n.held());
    held.sort(Comparator.comparingInt(ClaimedCard::gpuIndex)
        .thenComparingInt(c -> c.mig().map(m -> m.placement().start()).orElse(-1)).thenComparing(ClaimedCard::podKey));
    for (ClaimedCard c : held) {
      procs = procs.row(c.gpuIndex(), c.mig().map(SmiView::migLabel).orElse("-"), c.device(), c.podKey(), c.claim(),
          c.sharing());
    }
    return boxed(header, gpus, held.isEmpty() ? null : procs, width);
  }

  /** A MIG instance's row under its card: profile and placement, UUID, memory ({@code ~} where estimated), compute. */
  private static Table migRow(Table gpus, GpuModel model, MigInstance m, String uuid) {
    return gpus.row("", "  " + m.profile().name() + " @" + m.placement().start(), uuid,
        (m.profile().memoryObserved() ? "" : "~") + mib(m.profile().memoryMiB(model)), m.profile().computeSlices() + "/"
            + model.migGeometry().orElseThrow().computeSlices() + " compute");
  }

  /** {@code 1g.10gb@0}: a MIG device in the processes table. */
  private static String migLabel(MigInstance m) {
    return m.profile().name() + "@" + m.placement().start();
  }

  /** The header, the cards and the processes in nvidia-smi's box. */
  private static String boxed(String header, Table gpus, Table procs, int width) {
    // The box's frame takes four columns: "| " and " |".
    int inner = width == Wrap.UNLIMITED ? width : width - 4;
    String gpuText = gpus.render(inner);
    String procText = procs == null ? "No running processes found\n" : procs.render(inner);
    header = Wrap.foldAll(header, inner);
    return boxed(header, gpuText, procText);
  }

  private static String boxed(String header, String gpuText, String procText) {
    List<String> lines = new ArrayList<>();
    int width = 0;
    for (String l : (header + "\n" + gpuText + procText).split("\n")) {
      width = Math.max(width, l.length());
    }
    String rule = "+" + "-".repeat(width + 2) + "+";
    lines.add(rule);
    for (String l : header.split("\n")) {
      lines.add(boxed(l, width));
    }
    lines.add(rule);
    for (String l : gpuText.split("\n")) {
      lines.add(boxed(l, width));
    }
    lines.add(rule);
    lines.add(boxed("Processes:", width));
    for (String l : procText.split("\n")) {
      lines.add(boxed(l, width));
    }
    lines.add(rule);
    return String.join("\n", lines) + "\n";
  }

  private static String boxed(String line, int width) {
    return "| " + line + " ".repeat(width - line.length()) + " |";
  }

  private static List<MigInstance> migInstances(NodeDevices n, int gpu) {
    Map<String, MigInstance> seen = new LinkedHashMap<>();
    for (Device d : n.devices()) {
      if (d.gpuIndex() == gpu && d.mig().isPresent()) {
        seen.putIfAbsent(d.mig().get().toString(), d.mig().get());
      }
    }
    return seen.values().stream().sorted().toList();
  }

  /** {@code time-slicing (4 replicas per device)}, {@code MIG, exclusive}: how the node's plugin shares its cards. */
  public static String sharing(NodeDevices n) {
    String mig = n.devices().stream().anyMatch(d -> d.mig().isPresent()) ? "MIG, " : "";
    SharingMode.Family family = n.sharing().family();
    return mig + family.label() + (family == SharingMode.Family.EXCLUSIVE ? "" : " (" + replicaSummary(n) + ")");
  }

  private static String replicaSummary(NodeDevices n) {
    int max = n.devices().stream().mapToInt(Device::replicas).max().orElse(1);
    return max + " replicas per device";
  }

  private static String limits(NodeDevices n, Device d) {
    if (n.sharing() instanceof Sharing.Mps && d.shared()) {
      SharingMode.Mps client = SharingMode.Mps.devicePlugin(d.replicas());
      return mib(client.clientMemoryMiB(n.inventory().model().memoryMiB().orElse(0))) + ", "
          + client.activeThreadPercentage() + "% threads";
    }
    if (d.shared()) {
      return "none (time-sliced)";
    }
    return "-";
  }

  static String mib(long mib) {
    return mib < 0 ? "unknown" : String.format(Locale.ROOT, "%dMiB", mib);
  }
}
