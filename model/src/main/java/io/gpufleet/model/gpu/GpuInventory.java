package io.gpufleet.model.gpu;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * The physical GPUs of one node: a model, a count, and UUIDs that are the same on every run for
 * the same node name (name-based UUIDs), so reports and fault attribution are reproducible. A node
 * holds one GPU model, as GFD's labels assume.
 */
public record GpuInventory(String nodeName, GpuModel model, int count) {

  public GpuInventory {
    Objects.requireNonNull(nodeName, "nodeName");
    Objects.requireNonNull(model, "model");
    if (count < 0) {
      throw new IllegalArgumentException("GPU count must be >= 0, found " + count);
    }
  }

  /** The cards, index 0 first. */
  public List<PhysicalGpu> gpus() {
    List<PhysicalGpu> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      out.add(new PhysicalGpu(i, uuid(nodeName, i), model));
    }
    return out;
  }

  public PhysicalGpu gpu(int index) {
    if (index < 0 || index >= count) {
      throw new IndexOutOfBoundsException("node " + nodeName + " has no GPU " + index);
    }
    return new PhysicalGpu(index, uuid(nodeName, index), model);
  }

  /** {@code GPU-xxxxxxxx-...}: NVML's UUID form, derived from the node name and index. */
  public static String uuid(String nodeName, int index) {
    return "GPU-" + UUID.nameUUIDFromBytes(("gpufleet/" + nodeName + "/" + index).getBytes(StandardCharsets.UTF_8));
  }

  /** {@code MIG-xxxxxxxx-...}: a MIG device's UUID, derived from its parent and placement. */
  public static String migUuid(String parentUuid, MigPlacement placement, String profile) {
    return "MIG-" + UUID.nameUUIDFromBytes((parentUuid + "/" + profile + "@" + placement)
        .getBytes(StandardCharsets.UTF_8));
  }
}
