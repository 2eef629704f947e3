package io.gpufleet.model.cloud;

/**
 * Well-known node labels that describe an instance: the Kubernetes core ones and the AWS
 * provider's {@code karpenter.k8s.aws/*} ones (reference §1.2, {@code K:pkg/apis/v1/labels.go},
 * {@code A:pkg/apis/v1/labels.go}).
 */
public final class InstanceLabels {
  private InstanceLabels() {}

  public static final String INSTANCE_TYPE = "node.kubernetes.io/instance-type";
  public static final String ARCH = "kubernetes.io/arch";
  public static final String OS = "kubernetes.io/os";
  public static final String ZONE = "topology.kubernetes.io/zone";
  public static final String REGION = "topology.kubernetes.io/region";
  public static final String HOSTNAME = "kubernetes.io/hostname";

  private static final String AWS = "karpenter.k8s.aws/";
  public static final String INSTANCE_CATEGORY = AWS + "instance-category";
  public static final String INSTANCE_FAMILY = AWS + "instance-family";
  public static final String INSTANCE_GENERATION = AWS + "instance-generation";
  public static final String INSTANCE_SIZE = AWS + "instance-size";
  public static final String INSTANCE_CPU = AWS + "instance-cpu";
  public static final String INSTANCE_MEMORY = AWS + "instance-memory";
  public static final String INSTANCE_GPU_NAME = AWS + "instance-gpu-name";
  public static final String INSTANCE_GPU_MANUFACTURER = AWS + "instance-gpu-manufacturer";
  public static final String INSTANCE_GPU_COUNT = AWS + "instance-gpu-count";
  public static final String INSTANCE_GPU_MEMORY = AWS + "instance-gpu-memory";

  /** Deprecated aliases and the labels Karpenter normalises them to (reference §1.2). */
  public static String normalise(String key) {
    return switch (key) {
      case "beta.kubernetes.io/arch" -> ARCH;
      case "beta.kubernetes.io/os" -> OS;
      case "failure-domain.beta.kubernetes.io/zone" -> ZONE;
      case "failure-domain.beta.kubernetes.io/region" -> REGION;
      case "beta.kubernetes.io/instance-type" -> INSTANCE_TYPE;
      default -> key;
    };
  }
}
