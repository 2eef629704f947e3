package io.gpufleet.model.deviceplugin;

import java.util.Optional;

/**
 * The sharing strategy a config resolves to: MPS if any {@code sharing.mps} resource has more than
 * one replica, else time-slicing if any time-slicing resource does, else none
 * ({@code api/config/v1/sharing.go}, k8s-gpu-semantics §2.1). It applies to every GPU of the node,
 * and gives each advertised device a {@link SharingMode}, the vocabulary the performance model and
 * the advisor share.
 */
public sealed interface Sharing {

  /** GFD's {@code nvidia.com/gpu.sharing-strategy} value. */
  String strategy();

  /** The way of sharing this strategy stands for. */
  SharingMode.Family family();

  /**
   * How each device of a resource is shared under this strategy: exclusive when it has one replica,
   * else time-sliced or MPS-shared by its replicas (MPS clients limited as the plugin limits them).
   */
  default SharingMode modeOf(String resourceName) {
    int replicas = replicas(resourceName);
    return replicas <= 1 ? new SharingMode.Exclusive() : sharedBy(replicas);
  }

  /**
   * How a device with {@code replicas} (more than one) is shared under this strategy. A method of
   * each record rather than a pattern switch, which would make a class at run time on first use.
   */
  SharingMode sharedBy(int replicas);

  /** The replicas of a resource under this strategy (1 when not shared). */
  int replicas(String resourceName);

  /** Whether a shared resource is advertised as {@code <name>.shared}. */
  boolean renamed();

  /** Whether a request for more than one replica fails {@code Allocate}. */
  boolean failRequestsGreaterThanOne();

  Optional<SharingSpec> spec();

  record Exclusive() implements Sharing {
    @Override
    public String strategy() {
      return "none";
    }

    @Override
    public SharingMode.Family family() {
      return SharingMode.Family.EXCLUSIVE;
    }

    @Override
    public int replicas(String resourceName) {
      return 1;
    }

    @Override
    public boolean renamed() {
      return false;
    }

    @Override
    public boolean failRequestsGreaterThanOne() {
      return false;
    }

    @Override
    public Optional<SharingSpec> spec() {
      return Optional.empty();
    }

    @Override
    public SharingMode sharedBy(int replicas) {
      return new SharingMode.Exclusive();
    }
  }

  /** Time-slicing or MPS: replicas, renaming and the request limit all come from the config's settings. */
  sealed interface Replicated extends Sharing {
    SharingSpec settings();

    @Override
    default int replicas(String resourceName) {
      return settings().resource(resourceName).map(r -> Math.max(1, r.replicas())).orElse(1);
    }

    @Override
    default boolean renamed() {
      return settings().renameByDefault();
    }

    @Override
    default boolean failRequestsGreaterThanOne() {
      return settings().failRequestsGreaterThanOne();
    }

    @Override
    default Optional<SharingSpec> spec() {
      return Optional.of(settings());
    }
  }

  record TimeSlicing(SharingSpec settings) implements Replicated {
    @Override
    public String strategy() {
      return "time-slicing";
    }

    @Override
    public SharingMode.Family family() {
      return SharingMode.Family.TIME_SLICING;
    }

    @Override
    public SharingMode sharedBy(int replicas) {
      return new SharingMode.TimeSlicing(replicas);
    }
  }

  /** MPS: full GPUs only, {@code nvidia.com/gpu} only; requests for more than one replica fail by default. */
  record Mps(SharingSpec settings) implements Replicated {
    @Override
    public String strategy() {
      return "mps";
    }

    @Override
    public SharingMode.Family family() {
      return SharingMode.Family.MPS;
    }

    @Override
    public SharingMode sharedBy(int replicas) {
      return SharingMode.Mps.devicePlugin(replicas);
    }
  }
}
