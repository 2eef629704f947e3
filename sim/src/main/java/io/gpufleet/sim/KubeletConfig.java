package io.gpufleet.sim;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The kubelet settings that shape how fast a node starts pods: how image pulls queue. Upstream's
 * default is {@code serializeImagePulls: true} (one pull at a time, in the order pods were bound).
 * The EKS-optimized AMIs turn it off: AL2 in awslabs/amazon-eks-ami
 * {@code templates/al2/runtime/kubelet-config.json}, AL2023 in {@code nodeadm/internal/kubelet/config.go}
 * ({@code SerializeImagePulls: false}), and Bottlerocket in bottlerocket-os/bottlerocket-core-kit
 * {@code packages/kubernetes-1.31/kubelet-config}; none of them sets {@code maxParallelImagePulls},
 * so pulls run side by side without a bound. {@code registryPullQPS}/{@code registryBurst} (kubelet
 * defaults 5 and 10) only throttle how often pulls start; they are not modelled, and a pull's
 * duration does not stretch when others share the node's bandwidth (an assumption).
 *
 * @param serializeImagePulls one pull at a time when true
 * @param maxParallelImagePulls with parallel pulls, at most this many at once; empty for no bound
 */
public record KubeletConfig(boolean serializeImagePulls, OptionalInt maxParallelImagePulls) {

  /** The kubelet's own defaults (KubeletConfiguration v1beta1): serialized pulls. */
  public static final KubeletConfig UPSTREAM = new KubeletConfig(true, OptionalInt.empty());

  /** What the EKS-optimized AMIs (AL2, AL2023, Bottlerocket) configure: parallel, unbounded pulls. */
  public static final KubeletConfig EKS_AMI = new KubeletConfig(false, OptionalInt.empty());

  public KubeletConfig {
    Objects.requireNonNull(maxParallelImagePulls, "maxParallelImagePulls");
    if (maxParallelImagePulls.isPresent() && maxParallelImagePulls.getAsInt() < 1) {
      throw new IllegalArgumentException("maxParallelImagePulls must be at least 1");
    }
    if (serializeImagePulls && maxParallelImagePulls.orElse(1) > 1) {
      // The kubelet's own validation refuses this combination.
      throw new IllegalArgumentException("maxParallelImagePulls cannot be larger than 1 unless serializeImagePulls is "
          + "false");
    }
  }

  /** How many pulls may run at once on the node; empty for no bound. */
  public OptionalInt pullSlots() {
    return serializeImagePulls ? OptionalInt.of(1) : maxParallelImagePulls;
  }

  /**
   * The kubelet settings of each node class (EC2NodeClass name), and of nodes whose class is not
   * listed or who have none.
   */
  public record PerNodeClass(KubeletConfig byDefault, Map<String, KubeletConfig> nodeClasses) {

    /** Every node as the EKS-optimized AMIs configure it. */
    public static final PerNodeClass EKS_AMI = new PerNodeClass(KubeletConfig.EKS_AMI, Map.of());

    public PerNodeClass {
      Objects.requireNonNull(byDefault, "byDefault");
      nodeClasses = Map.copyOf(nodeClasses);
    }

    public KubeletConfig of(Optional<String> nodeClass) {
      return nodeClass.map(nodeClasses::get).orElse(byDefault);
    }
  }
}
