package io.gpufleet.engine.deviceplugin;

import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.deviceplugin.MigStrategy;
import io.gpufleet.model.deviceplugin.Sharing;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.model.gpu.MigInstance;
import io.gpufleet.model.gpu.MigLayout;
import io.gpufleet.model.gpu.MigProfile;
import io.gpufleet.model.label.Labels;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The labels GPU Feature Discovery publishes for a node (k8s-gpu-semantics §3, from GFD's
 * {@code internal/lm}). Left out because gpufleet has no source for them: CUDA driver and runtime
 * versions, {@code gfd.timestamp}, {@code gpu.clique}; a figure the catalogue marks unknown (MIG SMs
 * or {@code engines.*} of a profile nobody observed) is left out too, rather than guessed.
 */
public final class GfdLabels {
  private GfdLabels() {}

  public static final String PRODUCT = "nvidia.com/gpu.product";
  public static final String COUNT = "nvidia.com/gpu.count";
  public static final String MEMORY = "nvidia.com/gpu.memory";
  public static final String REPLICAS = "nvidia.com/gpu.replicas";
  public static final String SHARING_STRATEGY = "nvidia.com/gpu.sharing-strategy";
  public static final String FAMILY = "nvidia.com/gpu.family";
  public static final String MACHINE = "nvidia.com/gpu.machine";
  public static final String MIG_CAPABLE = "nvidia.com/mig.capable";
  public static final String MIG_STRATEGY = "nvidia.com/mig.strategy";
  public static final String INSTANCE_TYPE = "node.kubernetes.io/instance-type";

  /** True for a label GFD owns (and so replaces on every run), as opposed to the operator's or the user's. */
  public static boolean ownedByGfd(String key) {
    if (key.startsWith("nvidia.com/gpu.deploy.") || key.equals("nvidia.com/gpu.present")) {
      return false;
    }
    return key.startsWith("nvidia.com/gpu.") || key.startsWith("nvidia.com/mig-") || key.equals(MIG_CAPABLE)
        || key.equals(MIG_STRATEGY) || key.equals("nvidia.com/mps.capable") || key.equals("nvidia.com/vgpu.present")
        || key.startsWith("nvidia.com/cuda.") || key.equals("nvidia.com/gfd.timestamp");
  }

  /**
   * True for a GFD label the twin computes, and so replaces when a node (re-)registers: the card's
   * product, count, memory, sharing, family, compute capability and mode, the MIG labels. GFD's labels
   * of the host's software ({@code nvidia.com/cuda.*}, {@code nvidia.com/gfd.timestamp}, a driver
   * or fabric label the twin does not know) come from outside its model: they stay as the node has
   * them, so a pod that selects one still finds it.
   */
  public static boolean modelled(String key) {
    if (!ownedByGfd(key) || key.startsWith("nvidia.com/cuda.") || key.equals("nvidia.com/gfd.timestamp")) {
      return false;
    }
    if (key.startsWith("nvidia.com/mig-")) {
      return true;
    }
    return MODELLED.contains(key) || key.startsWith("nvidia.com/gpu.compute.") || key.startsWith("nvidia.com/gpu.slices.")
        || key.startsWith("nvidia.com/gpu.engines.");
  }

  /** The single keys {@link #of} writes; the prefixed families are in {@link #modelled}. */
  private static final Set<String> MODELLED = Set.of(PRODUCT, COUNT, MEMORY, REPLICAS,
      SHARING_STRATEGY, FAMILY, MACHINE, MIG_CAPABLE, MIG_STRATEGY, "nvidia.com/gpu.mode",
      "nvidia.com/gpu.multiprocessors", "nvidia.com/mps.capable", "nvidia.com/vgpu.present");

  /** The labels of {@code labels} that GFD wrote. */
  public static Labels ownedIn(Labels labels) {
    TreeMap<String, String> out = new TreeMap<>();
    labels.map().forEach((k, v) -> {
      if (ownedByGfd(k)) {
        out.put(k, v);
      }
    });
    return Labels.of(out);
  }

