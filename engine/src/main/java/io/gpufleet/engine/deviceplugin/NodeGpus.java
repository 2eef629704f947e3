package io.gpufleet.engine.deviceplugin;

import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.model.gpu.InstanceTypeGpus;
import io.gpufleet.model.node.Node;
import java.util.Optional;

/**
 * Finds the physical GPUs of a node manifest. In order: gpufleet's annotation
 * {@code gpufleet.io/gpus: "NVIDIA-A10G:1"} (an explicit statement for hand-written nodes); GFD's
 * labels {@code nvidia.com/gpu.product} and {@code nvidia.com/gpu.count} (a {@code -MIG-} product
 * carries MIG devices in its count, so it names the model only); the instance type through the
 * injected {@link InstanceTypeGpus}.
 */
public final class NodeGpus {
  private NodeGpus() {}

  public static final String GPUS_ANNOTATION = "gpufleet.io/gpus";

  /**
   * The most GPUs one node may state. The largest servers hold 16 (DGX-2, HGX-2); 64 leaves room for
   * any real machine while keeping a typo (100000) from building 100,000 modelled cards.
   */
  public static final int MAX_GPUS_PER_NODE = 64;
  private static final String ANNOTATION_FIELD = "metadata.annotations[" + GPUS_ANNOTATION + "]";
  private static final String PRODUCT_FIELD = "metadata.labels[" + GfdLabels.PRODUCT + "]";

  /** What the manifest says about the node's GPUs. */
  public sealed interface Found {
    record Gpus(GpuInventory inventory, String source) implements Found {}

    record NoGpus() implements Found {}

    /**
     * It names GPUs gpufleet cannot resolve: {@code field} is where ({@code metadata.labels[...]}),
     * {@code reason} says what was expected and found.
     */
    record Unresolved(String field, String reason) implements Found {}
  }

  public static Found of(Node node, GpuCatalog catalog, InstanceTypeGpus instanceTypes) {
    Optional<String> annotation = node.meta().annotations().get(GPUS_ANNOTATION);
    if (annotation.isPresent()) {
      String v = annotation.get().strip();
      int colon = v.lastIndexOf(':');
      String model = colon < 0 ? v : v.substring(0, colon);
      int count;
      try {
        count = colon < 0 ? 1 : Integer.parseInt(v.substring(colon + 1).strip());
      } catch (NumberFormatException e) {
        return new Found.Unresolved(ANNOTATION_FIELD, "expected MODEL:COUNT such as NVIDIA-A10G:1, found \"" + v + "\"");
      }
      return resolve(node, catalog, model, count, "annotation " + GPUS_ANNOTATION, ANNOTATION_FIELD, ANNOTATION_FIELD);
    }
    Optional<String> product = node.labels().get(GfdLabels.PRODUCT);
    if (product.isPresent()) {
      Optional<String> count = node.labels().get(GfdLabels.COUNT);
      if (product.get().contains("-MIG-")) {
        return new Found.Unresolved(PRODUCT_FIELD, "expected a whole-GPU product, found \"" + product.get()
            + "\", which counts MIG devices, not cards; give the cards with annotation " + GPUS_ANNOTATION);
      }
      int n;
      try {
        n = count.map(Integer::parseInt).orElse(1);
      } catch (NumberFormatException e) {
        return new Found.Unresolved("metadata.labels[" + GfdLabels.COUNT + "]",
            "expected an integer, found \"" + count.get() + "\"");
      }
      return resolve(node, catalog, product.get(), n, "label " + GfdLabels.PRODUCT, PRODUCT_FIELD,
          count.isPresent() ? "metadata.labels[" + GfdLabels.COUNT + "]" : PRODUCT_FIELD);
    }
    Optional<String> type = node.labels().get(GfdLabels.INSTANCE_TYPE);
    if (type.isPresent()) {
      Optional<InstanceTypeGpus.Attached> attached = instanceTypes.gpus(type.get());
      if (attached.isPresent()) {
        String field = "metadata.labels[" + GfdLabels.INSTANCE_TYPE + "]";
        return resolve(node, catalog, attached.get().model(), attached.get().count(), "instance type " + type.get(),
            field, field);
      }
    }
    return new Found.NoGpus();
  }

  /** {@code field} names where the model was written, {@code countField} where the count was. */
  private static Found resolve(Node node, GpuCatalog catalog, String model, int count, String source, String field,
      String countField) {
    Optional<GpuModel> gpu = catalog.find(model);
    if (gpu.isEmpty()) {
      return new Found.Unresolved(field, "expected a GPU model of the catalogue ("
          + String.join(", ", catalog.models().stream().map(GpuModel::productLabel).toList()) + "), found \""
          + model + "\"");
    }
    if (count < 0 || count > MAX_GPUS_PER_NODE) {
      return new Found.Unresolved(countField, "expected a GPU count from 0 to " + MAX_GPUS_PER_NODE
          + " (gpufleet's limit per node), found " + count);
    }
    return new Found.Gpus(new GpuInventory(node.name(), gpu.get(), count), source);
  }
}
