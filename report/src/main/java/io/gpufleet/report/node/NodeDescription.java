package io.gpufleet.report.node;

import io.gpufleet.engine.deviceplugin.Device;
import io.gpufleet.engine.deviceplugin.Registration;
import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.deviceplugin.NamedConfigs;
import io.gpufleet.model.deviceplugin.Sharing;
import io.gpufleet.model.deviceplugin.SharingMode;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.report.table.Table;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A registered node as {@code kubectl describe node} prints it — name, labels, annotations,
 * taints, capacity, allocatable — followed by what gpufleet knows about its GPUs: where they were
 * found, the device-plugin config it runs and why, and the devices it advertises.
 */
public final class NodeDescription {
  private NodeDescription() {}

  /** Column where kubectl starts values of the top-level fields. */
  private static final int VALUE_COLUMN = 20;

  public static String render(Registration r, GpuInventory inventory, String inventorySource,
      NamedConfigs.Selection selection) {
    Node n = r.node();
    StringBuilder b = new StringBuilder();
    header(b, n);
    field(b, "GPUs:", inventory.count() + " x " + inventory.model().productName() + " (" + inventory.model().id()
        + ", from " + inventorySource + ")");
    b.append("Device Plugin:\n");
    DevicePluginConfig config = selection.config();
    Map<String, String> plugin = new LinkedHashMap<>();
    plugin.put("Config:", selection.name() + " (" + selection.reason() + ")");
    if (selection.failed()) {
      // The config-manager init container failed: no plugin runs, so there is no strategy or sharing to show.
      plugin.put("Status:", "not running (see Warnings)");
    } else {
      plugin.put("MIG strategy:", config.flags().migStrategy().wireName());
      plugin.put("Sharing:", sharing(config.sharing(), r));
      plugin.put("Allocation policy:", config.flags().sharedDevicesAllocationPolicy().wireName());
    }
    int w = plugin.keySet().stream().mapToInt(String::length).max().orElse(0) + 2;
    plugin.forEach((k, v) -> b.append("  ").append(k).append(" ".repeat(w - k.length())).append(v).append('\n'));
    b.append("Devices:\n");
    Table t = Table.of("gpu", "uuid", "mig device", "resource", "replicas");
    Map<String, List<Device>> byBase = new LinkedHashMap<>();
    for (Device d : r.advertisement().devices()) {
      byBase.computeIfAbsent(d.visibleUuid() + "|" + d.resource(), k -> new ArrayList<>()).add(d);
    }
    for (List<Device> group : byBase.values()) {
      Device d = group.getFirst();
      t = t.row(d.gpuIndex(), d.gpuUuid(), d.mig().map(m -> m.profile().name() + "@" + m.placement().start()).orElse("-"),
          d.resource(), d.shared() ? Integer.toString(d.replicas()) : "-");
    }
    if (t.isEmpty()) {
      b.append("  <none>\n");
    } else {
      t.render().lines().forEach(l -> b.append("  ").append(l).append('\n'));
    }
    List<String> warnings = new ArrayList<>(r.warnings());
    if (!warnings.isEmpty()) {
      multi(b, "Warnings:", warnings);
    }
    return b.toString();
  }

  private static String sharing(Sharing s, Registration r) {
    return switch (s) {
      case Sharing.Exclusive e -> "none (one container per device)";
      case Sharing.TimeSlicing ts -> "time-slicing, " + replicas(r) + ", renameByDefault=" + ts.renamed()
          + ", failRequestsGreaterThanOne=" + ts.failRequestsGreaterThanOne() + "; no memory or fault isolation";
      case Sharing.Mps m -> {
        int replicas = r.advertisement().devices().stream().mapToInt(Device::replicas).max().orElse(1);
        SharingMode.Mps client = SharingMode.Mps.devicePlugin(replicas);
        yield "mps, " + replicas(r) + ", renameByDefault=" + m.renamed() + ", failRequestsGreaterThanOne="
            + m.failRequestsGreaterThanOne() + "; per client "
            + client.clientMemoryMiB(r.devices().orElseThrow().inventory().model().memoryMiB().orElse(0)) + "MiB pinned memory, "
            + client.activeThreadPercentage() + "% active threads";
      }
    };
  }

  private static String replicas(Registration r) {
    int max = r.advertisement().devices().stream().mapToInt(Device::replicas).max().orElse(1);
    return max + " replicas per device";
  }

  private static String taint(Taint t) {
    return t.key() + (t.value().isEmpty() ? "" : "=" + t.value()) + ":" + t.effect().wireName();
  }

  private static void field(StringBuilder b, String key, String value) {
    b.append(key).append(" ".repeat(Math.max(1, VALUE_COLUMN - key.length()))).append(value).append('\n');
  }

  private static void multi(StringBuilder b, String key, List<String> values) {
    if (values.isEmpty()) {
      field(b, key, "<none>");
      return;
    }
    field(b, key, values.getFirst());
    for (String v : values.subList(1, values.size())) {
      b.append(" ".repeat(VALUE_COLUMN)).append(v).append('\n');
    }
  }

  /**
   * A node without modelled GPUs (none found, left to NVIDIA's DRA driver, or cards that do not
   * read): its labels and resources as it has them, GPU resources it reports included, and why.
   */
  public static String renderWithoutDevices(Node n, String why) {
    StringBuilder b = new StringBuilder();
    header(b, n);
    field(b, "GPUs:", "<none> (" + why + ")");
    return b.toString();
  }

  /** kubectl describe node's fields up to the resources. */
  private static void header(StringBuilder b, Node n) {
    field(b, "Name:", n.name());
    field(b, "Roles:", "<none>");
    multi(b, "Labels:", n.labels().map().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
    multi(b, "Annotations:", n.meta().annotations().map().entrySet().stream()
        .map(e -> e.getKey() + ": " + e.getValue()).toList());
    multi(b, "Taints:", n.taints().stream().map(NodeDescription::taint).toList());
    field(b, "Unschedulable:", Boolean.toString(n.unschedulable()));
    resources(b, "Capacity:", n.capacity());
    resources(b, "Allocatable:", n.allocatable());
  }

  private static void resources(StringBuilder b, String key, ResourceList list) {
    b.append(key).append('\n');
    int w = list.names().stream().mapToInt(n -> n.name().length()).max().orElse(0) + 2;
    list.quantities().forEach((name, q) -> b.append("  ").append(name).append(':')
        .append(" ".repeat(w - name.name().length())).append(q).append('\n'));
  }

}
