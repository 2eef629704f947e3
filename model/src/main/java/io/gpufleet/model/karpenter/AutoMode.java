package io.gpufleet.model.karpenter;

import io.gpufleet.model.cloud.InstanceLabels;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.label.Labels;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * EKS Auto Mode: Karpenter run by AWS, whose NodePools name an {@code eks.amazonaws.com/v1 NodeClass}
 * and whose nodes carry {@code eks.amazonaws.com/*} instance labels in place of the AWS provider's
 * {@code karpenter.k8s.aws/*} ones. Source: the EKS user guide, "Create a Node Pool for EKS Auto
 * Mode" ({@code awsdocs/amazon-eks-user-guide latest/ug/automode/create-node-pool.adoc}, "EKS Auto
 * Mode Supported Labels": "EKS Auto Mode uses different labels than Karpenter").
 */
public final class AutoMode {
  private AutoMode() {}

  /** The API group of Auto Mode's node class. */
  public static final String GROUP = "eks.amazonaws.com";
  public static final String NODE_CLASS_KIND = "NodeClass";
  /** The node class Auto Mode makes with its built-in node pools ({@code create-node-pool.adoc}). */
  public static final String DEFAULT_NODE_CLASS = "default";

  private static final String EKS = GROUP + "/";
  /** {@code eks.amazonaws.com/compute-type: auto}: marks Auto Mode's nodes (the guide's label table). */
  public static final String COMPUTE_TYPE = EKS + "compute-type";
  public static final String INSTANCE_CATEGORY = EKS + "instance-category";
  public static final String INSTANCE_FAMILY = EKS + "instance-family";
  public static final String INSTANCE_GENERATION = EKS + "instance-generation";
  public static final String INSTANCE_SIZE = EKS + "instance-size";
  public static final String INSTANCE_CPU = EKS + "instance-cpu";
  public static final String INSTANCE_MEMORY = EKS + "instance-memory";
  public static final String INSTANCE_GPU_NAME = EKS + "instance-gpu-name";
  public static final String INSTANCE_GPU_MANUFACTURER = EKS + "instance-gpu-manufacturer";
  public static final String INSTANCE_GPU_COUNT = EKS + "instance-gpu-count";
  public static final String INSTANCE_GPU_MEMORY = EKS + "instance-gpu-memory";

  /** The GPU keys, which a type without GPUs lacks. */
  public static final List<String> GPU_KEYS = List.of(INSTANCE_GPU_NAME, INSTANCE_GPU_MANUFACTURER, INSTANCE_GPU_COUNT,
      INSTANCE_GPU_MEMORY);

  /**
   * Each Auto Mode instance label the catalogue gives a value for, and the AWS provider's label with
   * the same value and format (the guide's examples: {@code g}, {@code 4}, {@code g4dn}, {@code 8xlarge},
   * {@code 32}, {@code 131072} MiB, {@code t4}, {@code nvidia}, {@code 1}, {@code 16384} MiB).
   */
  static final Map<String, String> FROM_PROVIDER = Map.of(
      INSTANCE_CATEGORY, InstanceLabels.INSTANCE_CATEGORY,
      INSTANCE_FAMILY, InstanceLabels.INSTANCE_FAMILY,
      INSTANCE_GENERATION, InstanceLabels.INSTANCE_GENERATION,
      INSTANCE_SIZE, InstanceLabels.INSTANCE_SIZE,
      INSTANCE_CPU, InstanceLabels.INSTANCE_CPU,
      INSTANCE_MEMORY, InstanceLabels.INSTANCE_MEMORY,
      INSTANCE_GPU_NAME, InstanceLabels.INSTANCE_GPU_NAME,
      INSTANCE_GPU_MANUFACTURER, InstanceLabels.INSTANCE_GPU_MANUFACTURER,
      INSTANCE_GPU_COUNT, InstanceLabels.INSTANCE_GPU_COUNT,
      INSTANCE_GPU_MEMORY, InstanceLabels.INSTANCE_GPU_MEMORY);

  /**
   * Auto Mode labels the guide lists that the catalogue has no column for: a requirement on one is
   * said with a warning, since no type would offer a value.
   */
  public static final Set<String> NOT_MODELLED = Set.of(EKS + "instance-hypervisor",
      EKS + "instance-encryption-in-transit-supported", EKS + "instance-cpu-manufacturer",
      EKS + "instance-ebs-bandwidth", EKS + "instance-network-bandwidth", EKS + "instance-local-nvme");

  /**
   * Keys a pod may ask for on an Auto Mode NodePool that does not define them: the core well-known
   * labels and Auto Mode's instance labels, in place of the AWS provider's. {@code kubernetes.io/os}
   * stays: the guide lists it as not supported as a requirement, but every node carries {@code linux}
   * and pods commonly select it.
   */
  public static final Set<String> WELL_KNOWN = wellKnown();

  private static Set<String> wellKnown() {
    Set<String> s = new TreeSet<>(List.of(KarpenterLabels.NODEPOOL, KarpenterLabels.CAPACITY_TYPE, InstanceLabels.ZONE,
        InstanceLabels.REGION, InstanceLabels.INSTANCE_TYPE, InstanceLabels.ARCH, InstanceLabels.OS, COMPUTE_TYPE));
    s.addAll(FROM_PROVIDER.keySet());
    s.addAll(NOT_MODELLED);
    return Set.copyOf(s);
  }

  /**
   * Auto Mode's defaults for a NodePool that leaves them out ({@code create-node-pool.adoc},
   * "Disruption": "Terminates instances after 336 hours"; "Termination Grace Period": a 24-hour
   * grace applied to the NodeClaim when the NodePool sets none).
   */
  public static final Duration DEFAULT_EXPIRE_AFTER = Duration.ofHours(336);
  public static final Duration DEFAULT_TERMINATION_GRACE_PERIOD = Duration.ofHours(24);

  public static boolean isAutoMode(NodeClassRef ref) {
    return ref.group().equals(GROUP);
  }

  public static boolean isAutoMode(NodePool pool) {
    return isAutoMode(pool.template().nodeClassRef());
  }

  /**
   * A type's labels as nodes of a NodePool of this node class carry them: the AWS provider's
   * {@code karpenter.k8s.aws/*} labels for an EC2NodeClass, Auto Mode's {@code eks.amazonaws.com/*}
   * ones and {@code compute-type: auto} for an Auto Mode NodeClass.
   */
  public static Labels instanceLabels(InstanceType t, NodeClassRef ref) {
    Labels provider = t.labels();
    if (!isAutoMode(ref)) {
      return provider;
    }
    TreeMap<String, String> m = new TreeMap<>(provider.map());
    FROM_PROVIDER.values().forEach(m::remove);
    FROM_PROVIDER.forEach((eks, aws) -> provider.get(aws).ifPresent(v -> m.put(eks, v)));
    m.put(COMPUTE_TYPE, "auto");
    return Labels.of(m);
  }

  /** The keys a pod may leave a NodePool of this node class undefined on (Karpenter's well-known labels). */
  public static Set<String> wellKnown(NodeClassRef ref, Set<String> karpenterWellKnown) {
    return isAutoMode(ref) ? WELL_KNOWN : karpenterWellKnown;
  }
}
