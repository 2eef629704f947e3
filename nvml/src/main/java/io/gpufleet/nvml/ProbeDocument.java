package io.gpufleet.nvml;

import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The probe's result as documents, in a fixed field order: everything NVML reported with the labels
 * ({@code -o json}), or just the labels as a Node patch ({@code -o yaml}, for
 * {@code kubectl patch node NAME --patch-file}).
 */
public final class ProbeDocument {
  private ProbeDocument() {}

  public static ObjectNode full(NodeFacts node, ProbeLabels labels) {
    ObjectNode root = JsonNodeFactory.instance.objectNode();
    root.put("driverVersion", node.driverVersion());
    ArrayNode gpus = root.putArray("gpus");
    for (GpuFacts g : node.gpus()) {
      ObjectNode o = gpus.addObject();
      o.put("index", g.index());
      o.put("name", g.name());
      o.put("uuid", g.uuid());
      o.put("memoryMiB", g.memoryMiB());
      o.put("memoryUsedMiB", g.memoryUsedMiB());
      o.put("computeCapability", g.compute().major() + "." + g.compute().minor());
      g.mig().ifPresent(m -> {
        ObjectNode mig = o.putObject("mig");
        mig.put("current", enabled(m.current()));
        mig.put("pending", enabled(m.pending()));
        ArrayNode devices = mig.putArray("devices");
        for (GpuFacts.MigDeviceFacts d : g.migDevices()) {
          ObjectNode dev = devices.addObject();
          dev.put("index", d.index());
          dev.put("name", d.name());
          dev.put("uuid", d.uuid());
          dev.put("memoryMiB", d.memoryMiB());
        }
      });
      o.put("computeMode", g.computeMode().smiName());
      g.utilization().ifPresent(u -> {
        ObjectNode util = o.putObject("utilization");
        util.put("gpuPercent", u.gpuPercent());
        util.put("memoryPercent", u.memoryPercent());
      });
    }
    labels.catalogEntry().ifPresent(id -> root.put("catalogEntry", id));
    root.set("labels", labelMap(labels));
    ArrayNode warnings = root.putArray("warnings");
    labels.warnings().forEach(warnings::add);
    return root;
  }

  /** {@code metadata: labels: {...}}: a strategic-merge patch of the Node's labels. */
  public static ObjectNode labelsPatch(ProbeLabels labels) {
    ObjectNode root = JsonNodeFactory.instance.objectNode();
    root.putObject("metadata").set("labels", labelMap(labels));
    return root;
  }

  /** NVML's MIG mode as nvidia-smi prints it. */
  public static String enabled(int mode) {
    return mode == 1 ? "Enabled" : "Disabled";
  }

  private static ObjectNode labelMap(ProbeLabels labels) {
    ObjectNode l = JsonNodeFactory.instance.objectNode();
    labels.labels().map().forEach(l::put);
    return l;
  }
}
