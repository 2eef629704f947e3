package io.gpufleet.model.karpenter;

import io.gpufleet.model.cloud.AllocatableEstimate;
import io.gpufleet.model.cloud.CapacityReservation;
import io.gpufleet.model.cloud.CapacityReservationSelectorTerm;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.cloud.Offering;
import io.gpufleet.model.deviceplugin.DevicePluginConfig;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * What of an EC2NodeClass ({@code karpenter.k8s.aws/v1}) changes the nodes it makes: its kubelet's
 * {@code maxPods}, {@code podsPerCore}, {@code kubeReserved}, {@code systemReserved} and
 * {@code evictionHard}, and the root volume of its {@code blockDeviceMappings}, which is the node's
 * ephemeral storage, or with {@code instanceStorePolicy: RAID0} the instance-store volumes. The AMI family is taken as AL2023, EC2NodeClass's usual {@code al2023@latest}
 * alias (pods per core honoured, root device {@code /dev/xvda}), except that a Bottlerocket node
 * class's own NVIDIA device plugin settings ({@code userData}) are kept as {@code devicePlugin}:
 * its nodes advertise under that config, whatever the cluster's device-plugin ConfigMap says.
 *
 * <p>For drift it also keeps {@code hash}, the digest of its static fields (those upstream's
 * {@code Hash} covers; empty when unknown, which never drifts), and {@code imageId}, the AMI its
 * {@code amiSelectorTerms} resolve to now ({@link #imageIdOf}).
 *
 * <p>Its {@code capacityReservationSelectorTerms} select EC2 capacity reservations; what they select
 * now, with each one's state and the instances it still takes, is its {@code capacityReservations}
 * (upstream's {@code status.capacityReservations}, which the AWS provider's nodeclass controller
 * keeps, {@code A:pkg/controllers/nodeclass/capacityreservation.go}), and each adds a reserved
 * offering to its instance type ({@link #apply}).
 */
public record EC2NodeClass(String name, OptionalInt maxPods, OptionalInt podsPerCore,
    AllocatableEstimate.Reservations reservations, Optional<DevicePluginConfig> devicePlugin, String hash,
    String imageId, List<String> subnets, List<String> securityGroups,
    List<CapacityReservationSelectorTerm> capacityReservationSelectorTerms,
    List<ReservationStatus> capacityReservations) {

  /**
   * One entry of {@code status.capacityReservations}: a selected reservation, its state ({@code active}
   * or {@code expiring}) and how many more instances it takes (the provider's availability cache,
   * {@code A:pkg/providers/capacityreservation/types.go}).
   */
  public record ReservationStatus(CapacityReservation reservation, CapacityReservation.State state, int available) {
    public ReservationStatus {
      Objects.requireNonNull(reservation, "reservation");
      Objects.requireNonNull(state, "state");
    }
  }

  /** Without resolved subnets, security groups or capacity reservations: none of them drifts. */
  public EC2NodeClass(String name, OptionalInt maxPods, OptionalInt podsPerCore,
      AllocatableEstimate.Reservations reservations, Optional<DevicePluginConfig> devicePlugin, String hash,
      String imageId) {
    this(name, maxPods, podsPerCore, reservations, devicePlugin, hash, imageId, List.of(), List.of(), List.of(),
        List.of());
  }

  /** The class with its status resolved to these reservations. */
  public EC2NodeClass withCapacityReservations(List<ReservationStatus> status) {
    return new EC2NodeClass(name, maxPods, podsPerCore, reservations, devicePlugin, hash, imageId, subnets,
        securityGroups, capacityReservationSelectorTerms, status);
  }

  /** Some selector term selects the reservation (terms are ORed). */
  public boolean selects(CapacityReservation r) {
    for (CapacityReservationSelectorTerm t : capacityReservationSelectorTerms) {
      if (t.selects(r)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The class with the subnets and security groups its {@code subnetSelectorTerms} and
   * {@code securityGroupSelectorTerms} resolve to now (upstream's {@code status.subnets} and
   * {@code status.securityGroups}); empty where unknown, which never drifts.
   */
  public EC2NodeClass withNetwork(List<String> newSubnets, List<String> newSecurityGroups) {
    return new EC2NodeClass(name, maxPods, podsPerCore, reservations, devicePlugin, hash, imageId, newSubnets,
        newSecurityGroups, capacityReservationSelectorTerms, capacityReservations);
  }

  /**
   * Where the twin keeps the subnet and the security groups an instance was launched with (upstream
   * reads them from EC2's DescribeInstances): gpufleet annotations, not ones Karpenter writes.
   */
  public static final String SUBNET_ANNOTATION = "gpufleet.io/subnet-id";
  public static final String SECURITY_GROUPS_ANNOTATION = "gpufleet.io/security-group-ids";

  /**
   * The annotations the AWS provider stamps on a NodeClaim at Create, and compares with the class's
   * own in {@code areStaticFieldsDrifted} ({@code A:pkg/apis/v1/labels.go} AnnotationEC2NodeClassHash,
   * AnnotationEC2NodeClassHashVersion; {@code A:pkg/cloudprovider/drift.go}).
   */
  public static final String HASH_ANNOTATION = "karpenter.k8s.aws/ec2nodeclass-hash";
  public static final String HASH_VERSION_ANNOTATION = "karpenter.k8s.aws/ec2nodeclass-hash-version";
  /** {@code A:pkg/apis/v1/ec2nodeclass.go} EC2NodeClassHashVersion. */
  public static final String HASH_VERSION = "v4";
  /**
   * Where the twin keeps the AMI a claim's instance booted: upstream's {@code status.imageID}, which
   * the twin's NodeClaim has no field for (a gpufleet annotation, not one Karpenter writes).
   */
  public static final String IMAGE_ID_ANNOTATION = "gpufleet.io/image-id";
  /** A class without {@code amiSelectorTerms} is taken as EC2NodeClass's usual alias. */
  public static final String DEFAULT_ALIAS = "al2023@latest";

  /** With no hash known (never drifts on static fields) and the default alias's AMI. */
  public EC2NodeClass(String name, OptionalInt maxPods, OptionalInt podsPerCore,
      AllocatableEstimate.Reservations reservations, Optional<DevicePluginConfig> devicePlugin) {
    this(name, maxPods, podsPerCore, reservations, devicePlugin, "", imageIdOf(DEFAULT_ALIAS));
  }

  /**
   * The AMI id an {@code amiSelectorTerms} selection resolves to. The twin has no image catalogue:
   * an id is a stable function of the selection (for an alias, its {@code family@version}), so a
   * pinned version, another version or {@code latest} are each one AMI, and {@code latest} does not
   * move during a run. Upstream resolves the alias through SSM ({@code A:pkg/providers/amifamily/ami.go}).
   */
  public static String imageIdOf(String selection) {
    return resolvedId("ami-", selection);
  }

  /**
   * The id an EC2 selector term resolves to where it names none ({@code ami-}, {@code subnet-},
   * {@code sg-}): the twin has no EC2 account to describe, so a selection is one resource whose id is
   * a stable function of it.
   */
  public static String resolvedId(String prefix, String selection) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < selection.length(); i++) {
      h ^= selection.charAt(i);
      h *= 0x100000001b3L;
    }
    String hex = Long.toUnsignedString(h, 16);
    return prefix + "0".repeat(16 - hex.length()) + hex + "0";
  }

  /** The claim as the AWS provider's Create leaves it: stamped with this class's hash and the AMI it boots. */
  public NodeClaim stamp(NodeClaim claim) {
    var a = claim.annotations().with(IMAGE_ID_ANNOTATION, imageId);
    // The instance goes into one of the class's subnets (the first: the twin has no per-zone subnets
    // or free-IP counts) with all of its security groups.
    if (!subnets.isEmpty()) {
      a = a.with(SUBNET_ANNOTATION, subnets.getFirst());
    }
    if (!securityGroups.isEmpty()) {
      a = a.with(SECURITY_GROUPS_ANNOTATION, String.join(",", securityGroups));
    }
    if (!hash.isEmpty()) {
      a = a.with(HASH_ANNOTATION, hash).with(HASH_VERSION_ANNOTATION, HASH_VERSION);
    }
    return claim.withAnnotations(a);
  }

  /**
   * The AWS provider's drift reasons the twin models, in its order ({@code A:pkg/cloudprovider/drift.go}
   * isNodeClassDrifted): {@code NodeClassDrift} when the static hash differs from the one stamped at
   * launch ({@code areStaticFieldsDrifted}; no hash on either side is no drift), then {@code AMIDrift}
   * when the class resolves to another AMI than the claim booted ({@code isAMIDrifted}), then
   * {@code SecurityGroupDrift} when the instance's security groups are not exactly the class's
   * ({@code areSecurityGroupsDrifted}), then {@code SubnetDrift} when the instance's subnet is not
   * among the class's ({@code isSubnetDrifted}), then {@code CapacityReservationDrift} when the claim's
   * reservation is no longer in the class's status ({@code isCapacityReservationDrifted}): upstream's
   * order. Placement groups and instance profiles are not modelled.
   */
  public Optional<String> driftReason(NodeClaim claim) {
    Optional<String> stamped = claim.annotations().get(HASH_ANNOTATION);
    if (!hash.isEmpty() && stamped.isPresent() && !stamped.get().equals(hash)
        && claim.annotations().get(HASH_VERSION_ANNOTATION).map(HASH_VERSION::equals).orElse(false)) {
      return Optional.of("NodeClassDrift");
    }
    Optional<String> booted = claim.annotations().get(IMAGE_ID_ANNOTATION);
    if (booted.isPresent() && !booted.get().equals(imageId)) {
      return Optional.of("AMIDrift");
    }
    Optional<String> groups = claim.annotations().get(SECURITY_GROUPS_ANNOTATION);
    if (groups.isPresent() && !securityGroups.isEmpty()
        && !Set.of(groups.get().split(",")).equals(Set.copyOf(securityGroups))) {
      return Optional.of("SecurityGroupDrift");
    }
    Optional<String> subnet = claim.annotations().get(SUBNET_ANNOTATION);
    if (subnet.isPresent() && !subnets.isEmpty() && !subnets.contains(subnet.get())) {
      return Optional.of("SubnetDrift");
    }
    // isCapacityReservationDrifted: the claim's instance runs in a reservation the class's status no
    // longer holds. One that fell back to on-demand carries no reservation label and does not drift.
    Optional<String> reservation = claim.labels().get(CapacityReservation.ID_LABEL);
    if (reservation.isPresent()
        && capacityReservations.stream().noneMatch(s -> s.reservation().id().equals(reservation.get()))) {
      return Optional.of("CapacityReservationDrift");
    }
    return Optional.empty();
  }

  /** AL2023's root device, which holds the kubelet's directory ({@code A:pkg/providers/amifamily/al2023.go}). */
  public static final String AL2023_ROOT_DEVICE = "/dev/xvda";

  public EC2NodeClass {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(reservations, "reservations");
    devicePlugin = devicePlugin == null ? Optional.empty() : devicePlugin;
    Objects.requireNonNull(hash, "hash");
    Objects.requireNonNull(imageId, "imageId");
    subnets = List.copyOf(subnets);
    securityGroups = List.copyOf(securityGroups);
    capacityReservationSelectorTerms = List.copyOf(capacityReservationSelectorTerms);
    capacityReservations = List.copyOf(capacityReservations);
  }

  /** A node class whose AMI runs no device plugin of its own (AL2023: the cluster's plugin serves its nodes). */
  public EC2NodeClass(String name, OptionalInt maxPods, OptionalInt podsPerCore,
      AllocatableEstimate.Reservations reservations) {
    this(name, maxPods, podsPerCore, reservations, Optional.empty());
  }

  /** A node class that changes nothing: Karpenter's defaults. */
  public static EC2NodeClass defaults(String name) {
    return new EC2NodeClass(name, OptionalInt.empty(), OptionalInt.empty(), AllocatableEstimate.Reservations.DEFAULTS);
  }

  public boolean isDefault() {
    return maxPods.isEmpty() && podsPerCore.isEmpty() && reservations.equals(AllocatableEstimate.Reservations.DEFAULTS);
  }

  /**
   * Pods a node of {@code t} holds: {@code maxPods} where given, else the type's ENI-limited count,
   * at most {@code podsPerCore} × vCPUs where that is set ({@code A:pkg/providers/instancetype/types.go} pods).
   */
  public long pods(InstanceType t) {
    long count = maxPods.isPresent() ? maxPods.getAsInt() : t.maxPods();
    if (podsPerCore.orElse(0) > 0) {
      count = Math.min(count, (long) podsPerCore.getAsInt() * t.vcpu());
    }
    return count;
  }

  /**
   * The type as nodes of this class have it: its allocatable cpu, memory and ephemeral storage moved
   * by what this class's settings change in Karpenter's estimate (so a measured catalogue figure keeps
   * its offset), and its pods.
   */
  public InstanceType apply(InstanceType t) {
    return withReservedOfferings(sized(t));
  }

  /**
   * The type with a reserved offering for each reservation of its type in {@code capacityReservations}
   * and in one of its zones ({@code A:pkg/providers/instancetype/offering/reserved_capacity_resolver.go}
   * ResolveOfferings): priced at the on-demand price over ten million, available while it takes more
   * instances, is not expiring and is in a zone the type is offered in.
   */
  InstanceType withReservedOfferings(InstanceType t) {
    List<Offering> added = new ArrayList<>();
    for (ReservationStatus s : capacityReservations) {
      CapacityReservation r = s.reservation();
      if (!r.instanceType().equals(t.name())) {
        continue;
      }
      boolean inTypesZones = t.offerings().stream().anyMatch(o -> o.zone().equals(r.zone()));
      added.add(Offering.reserved(r, t.onDemandPrice(), s.available(),
          inTypesZones && s.available() != 0 && s.state() != CapacityReservation.State.EXPIRING));
    }
    if (added.isEmpty()) {
      return t;
    }
    List<Offering> all = new ArrayList<>(t.offerings());
    all.addAll(added);
    return t.withOfferings(all);
  }

  private InstanceType sized(InstanceType t) {
    if (isDefault()) {
      return t;
    }
    int pods = (int) pods(t);
    ResourceList before = AllocatableEstimate.of(t.vcpu(), t.memoryMib(), (int) t.maxPods());
    ResourceList after = AllocatableEstimate.of(t.vcpu(), t.memoryMib(), pods, reservations.on(t.name()));
    ResourceList alloc = t.allocatable();
    for (ResourceName r : List.of(ResourceName.CPU, ResourceName.MEMORY, ResourceName.EPHEMERAL_STORAGE)) {
      Quantity moved = alloc.getOrZero(r).plus(after.getOrZero(r)).minus(before.getOrZero(r));
      alloc = alloc.with(r, moved.compareTo(Quantity.ZERO) < 0 ? Quantity.ZERO : moved);
    }
    alloc = alloc.with(ResourceName.PODS, Quantity.of(pods));
    return new InstanceType(t.name(), t.architecture(), t.vcpu(), t.memoryMib(), t.gpu(), alloc, t.onDemandPrice(),
        t.offerings());
  }
}
