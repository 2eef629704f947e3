package io.gpufleet.nvml;

import io.gpufleet.engine.deviceplugin.GfdLabels;
import io.gpufleet.engine.deviceplugin.GpuOperator;
import io.gpufleet.engine.deviceplugin.Registration;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.ResourceList;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The labels GPU Feature Discovery would publish for this node: the node registers through the
 * device-plugin layer's {@link GpuOperator} (MIG manager, device plugin, {@link GfdLabels}), the one
 * path every simulated node takes, so the probe and the simulator cannot drift apart. NVML is the source of
 * what GFD itself reads from NVML (product name, memory, compute capability); the catalogue entry
 * that answers to NVML's name adds what the catalogue knows (MIG geometry, SMs). The GPU Operator's
 * defaults are assumed: no device-plugin ConfigMap (no sharing, MIG strategy {@code none}).
 *
 * @param catalogEntry the catalogue id NVML's name matched, empty when none did
 * @param warnings     what the user should know about the labels (mixed models, unknown card)
 */
public record ProbeLabels(Labels labels, Optional<String> catalogEntry, List<String> warnings) {

  public ProbeLabels {
    warnings = List.copyOf(warnings);
  }

  public static ProbeLabels of(NodeFacts node, GpuCatalog catalog) {
    List<String> warnings = new ArrayList<>();
    GpuFacts first = node.gpus().getFirst();
    for (GpuFacts g : node.gpus()) {
      if (!g.name().equals(first.name())) {
        warnings.add("GPU " + g.index() + " is " + g.name() + ", GPU 0 is " + first.name()
            + "; GFD labels a node by one product, so these labels describe GPU 0's model");
        break;
      }
    }
    Optional<GpuModel> entry = catalog.find(first.name());
    GpuModel model;
    if (entry.isPresent()) {
      GpuModel c = entry.get();
      model = new GpuModel(c.id(), first.name(), OptionalLong.of(first.memoryMiB()), false,
          Optional.of(first.compute()), c.multiprocessors(), c.migGeometry(), c.migProfiles(), c.bandwidthGBps(),
          c.bf16Tflops(), c.fp16Tflops(), c.pciDeviceId(), c.aliases(), c.sources());
    } else {
      warnings.add("\"" + first.name() + "\" is not in gpufleet's GPU catalogue: labels from NVML alone, "
          + "nvidia.com/mig.capable=false even if the card has MIG");
      model = new GpuModel("nvml:" + first.name(), first.name(), OptionalLong.of(first.memoryMiB()), false,
          Optional.of(first.compute()), OptionalInt.empty(), Optional.empty(), List.of(),
          OptionalDouble.empty(), OptionalDouble.empty(), OptionalDouble.empty(),
          Optional.empty(), List.of(), List.of("NVML on this node"));
    }
    // The node registers as the simulator's nodes do, with no labels of its own: what it ends up with is GFD's.
    Node bare = Node.of("probe", Labels.EMPTY, List.of(), ResourceList.EMPTY);
    Registration r = GpuOperator.DEFAULTS.register(bare, new GpuInventory(bare.name(), model, node.gpus().size()));
    warnings.addAll(r.warnings());
    return new ProbeLabels(r.node().labels(), entry.map(GpuModel::id), warnings);
  }
}
