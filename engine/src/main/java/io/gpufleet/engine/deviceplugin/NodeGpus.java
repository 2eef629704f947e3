package io.gpufleet.engine.deviceplugin;

import io.gpufleet.model.gpu.ComputeCapability;
import io.gpufleet.model.gpu.DiscoveredGpu;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.model.gpu.InstanceTypeGpus;
import io.gpufleet.model.gpu.MigProfile;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.ResourceName;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Finds the physical GPUs of a node manifest. In order: gpufleet's annotation
 * {@code gpufleet.io/gpus: "NVIDIA-A10G:1"} (the user's own statement for hand-written nodes); GFD's
 * labels {@code nvidia.com/gpu.product} and {@code nvidia.com/gpu.count}; the instance type through
 * the injected {@link InstanceTypeGpus}.
 *
 * <p>What a node reports is read, never refused: a product the catalogue lacks becomes a
 * {@link DiscoveredGpu} from the node's own labels, MIG strategy {@code single}'s
 * {@code <card>-MIG-<profile>} product names its card, and labels that cannot be read leave the node
 * without modelled GPUs ({@link Found.Unresolved}, a warning) while the other nodes are read. Only a
 * malformed annotation, which the user wrote, is an error ({@link Found.Invalid}).
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
  private static final String PRODUCT_FIELD = label(GfdLabels.PRODUCT);
  private static final String COUNT_FIELD = label(GfdLabels.COUNT);
  private static final String MEMORY_FIELD = label(GfdLabels.MEMORY);
  private static final String CAPACITY_FIELD = "status.capacity[" + ResourceName.NVIDIA_GPU.name() + "]";
  private static final String COMPUTE_MAJOR = "nvidia.com/gpu.compute.major";
  private static final String COMPUTE_MINOR = "nvidia.com/gpu.compute.minor";
  private static final String MIG = "-MIG-";
  private static final String SHARED = "-SHARED";
  /**
   * GFD's product under MIG strategy {@code single} when the node's MIG layout breaks the strategy
   * (NVIDIA/k8s-device-plugin {@code internal/lm/mig-strategy.go}, {@code newInvalidMigStrategyLabeler}:
   * product {@code <card>-MIG-INVALID}, count, replicas and memory 0).
   */
  private static final String INVALID_PROFILE = "INVALID";
  private static final String CATALOGUE_HINT = "add it to a GPU catalogue file (--gpu-catalog FILE, or "
      + "spec.gpuCatalog in a scenario) to model it";

  /** What the manifest says about the node's GPUs. */
  public sealed interface Found {
    /**
     * The node's cards. {@code source} says where model and count came from; {@code warnings} what
     * was taken from the node or inferred rather than known from the catalogue.
     */
    record Gpus(GpuInventory inventory, String source, List<Warning> warnings) implements Found {
      public Gpus {
        warnings = List.copyOf(warnings);
      }

      public Gpus(GpuInventory inventory, String source) {
        this(inventory, source, List.of());
      }
    }

    record NoGpus() implements Found {}

    /**
     * The node's own labels (GFD's) name GPUs gpufleet cannot read: a warning at {@code field}
     * ({@code metadata.labels[...]}); the node is read without modelled GPUs, the others as usual.
     */
    record Unresolved(String field, String reason) implements Found {}

    /**
     * gpufleet's annotation, the user's own statement, cannot be read or names a model no catalogue
     * holds: an error at {@code field}.
     */
    record Invalid(String field, String reason) implements Found {}
  }

  /** A warning about a node's GPUs; {@code field} is where the fact it is about was written. */
  public record Warning(String field, String message) {}

  public static Found of(Node node, GpuCatalog catalog, InstanceTypeGpus instanceTypes) {
    Optional<String> annotation = node.meta().annotations().get(GPUS_ANNOTATION);
    if (annotation.isPresent()) {
      return annotated(node, catalog, annotation.get().strip());
    }
    Optional<String> product = node.labels().get(GfdLabels.PRODUCT);
    if (product.isPresent()) {
      return labelled(node, catalog, instanceTypes, product.get().strip());
    }
    Optional<String> type = node.labels().get(GfdLabels.INSTANCE_TYPE);
    if (type.isPresent()) {
      Optional<InstanceTypeGpus.Attached> attached = instanceTypes.gpus(type.get());
      if (attached.isPresent()) {
        return byInstanceType(node, catalog, type.get(), attached.get());
      }
    }
    return reported(node);
  }

  /** The model of cards a node advertises without naming them. */
  public static final String UNNAMED_PRODUCT = "NVIDIA-GPU-unnamed";

  /**
   * A node that names no card (no annotation, no GFD product, no GPU instance type) but reports
   * NVIDIA's GPU resource in its status, as a device plugin without GFD leaves it: its cards are what
   * it advertises ({@code nvidia.com/gpu}, or {@code nvidia.com/gpu.shared}), over GFD's replicas
   * label where one divides it, of a model it does not name. The node's report is its state, so its
   * GPUs are read, with a warning, rather than dropped.
   */
  private static Found reported(Node node) {
    long whole = Math.max(advertised(node, ResourceName.NVIDIA_GPU), advertised(node, ResourceName.NVIDIA_GPU_SHARED));
    if (whole <= 0) {
      return new Found.NoGpus();
    }
    int replicas = node.labels().get(GfdLabels.REPLICAS).flatMap(NodeGpus::positive).orElse(1);
    long cards = replicas > 1 && whole % replicas == 0 ? whole / replicas : whole;
    String field = "status.capacity";
    if (outOfRange(cards)) {
      return new Found.Unresolved(field, rangeReason(cards));
    }
    GpuModel model = new DiscoveredGpu(UNNAMED_PRODUCT, OptionalLong.empty(), Optional.empty(),
        List.of("the GPU resources node " + node.name() + " reports in its status")).model();
    return new Found.Gpus(new GpuInventory(node.name(), model, (int) cards), "its status", List.of(new Warning(field,
        "node \"" + node.name() + "\" reports " + whole + " NVIDIA GPU resource(s) in its status but names no GPU "
            + "model (no label " + GfdLabels.PRODUCT + ", no annotation " + GPUS_ANNOTATION + ", no GPU instance "
            + "type); read as " + cards + " card(s) of an unnamed model of unknown memory and compute capability"
            + (cards == whole ? "" : " (" + replicas + " replicas each, label " + GfdLabels.REPLICAS + ")"))));
  }

  /** What the node's status advertises of a resource: capacity, else allocatable. */
  private static long advertised(Node node, ResourceName name) {
    long capacity = node.capacity().getOrZero(name).value();
    return capacity > 0 ? capacity : node.allocatable().getOrZero(name).value();
  }

  private static Optional<Integer> positive(String v) {
    try {
      int n = Integer.parseInt(v.strip());
      return n > 0 ? Optional.of(n) : Optional.empty();
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static Found annotated(Node node, GpuCatalog catalog, String v) {
    int colon = v.lastIndexOf(':');
    String model = colon < 0 ? v : v.substring(0, colon);
    int count;
    try {
      count = colon < 0 ? 1 : Integer.parseInt(v.substring(colon + 1).strip());
    } catch (NumberFormatException e) {
      return new Found.Invalid(ANNOTATION_FIELD, "expected MODEL:COUNT such as NVIDIA-A10G:1, found \"" + v + "\"");
    }
    Optional<GpuModel> gpu = catalog.find(model);
    if (gpu.isEmpty()) {
      return new Found.Invalid(ANNOTATION_FIELD, "expected a GPU model of the catalogue ("
          + String.join(", ", catalog.models().stream().map(GpuModel::productLabel).toList()) + "), found \""
          + model + "\"; " + CATALOGUE_HINT);
    }
    if (outOfRange(count)) {
      return new Found.Invalid(ANNOTATION_FIELD, rangeReason(count));
    }
    return new Found.Gpus(new GpuInventory(node.name(), gpu.get(), count), "annotation " + GPUS_ANNOTATION);
  }

  private static Found byInstanceType(Node node, GpuCatalog catalog, String type, InstanceTypeGpus.Attached attached) {
    String field = label(GfdLabels.INSTANCE_TYPE);
    if (outOfRange(attached.count())) {
      return new Found.Unresolved(field, rangeReason(attached.count()));
    }
    String source = "instance type " + type;
    Optional<GpuModel> gpu = catalog.find(attached.model());
    if (gpu.isPresent()) {
      return new Found.Gpus(new GpuInventory(node.name(), gpu.get(), attached.count()), source);
    }
    // An instance catalogue (a user's) may name a card the GPU catalogue lacks; the node states nothing more.
    GpuModel model = new DiscoveredGpu(attached.model(), OptionalLong.empty(), Optional.empty(),
        List.of("instance type " + type + " of the instance catalogue")).model();
    return new Found.Gpus(new GpuInventory(node.name(), model, attached.count()), source, List.of(new Warning(field,
        "node \"" + node.name() + "\": GPU \"" + attached.model() + "\" of instance type " + type
            + " is not in the GPU catalogue; read as " + attached.count() + " whole GPU(s) of unknown memory and "
            + "compute capability (the node states neither), without MIG profiles; " + CATALOGUE_HINT)));
  }

  /** GFD's labels: a catalogue product, MIG strategy {@code single}'s product, or a product to discover. */
  private static Found labelled(Node node, GpuCatalog catalog, InstanceTypeGpus instanceTypes, String product) {
    Labels labels = node.labels();
    Optional<String> countText = labels.get(GfdLabels.COUNT);
    OptionalInt count = OptionalInt.empty();
    if (countText.isPresent()) {
      try {
        count = OptionalInt.of(Integer.parseInt(countText.get().strip()));
      } catch (NumberFormatException e) {
        return new Found.Unresolved(COUNT_FIELD, "expected an integer, found \"" + countText.get() + "\"");
      }
    }
    String plain = product.endsWith(SHARED) ? product.substring(0, product.length() - SHARED.length()) : product;
    int mig = plain.indexOf(MIG);
    if (mig > 0) {
      return migSingle(node, catalog, instanceTypes, plain.substring(0, mig), plain.substring(mig + MIG.length()),
          count);
    }
    Optional<GpuModel> known = catalog.find(plain);
    if (known.isPresent()) {
      int n = count.orElse(1);
      if (outOfRange(n)) {
        return new Found.Unresolved(count.isPresent() ? COUNT_FIELD : PRODUCT_FIELD, rangeReason(n));
      }
      return new Found.Gpus(new GpuInventory(node.name(), known.get(), n), "label " + GfdLabels.PRODUCT);
    }
    return discovered(node, plain, count, "GPU product \"" + plain + "\" is not in the GPU catalogue", "GPU(s)",
        " MIG profiles are not modelled for a card the catalogue lacks; " + CATALOGUE_HINT);
  }

  /**
   * MIG strategy {@code single}: GFD's MIG labeler overrides the whole-GPU labels it wrote first, so
   * {@code nvidia.com/gpu.product} is {@code <card>-MIG-<profile>}, {@code nvidia.com/gpu.count} the
   * number of MIG devices and {@code nvidia.com/gpu.memory} one device's memory, while
   * {@code nvidia.com/gpu.family} and {@code .compute.*} stay the card's (NVIDIA/k8s-device-plugin
   * {@code internal/lm/mig-strategy.go} {@code NewResourceLabeler}: {@code Merge(fullGPULabeler,
   * migLabeler)}; {@code internal/lm/resource.go} {@code NewMIGResourceLabeler}:
   * {@code baseLabeler(count, model, "MIG", migProfile)}). The cards are not counted anywhere, so
   * they come from the instance type where it names the same card, else from the profile's most
   * instances per card.
   */
  private static Found migSingle(Node node, GpuCatalog catalog, InstanceTypeGpus instanceTypes, String cardLabel,
      String profileName, OptionalInt count) {
    Optional<GpuModel> card = catalog.find(cardLabel);
    Optional<Cards> byType = card.flatMap(c -> cardsOfInstanceType(node, catalog, instanceTypes, c));
    String product = cardLabel + MIG + profileName;
    if (profileName.equals(INVALID_PROFILE)) {
      if (byType.isPresent()) {
        return new Found.Gpus(new GpuInventory(node.name(), card.get(), byType.get().count()), byType.get().source(),
            List.of(new Warning(PRODUCT_FIELD, "node \"" + node.name() + "\": GFD labels the GPU product \""
                + product + "\": its MIG layout breaks mig-strategy single, and the node advertises no GPU; its "
                + byType.get().count() + " card(s) are taken from " + byType.get().source())));
      }
      return new Found.Unresolved(PRODUCT_FIELD, "expected a product whose cards can be counted, found \"" + product
          + "\" (GFD's label when a node's MIG layout breaks mig-strategy single) and no instance type naming its card;"
          + " state the cards with annotation " + GPUS_ANNOTATION);
    }
    Optional<MigProfile> profile = card.flatMap(c -> c.migProfileByLabel(profileName));
    if (card.isEmpty() || profile.isEmpty()) {
      String why = card.isEmpty()
          ? "GPU product \"" + product + "\" is MIG strategy single's label for MIG " + profileName + " devices of \""
              + cardLabel + "\", a card not in the GPU catalogue"
          : "GPU product \"" + product + "\" is MIG strategy single's label for MIG devices of profile " + profileName
              + ", which the catalogue's " + card.get().id() + " does not list";
      return discovered(node, product, count, why, "MIG device(s), each read as a whole GPU,",
          " no MIG layout is modelled; " + CATALOGUE_HINT);
    }
    List<Warning> warnings = new ArrayList<>();
    Cards cards;
    if (byType.isPresent()) {
      cards = byType.get();
    } else {
      Devices devices = devices(node, count);
      int perCard = profile.get().maxInstances();
      int n = (devices.count() + perCard - 1) / perCard;
      cards = new Cards(n, "label " + GfdLabels.PRODUCT + " (MIG strategy single)");
      warnings.add(new Warning(devices.field(), "node \"" + node.name() + "\": GPU product \"" + product
          + "\" is MIG strategy single's: " + devices.count() + " MIG " + profileName + " device(s) ("
          + devices.from() + ") of " + card.get().productLabel() + ", which holds at most " + perCard
          + " per card, so " + n + " card(s) are assumed; state the cards with annotation " + GPUS_ANNOTATION
          + " to be exact"));
    }
    if (outOfRange(cards.count())) {
      return new Found.Unresolved(COUNT_FIELD, rangeReason(cards.count()));
    }
    return new Found.Gpus(new GpuInventory(node.name(), card.get(), cards.count()), cards.source(), warnings);
  }

  /**
   * A card built from the node's labels. {@code what} names the units counted; the warning names
   * the node and the product and says which figure came from where.
   */
  private static Found discovered(Node node, String product, OptionalInt count, String why, String what,
      String tail) {
    Labels labels = node.labels();
    List<String> taken = new ArrayList<>();
    List<String> sources = new ArrayList<>();
    sources.add("product \"" + product + "\" from node " + node.name() + " label " + GfdLabels.PRODUCT);
    OptionalLong memory = OptionalLong.empty();
    Optional<String> memoryText = labels.get(GfdLabels.MEMORY);
    if (memoryText.isEmpty()) {
      taken.add("no label states its memory (" + GfdLabels.MEMORY + "), so its memory is unknown");
    } else {
      try {
        long m = Long.parseLong(memoryText.get().strip());
        if (m <= 0) {
          throw new NumberFormatException();
        }
        memory = OptionalLong.of(m);
        taken.add("memory " + m + " MiB from label " + GfdLabels.MEMORY);
        sources.add("memory-mib " + m + " from node " + node.name() + " label " + GfdLabels.MEMORY);
      } catch (NumberFormatException e) {
        taken.add("label " + GfdLabels.MEMORY + " \"" + memoryText.get() + "\" is not a positive number of MiB, so its"
            + " memory is unknown");
      }
    }
    Optional<ComputeCapability> compute = Optional.empty();
    Optional<String> major = labels.get(COMPUTE_MAJOR);
    Optional<String> minor = labels.get(COMPUTE_MINOR);
    if (major.isPresent() && minor.isPresent()) {
      try {
        compute = Optional.of(new ComputeCapability(Integer.parseInt(major.get().strip()),
            Integer.parseInt(minor.get().strip())));
        taken.add("compute capability " + compute.get() + " from labels " + COMPUTE_MAJOR + " and .minor");
        sources.add("compute " + compute.get() + " from node " + node.name() + " labels " + COMPUTE_MAJOR
            + " and .minor");
      } catch (IllegalArgumentException e) {
        taken.add("labels " + COMPUTE_MAJOR + " and .minor (\"" + major.get() + "\", \"" + minor.get()
            + "\") are not a compute capability, so it is unknown");
      }
    } else {
      taken.add("no labels state its compute capability (" + COMPUTE_MAJOR + " and .minor), so it and its family"
          + " are unknown");
    }
    Optional<String> family = labels.get(GfdLabels.FAMILY);
    if (family.isPresent() && compute.isPresent() && !family.get().equals(compute.get().family())) {
      taken.add("label " + GfdLabels.FAMILY + " \"" + family.get() + "\" differs from the family of compute "
          + "capability " + compute.get() + " (" + compute.get().family() + "), which the twin uses");
    } else if (family.isPresent() && compute.isEmpty()) {
      taken.add("label " + GfdLabels.FAMILY + " \"" + family.get() + "\" is not modelled without a compute capability");
    }
    Devices devices = devices(node, count);
    if (outOfRange(devices.count())) {
      return new Found.Unresolved(devices.field(), rangeReason(devices.count()));
    }
    taken.add(devices.count() + " " + what + " " + devices.from());
    GpuModel model = new DiscoveredGpu(product, memory, compute, sources).model();
    return new Found.Gpus(new GpuInventory(node.name(), model, devices.count()),
        "label " + GfdLabels.PRODUCT + "; not in the GPU catalogue, so read from the node's labels",
        List.of(new Warning(PRODUCT_FIELD, "node \"" + node.name() + "\": " + why + "; read from the node instead: "
            + String.join("; ", taken) + ";" + tail)));
  }

  /** How many devices the node states, and where: its count label, else its capacity, else one. */
  private record Devices(int count, String field, String from) {}

  private static Devices devices(Node node, OptionalInt count) {
    if (count.isPresent()) {
      return new Devices(count.getAsInt(), COUNT_FIELD, "from label " + GfdLabels.COUNT);
    }
    long capacity = node.capacity().getOrZero(ResourceName.NVIDIA_GPU).value();
    if (capacity > 0) {
      // Time-slicing advertises replicas per device (GFD's nvidia.com/gpu.replicas), so it divides.
      int replicas = node.labels().get(GfdLabels.REPLICAS).map(NodeGpus::positiveOrOne).orElse(1);
      long n = capacity / replicas;
      return new Devices((int) Math.min(n, Integer.MAX_VALUE), CAPACITY_FIELD, "from " + CAPACITY_FIELD
          + (replicas > 1 ? " / " + replicas + " replicas (label " + GfdLabels.REPLICAS + ")" : "")
          + ", as no label " + GfdLabels.COUNT + " states them");
    }
    return new Devices(1, PRODUCT_FIELD, "assumed, as neither label " + GfdLabels.COUNT + " nor " + CAPACITY_FIELD
        + " states them");
  }

  private static int positiveOrOne(String v) {
    try {
      return Math.max(1, Integer.parseInt(v.strip()));
    } catch (NumberFormatException e) {
      return 1;
    }
  }

  /** The cards an instance type holds, when it names the same card. */
  private record Cards(int count, String source) {}

  private static Optional<Cards> cardsOfInstanceType(Node node, GpuCatalog catalog, InstanceTypeGpus instanceTypes,
      GpuModel card) {
    return node.labels().get(GfdLabels.INSTANCE_TYPE).flatMap(type -> instanceTypes.gpus(type)
        .filter(a -> catalog.find(a.model()).map(m -> m.id().equals(card.id())).orElse(false))
        .map(a -> new Cards(a.count(), "instance type " + type)));
  }

  private static boolean outOfRange(long count) {
    return count < 0 || count > MAX_GPUS_PER_NODE;
  }

  private static String rangeReason(long count) {
    return "expected a GPU count from 0 to " + MAX_GPUS_PER_NODE + " (gpufleet's limit per node), found " + count;
  }

  private static String label(String key) {
    return "metadata.labels[" + key + "]";
  }
}