  public static Labels of(GpuInventory inventory, DevicePluginConfig config, MigLayout layout,
      Advertisement advertisement, Optional<String> machine) {
    TreeMap<String, String> l = new TreeMap<>();
    if (inventory.count() == 0) {
      return Labels.EMPTY;
    }
    GpuModel gpu = inventory.model();
    Sharing sharing = config.sharing();
    MigStrategy strategy = config.flags().migStrategy();
    int replicas = sharing.replicas("nvidia.com/gpu");
    // internal/lm/mig-strategy.go newGPULabelers: GPUs with MIG mode on are labelled without sharing
    // (replicas 0); a GPU with MIG off brings the config's sharing, and its labels win.
    boolean allMigOn = inventory.gpus().stream().allMatch(g -> Advertisement.migOn(inventory, layout, g.index()));
    int labelReplicas = allMigOn ? 0 : replicas;
    String product = gpu.productLabel() + shared(labelReplicas, sharing);
    String count = Integer.toString(inventory.count());
    String sharingStrategy = labelReplicas > 1 ? sharing.strategy() : "none";
    Optional<Long> memory = gpu.memoryMiB().isPresent() ? Optional.of(gpu.memoryMiB().getAsLong()) : Optional.empty();
    switch (advertisement.migMode()) {
      case WHOLE_GPUS, MIG_MIXED -> { }
      case MIG_SINGLE -> {
        // The MIG devices' labeler overrides the full GPUs' (NewMIGResourceLabeler, with the config's sharing).
        MigProfile p = advertisement.singleProfile().orElseThrow();
        product = gpu.productLabel() + "-MIG-" + p.labelName() + shared(replicas, sharing);
        count = Long.toString(advertisement.devices().stream().filter(d -> d.replica() == 0).count());
        memory = Optional.of(p.memoryMiB(gpu));
        labelReplicas = replicas;
        sharingStrategy = replicas > 1 ? sharing.strategy() : "none";
        p.multiprocessors().ifPresent(sm -> l.put("nvidia.com/gpu.multiprocessors", Integer.toString(sm)));
        l.put("nvidia.com/gpu.slices.gi", Integer.toString(p.computeSlices()));
        l.put("nvidia.com/gpu.slices.ci", Integer.toString(p.computeSlices()));
        engines(l, "nvidia.com/gpu.", p);
      }
      case MIG_SINGLE_INVALID -> {
        // newInvalidMigStrategyLabeler: product -MIG-INVALID, count, replicas and memory 0, an empty strategy.
        product = gpu.productLabel() + "-MIG-INVALID";
        count = "0";
        memory = Optional.of(0L);
        labelReplicas = 0;
        sharingStrategy = "";
      }
    }
    l.put(PRODUCT, product);
    l.put(COUNT, count);
    memory.ifPresent(m -> l.put(MEMORY, Long.toString(m)));
    l.put(REPLICAS, Integer.toString(labelReplicas));
    // internal/lm/resource.go baseLabeler: the strategy only where this resource has replicas > 1, so
    // a time-slicing config aimed at a resource the node lacks leaves nvidia.com/gpu at "none".
    l.put(SHARING_STRATEGY, sharingStrategy);
    l.put(FAMILY, gpu.family());
    gpu.compute().ifPresent(cc -> {
      l.put("nvidia.com/gpu.compute.major", Integer.toString(cc.major()));
      l.put("nvidia.com/gpu.compute.minor", Integer.toString(cc.minor()));
    });
    l.put("nvidia.com/gpu.mode", "compute");
    machine.ifPresent(m -> l.put(MACHINE, m));
    l.put(MIG_CAPABLE, Boolean.toString(gpu.migCapable()));
    l.put("nvidia.com/mps.capable", Boolean.toString(sharing instanceof Sharing.Mps));
    l.put("nvidia.com/vgpu.present", "false");
    if (strategy != MigStrategy.NONE) {
      l.put(MIG_STRATEGY, strategy.wireName());
    }
    if (advertisement.migMode() == Advertisement.MigMode.MIG_MIXED) {
      mixedLabels(l, inventory, layout, sharing);
    }
    return Labels.of(l);
  }

  /** {@code nvidia.com/mig-<profile>.*} for each profile present on the node. */
  private static void mixedLabels(TreeMap<String, String> l, GpuInventory inventory, MigLayout layout,
      Sharing sharing) {
    GpuModel gpu = inventory.model();
    TreeMap<String, Integer> counts = new TreeMap<>();
    TreeMap<String, MigProfile> profiles = new TreeMap<>();
    for (var e : layout.gpus().entrySet()) {
      if (e.getKey() >= inventory.count()) {
        continue;
      }
      for (MigInstance m : e.getValue()) {
        counts.merge(m.profile().labelName(), 1, Integer::sum);
        profiles.put(m.profile().labelName(), m.profile());
      }
    }
    counts.forEach((name, n) -> {
      MigProfile p = profiles.get(name);
      String prefix = "nvidia.com/mig-" + name + ".";
      int replicas = sharing instanceof Sharing.Mps ? 1 : sharing.replicas(p.resourceName());
      String product = gpu.productLabel() + "-MIG-" + name + (replicas > 1 && !sharing.renamed() ? "-SHARED" : "");
      l.put(prefix + "count", Integer.toString(n));
      l.put(prefix + "memory", Long.toString(p.memoryMiB(gpu)));
      p.multiprocessors().ifPresent(sm -> l.put(prefix + "multiprocessors", Integer.toString(sm)));
      l.put(prefix + "slices.gi", Integer.toString(p.computeSlices()));
      l.put(prefix + "slices.ci", Integer.toString(p.computeSlices()));
      engines(l, prefix, p);
      l.put(prefix + "product", product);
      l.put(prefix + "replicas", Integer.toString(replicas));
      l.put(prefix + "sharing-strategy", replicas > 1 ? sharing.strategy() : "none");
    });
  }

  /**
   * {@code engines.copy|decoder|encoder|jpeg|ofa} from the MIG device's attributes ({@code internal/lm/
   * mig-strategy.go}); only for a profile whose engines the catalogue has observed, never guessed.
   */
  private static void engines(TreeMap<String, String> l, String prefix, MigProfile p) {
    p.engines().ifPresent(e -> {
      l.put(prefix + "engines.copy", Integer.toString(e.copy()));
      l.put(prefix + "engines.decoder", Integer.toString(e.decoder()));
      l.put(prefix + "engines.encoder", Integer.toString(e.encoder()));
      l.put(prefix + "engines.jpeg", Integer.toString(e.jpeg()));
      l.put(prefix + "engines.ofa", Integer.toString(e.ofa()));
    });
  }

  /** {@code -SHARED} marks a shared product only when the resource keeps its name (k8s-gpu-semantics §3). */
  private static String shared(int replicas, Sharing sharing) {
    return replicas > 1 && !sharing.renamed() ? "-SHARED" : "";
  }
}
