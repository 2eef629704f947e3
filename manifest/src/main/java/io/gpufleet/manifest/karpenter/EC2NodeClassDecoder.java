package io.gpufleet.manifest.karpenter;

import io.gpufleet.manifest.yaml.Cursor;
import io.gpufleet.manifest.yaml.Location;
import io.gpufleet.manifest.yaml.YNode;
import io.gpufleet.model.cloud.AllocatableEstimate;
import io.gpufleet.model.cloud.CapacityReservation;
import io.gpufleet.model.cloud.CapacityReservationSelectorTerm;
import io.gpufleet.model.wire.WireEnum;
import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.karpenter.EC2NodeClass;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.QuantityFormatException;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads what of an EC2NodeClass ({@code karpenter.k8s.aws/v1}) changes its nodes' allocatable: the
 * kubelet's {@code maxPods}, {@code podsPerCore}, {@code kubeReserved}, {@code systemReserved} and
 * {@code evictionHard}, and the root volume among {@code blockDeviceMappings}
 * ({@code A:pkg/apis/v1/ec2nodeclass.go}; the kubelet map is checked here as
 * {@code ValidateKubeletConfig} checks it, for the keys read). Any other kubelet setting is said
 * with a warning, since the twin does not model it. For a Bottlerocket node class (its
 * {@code amiFamily} or an {@code amiSelectorTerms} alias), the NVIDIA device plugin settings in its
 * {@code userData} are read too ({@link BottlerocketSettings}). The rest of the spec (subnets,
 * roles) does not change what a node holds; for drift, the whole spec makes the static hash and the
 * {@code amiSelectorTerms} the AMI ({@link #staticHash}, {@link #imageId}).
 */
final class EC2NodeClassDecoder {
  private EC2NodeClassDecoder() {}

  /** The kubeReserved and systemReserved keys the kubelet accepts. */
  static final Set<String> RESERVED_KEYS = Set.of("cpu", "memory", "ephemeral-storage", "pid");
  /** The evictionHard signals the kubelet accepts. */
  static final Set<String> EVICTION_SIGNALS = Set.of("memory.available", "nodefs.available", "nodefs.inodesFree",
      "imagefs.available", "imagefs.inodesFree", "pid.available");
  static final Set<String> MODELLED_KUBELET = Set.of("maxPods", "podsPerCore", "kubeReserved", "systemReserved",
      "evictionHard");
  /** {@code ebs.volumeSize}'s CRD pattern. */
  static final Pattern VOLUME_SIZE = Pattern.compile("^((?:[1-9][0-9]{0,3}|[1-4][0-9]{4}|[5][0-8][0-9]{3}|59000)Gi|"
      + "(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|[6][0-3][0-9]{3}|64000)G|([1-9]||[1-5][0-7]|58)Ti|([1-9]||[1-5][0-9]|6[0-3]|64)T)$");
  static final Pattern PERCENT = Pattern.compile("^(100|[0-9]{1,2}(\\.[0-9]+)?)%$");

  static EC2NodeClass decode(String name, Cursor doc) {
    Optional<Cursor> spec = doc.get("spec");
    if (spec.isEmpty()) {
      return EC2NodeClass.defaults(name);
    }
    AmiSelectorTerms.validate(spec.get());
    OptionalInt maxPods = OptionalInt.empty();
    OptionalInt podsPerCore = OptionalInt.empty();
    ResourceList kubeReserved = ResourceList.EMPTY;
    ResourceList systemReserved = ResourceList.EMPTY;
    Optional<String> memoryAvailable = Optional.empty();
    Optional<String> nodefsAvailable = Optional.empty();
    Optional<Cursor> kubelet = spec.get().get("kubelet");
    if (kubelet.isPresent()) {
      for (var e : kubelet.get().entries().entrySet()) {
        if (!MODELLED_KUBELET.contains(e.getKey())) {
          e.getValue().warning("kubelet setting " + e.getKey() + " is not modelled by gpufleet; nodes of EC2NodeClass \""
              + name + "\" are simulated without it");
        }
      }
      maxPods = nonNegative(kubelet.get(), "maxPods");
      podsPerCore = nonNegative(kubelet.get(), "podsPerCore");
      kubeReserved = reserved(kubelet.get(), "kubeReserved");
      systemReserved = reserved(kubelet.get(), "systemReserved");
      Map<String, Cursor> eviction = kubelet.get().get("evictionHard").map(Cursor::entries).orElse(Map.of());
      for (var e : eviction.entrySet()) {
        if (!EVICTION_SIGNALS.contains(e.getKey())) {
          e.getValue().error("valid keys for evictionHard are " + sorted(EVICTION_SIGNALS) + ", found \"" + e.getKey()
              + "\"");
          continue;
        }
        String v = e.getValue().asString();
        if (!PERCENT.matcher(v).matches() && quantity(e.getValue(), v).isEmpty()) {
          continue;
        }
        if (e.getKey().equals("memory.available")) {
          memoryAvailable = Optional.of(v);
        } else if (e.getKey().equals("nodefs.available")) {
          nodefsAvailable = Optional.of(v);
        } else {
          e.getValue().warning("evictionHard " + e.getKey() + " does not change allocatable cpu, memory or "
              + "ephemeral-storage; gpufleet does not model it");
        }
      }
    }
    long root = rootVolume(spec.get());
    return new EC2NodeClass(name, maxPods, podsPerCore, new AllocatableEstimate.Reservations(kubeReserved,
        systemReserved, memoryAvailable, nodefsAvailable, root, raid0(spec.get())), devicePlugin(spec.get()),
        staticHash(spec.get()), imageId(spec.get()), List.of(), List.of(), capacityReservationSelectorTerms(spec.get()),
        List.of()).withNetwork(selected(spec.get(), "subnetSelectorTerms", "subnet-"),
        selected(spec.get(), "securityGroupSelectorTerms", "sg-"));
  }

  /**
   * {@code instanceStorePolicy}: {@code RAID0}, the one value the CRD allows ({@code A:pkg/apis/v1/ec2nodeclass.go}
   * InstanceStorePolicy), makes the instance-store volumes the node's ephemeral storage.
   */
  private static boolean raid0(Cursor spec) {
    Optional<Cursor> p = spec.get("instanceStorePolicy");
    if (p.isEmpty()) {
      return false;
    }
    String v = p.get().asString();
    if (!v.equals("RAID0")) {
      p.get().error("expected RAID0, found \"" + v + "\"");
      return false;
    }
    return true;
  }

  static final Pattern RESERVATION_ID = Pattern.compile("^cr-[0-9a-z]+$");
  static final Pattern OWNER_ID = Pattern.compile("^[0-9]{12}$");
  static final Set<String> TERM_FIELDS = Set.of("id", "tags", "ownerID", "instanceMatchCriteria");

  /**
   * {@code capacityReservationSelectorTerms}, checked as the CRD checks them ({@code A:pkg/apis/v1/ec2nodeclass.go}
   * CapacityReservationSelectorTerms and CapacityReservationSelectorTerm; the messages are the CRD's): at
   * most 30 terms, each with tags, id or instanceMatchCriteria, id alone, the id and ownerID patterns,
   * tags neither empty keys nor values (at most 20), the criteria open or targeted.
   */
  static List<CapacityReservationSelectorTerm> capacityReservationSelectorTerms(Cursor spec) {
    Optional<Cursor> field = spec.get("capacityReservationSelectorTerms");
    if (field.isEmpty()) {
      return List.of();
    }
    List<Cursor> terms = field.get().asList();
    if (terms.size() > 30) {
      field.get().error("Too many: " + terms.size() + ": must have at most 30 items");
    }
    List<CapacityReservationSelectorTerm> out = new java.util.ArrayList<>();
    for (Cursor t : terms) {
      t.checkKnown(TERM_FIELDS, true);
      Optional<String> id = t.optString("id");
      Map<String, String> tags = t.get("tags").map(Cursor::asStringMap).orElse(Map.of());
      Optional<String> owner = t.optString("ownerID");
      Optional<String> criteria = t.optString("instanceMatchCriteria");
      boolean hasTags = !tags.isEmpty(); // an empty map is dropped (omitempty), as if not written
      if (!hasTags && id.isEmpty() && criteria.isEmpty()) {
        t.error("expected at least one, got none, ['tags', 'id', 'instanceMatchCriteria']");
        continue;
      }
      if (id.isPresent() && (hasTags || owner.isPresent() || criteria.isPresent())) {
        t.error("'id' is mutually exclusive, cannot be set along with other fields in a capacity reservation selector "
            + "term");
        continue;
      }
      boolean ok = matches(t, "id", id, RESERVATION_ID) & matches(t, "ownerID", owner, OWNER_ID);
      if (hasTags && tags.size() > 20) {
        t.get("tags").get().error("Too many: " + tags.size() + ": must have at most 20 items");
        ok = false;
      }
      if (tags.entrySet().stream().anyMatch(e -> e.getKey().isEmpty() || e.getValue().isEmpty())) {
        t.get("tags").get().error("empty tag keys or values aren't supported");
        ok = false;
      }
      Optional<CapacityReservation.MatchCriteria> mc = criteria.flatMap(c ->
          WireEnum.fromWire(CapacityReservation.MatchCriteria.class, c));
      if (criteria.isPresent() && mc.isEmpty()) {
        t.get("instanceMatchCriteria").get().error("Unsupported value: \"" + criteria.get()
            + "\": supported values: \"open\", \"targeted\"");
        ok = false;
      }
      if (ok) {
        out.add(new CapacityReservationSelectorTerm(id, tags, owner, mc));
      }
    }
    return out;
  }

  private static boolean matches(Cursor term, String key, Optional<String> value, Pattern pattern) {
    if (value.isPresent() && !pattern.matcher(value.get()).matches()) {
      term.get(key).get().error("should match '" + pattern.pattern() + "', found \"" + value.get() + "\"");
      return false;
    }
    return true;
  }

  /**
   * Spec fields upstream leaves out of the static hash ({@code hash:"ignore"} in
   * {@code A:pkg/apis/v1/ec2nodeclass.go} EC2NodeClassSpec): they drift dynamically (subnets, security
   * groups, capacity reservations, AMIs) or not at all; {@code amiFamily} is hashed as resolved instead.
   */
  static final Set<String> HASH_IGNORED = Set.of("subnetSelectorTerms", "securityGroupSelectorTerms",
      "capacityReservationSelectorTerms", "ipPrefixCount", "amiSelectorTerms", "amiFamily");

  /**
   * The static-field hash ({@code A:pkg/apis/v1/ec2nodeclass.go} Hash): every spec field but
   * {@link #HASH_IGNORED}, plus the AMI family as resolved from an alias or {@code amiFamily}, so that
   * writing out the family an alias implies changes nothing. Lists hash as sets ({@code SlicesAsSets}).
   * The digest is the twin's, not hashstructure's: only whether it changes matters.
   */
  static String staticHash(Cursor spec) {
    StringBuilder text = new StringBuilder();
    if (spec.node() instanceof YNode.YMap m) {
      new java.util.TreeMap<>(m.entries()).forEach((k, e) -> {
        if (!HASH_IGNORED.contains(k)) {
          text.append(k).append('=').append(canonical(e.value())).append(';');
        }
      });
    }
    text.append("family=").append(amiFamily(spec));
    return EC2NodeClass.imageIdOf(text.toString()).substring("ami-".length());
  }

  /** The family the AWS provider resolves ({@code AMIFamily()}): the alias's, else {@code amiFamily}. */
  private static String amiFamily(Cursor spec) {
    for (Cursor term : spec.list("amiSelectorTerms")) {
      Optional<String> alias = term.optString("alias");
      if (alias.isPresent() && alias.get().contains("@")) {
        return alias.get().substring(0, alias.get().indexOf('@')).toLowerCase(java.util.Locale.ROOT);
      }
    }
    return spec.optString("amiFamily").map(f -> f.toLowerCase(java.util.Locale.ROOT)).orElse("al2023");
  }

  /**
   * The AMI the class resolves to now: its alias's ({@code family@version}), else a function of the
   * whole selection (ids, names, tags), else the default alias ({@link EC2NodeClass#imageIdOf}).
   */
  static String imageId(Cursor spec) {
    List<Cursor> terms = spec.list("amiSelectorTerms");
    for (Cursor term : terms) {
      Optional<String> alias = term.optString("alias");
      if (alias.isPresent()) {
        return EC2NodeClass.imageIdOf(alias.get());
      }
    }
    if (terms.isEmpty()) {
      return EC2NodeClass.imageIdOf(EC2NodeClass.DEFAULT_ALIAS);
    }
    return EC2NodeClass.imageIdOf(canonical(spec.get("amiSelectorTerms").orElseThrow().node()));
  }

  /**
   * What a subnet or security-group selection resolves to, sorted: a term's {@code id}, else one
   * resource per term ({@link EC2NodeClass#resolvedId}); upstream's status lists what EC2 describes.
   */
  static List<String> selected(Cursor spec, String field, String prefix) {
    return spec.list(field).stream().map(t -> t.optString("id").orElseGet(() -> EC2NodeClass.resolvedId(prefix,
        canonical(t.node())))).distinct().sorted().toList();
  }

  /** A YAML value as text, maps by key and lists as sets, so order and layout do not count. */
  private static String canonical(YNode n) {
    return switch (n) {
      case YNode.YMap m -> {
        StringBuilder b = new StringBuilder("{");
        new java.util.TreeMap<>(m.entries()).forEach((k, e) -> b.append(k).append(':').append(canonical(e.value()))
            .append(','));
        yield b.append('}').toString();
      }
      case YNode.YList l -> "[" + String.join(",", l.items().stream().map(EC2NodeClassDecoder::canonical).sorted()
          .toList()) + "]";
      case YNode.YScalar sc -> sc.text();
      case YNode.YNull ignored -> "null";
    };
  }

  /**
   * A Bottlerocket node class's own NVIDIA device plugin: the NVIDIA variants run the plugin built
   * in and configure it from the user data's settings ({@link BottlerocketSettings}); other AMI
   * families, and a Bottlerocket class whose user data does not configure the plugin, leave GPUs to
   * the cluster's plugin configuration.
   */
  private static Optional<DevicePluginConfig> devicePlugin(Cursor spec) {
    if (!BottlerocketSettings.isBottlerocket(spec)) {
      return Optional.empty();
    }
    Optional<Cursor> userData = spec.get("userData");
    if (userData.isEmpty() || userData.get().isNull()) {
      return Optional.empty();
    }
    Location key = spec.node() instanceof YNode.YMap m && m.entries().get("userData") != null
        ? m.entries().get("userData").keyLocation() : userData.get().location();
    return BottlerocketSettings.read(userData.get(), key);
  }

  /**
   * The root volume's size: the mapping marked {@code rootVolume: true}, else AL2023's root device,
   * else the default 20Gi ({@code A:pkg/providers/instancetype/types.go} ephemeralStorage).
   */
  private static long rootVolume(Cursor spec) {
    List<Cursor> mappings = spec.get("blockDeviceMappings").map(Cursor::asList).orElse(List.of());
    Optional<Long> marked = Optional.empty();
    Optional<Long> device = Optional.empty();
    for (Cursor m : mappings) {
      Optional<Cursor> size = m.get("ebs").flatMap(ebs -> ebs.get("volumeSize"));
      Optional<Long> bytes = Optional.empty();
      if (size.isPresent()) {
        String v = size.get().asString();
        if (!VOLUME_SIZE.matcher(v).matches()) {
          size.get().error("expected a volume size in Gi, G, Ti or T such as 100Gi (at most 59000Gi), found \"" + v
              + "\"");
        } else {
          bytes = quantity(size.get(), v).map(Quantity::value);
        }
      }
      if (m.optBool("rootVolume").orElse(false) && marked.isEmpty()) {
        marked = bytes;
      }
      if (EC2NodeClass.AL2023_ROOT_DEVICE.equals(m.optString("deviceName").orElse("")) && device.isEmpty()) {
        device = bytes;
      }
    }
    Optional<Long> byDevice = device;
    return marked.or(() -> byDevice).orElse(AllocatableEstimate.ROOT_VOLUME_BYTES);
  }

  private static OptionalInt nonNegative(Cursor kubelet, String key) {
    Optional<Cursor> c = kubelet.get(key);
    if (c.isEmpty()) {
      return OptionalInt.empty();
    }
    int v = c.get().asInt();
    if (v < 0) {
      c.get().error("should be greater than or equal to 0, found " + v);
      return OptionalInt.empty();
    }
    return OptionalInt.of(v);
  }

  private static ResourceList reserved(Cursor kubelet, String key) {
    ResourceList out = ResourceList.EMPTY;
    for (var e : kubelet.get(key).map(Cursor::entries).orElse(Map.of()).entrySet()) {
      if (!RESERVED_KEYS.contains(e.getKey())) {
        e.getValue().error("valid keys for " + key + " are " + sorted(RESERVED_KEYS) + ", found \"" + e.getKey()
            + "\"");
        continue;
      }
      Optional<Quantity> q = quantity(e.getValue(), e.getValue().asString());
      if (q.isPresent() && !e.getKey().equals("pid")) {
        out = out.with(ResourceName.of(e.getKey()), q.get());
      }
    }
    return out;
  }

  private static Optional<Quantity> quantity(Cursor c, String v) {
    try {
      return Optional.of(Quantity.parse(v));
    } catch (QuantityFormatException e) {
      c.error("expected a quantity such as 1Gi or 500m, or a percentage such as 10%, found \"" + v + "\": "
          + e.getMessage());
      return Optional.empty();
    }
  }

  private static String sorted(Set<String> s) {
    return "[" + String.join(", ", s.stream().sorted().toList()) + "]";
  }
}
