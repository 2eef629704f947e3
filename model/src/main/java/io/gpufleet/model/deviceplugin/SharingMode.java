package io.gpufleet.model.deviceplugin;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * How a card is handed to tenants: exclusively, time-sliced or through MPS with the device plugin's
 * replicas, or cut into MIG instances that are each used in one of those three ways.
 *
 * <p>The one sharing vocabulary of gpufleet: the device plugin's config resolves to a
 * {@link Sharing} that gives each advertised device one of these modes ({@link Sharing#modeOf}), and
 * the performance model and the advisor reason over the same modes. A new way of sharing is a new
 * record here (and a {@link Family}); the exhaustive switches over it show what else must learn it.
 */
public sealed interface SharingMode {

  /** The four ways of the sharing module; a MIG instance shared by time-slicing belongs to two. */
  enum Family {
    EXCLUSIVE, TIME_SLICING, MPS, MIG;

    public String label() {
      return switch (this) {
        case EXCLUSIVE -> "exclusive";
        case TIME_SLICING -> "time-slicing";
        case MPS -> "MPS";
        case MIG -> "MIG";
      };
    }
  }

  /** {@code exclusive}, {@code time-slicing x4}, {@code MPS x4 (25% threads)}, {@code MIG 1g.10gb + time-slicing x2}. */
  String label();

  Set<Family> families();

  /** How many tenants one device (card or MIG instance) takes: the device plugin's replicas, or 1. */
  int tenantsPerDevice();

  /** One pod, one GPU. */
  record Exclusive() implements SharingMode {
    @Override
    public String label() {
      return "exclusive";
    }

    @Override
    public Set<Family> families() {
      return EnumSet.of(Family.EXCLUSIVE);
    }

    @Override
    public int tenantsPerDevice() {
      return 1;
    }
  }

  /** The device plugin advertises {@code replicas} per device; the GPU round-robins between contexts. */
  record TimeSlicing(int replicas) implements SharingMode {
    public TimeSlicing {
      if (replicas < 2) {
        throw new IllegalArgumentException("time-slicing needs replicas >= 2 (device plugin rule), found " + replicas);
      }
    }

    @Override
    public String label() {
      return "time-slicing x" + replicas;
    }

    @Override
    public Set<Family> families() {
      return EnumSet.of(Family.TIME_SLICING);
    }

    @Override
    public int tenantsPerDevice() {
      return replicas;
    }
  }

  /**
   * MPS with {@code replicas} clients per device, each limited to {@code activeThreadPercentage} of
   * the SMs and, when {@code pinnedMemoryLimit}, to memory / replicas. The device plugin sets both:
   * 100 / replicas (integer division) and {@code floor(memory / replicas)} MiB (k8s-gpu-semantics
   * §2.2); {@link #unlimited} is the daemon's default, as in the H200 measurement.
   */
  record Mps(int replicas, int activeThreadPercentage, boolean pinnedMemoryLimit) implements SharingMode {

    /**
     * MPS serves at most 48 clients per device (NVIDIA MIG user guide, on MPS inside MIG instances:
     * "the maximum number of clients (48) is lowered proportionally to the Compute Instance size").
     */
    public static final int MAX_CLIENTS = 48;

    public Mps {
      // The client limit (MAX_CLIENTS) is the config's to enforce; 100 / replicas is 0 beyond 100.
      if (replicas < 1 || activeThreadPercentage < 0 || activeThreadPercentage > 100) {
        throw new IllegalArgumentException("MPS needs replicas >= 1 and a thread percentage in 0..100");
      }
    }

    /**
     * As the NVIDIA device plugin configures each client: active thread percentage {@code 100 /
     * replicas} (integer division) and pinned device memory {@code floor(memory / replicas)} MiB
     * ({@code cmd/mps-control-daemon/mps/daemon.go}, k8s-gpu-semantics §2.2).
     */
    public static Mps devicePlugin(int replicas) {
      if (replicas < 1) {
        throw new IllegalArgumentException("replicas must be >= 1, found " + replicas);
      }
      return new Mps(replicas, 100 / replicas, true);
    }

    /** The device memory one client may use on a device of {@code deviceMemoryMiB}. */
    public long clientMemoryMiB(long deviceMemoryMiB) {
      return pinnedMemoryLimit ? deviceMemoryMiB / replicas : deviceMemoryMiB;
    }

    /** No per-client limit: {@code nvidia-cuda-mps-control -d} with its defaults. */
    public static Mps unlimited(int replicas) {
      return new Mps(replicas, 100, false);
    }

    /** The share of SMs one client may use. */
    public double threadShare() {
      return activeThreadPercentage / 100.0;
    }

    @Override
    public String label() {
      return "MPS x" + replicas + (pinnedMemoryLimit ? " (" + activeThreadPercentage + "% threads)" : " (no limits)");
    }

    @Override
    public Set<Family> families() {
      return EnumSet.of(Family.MPS);
    }

    @Override
    public int tenantsPerDevice() {
      return replicas;
    }
  }

  /** Each tenant group gets a MIG instance of {@code profile}, used within as {@code within} says. */
  record Mig(String profile, SharingMode within) implements SharingMode {
    public Mig {
      Objects.requireNonNull(profile, "profile");
      Objects.requireNonNull(within, "within");
      if (within instanceof Mig) {
        throw new IllegalArgumentException("a MIG instance cannot be cut again");
      }
    }

    public static Mig alone(String profile) {
      return new Mig(profile, new Exclusive());
    }

    @Override
    public String label() {
      return switch (within) {
        case Exclusive e -> "MIG " + profile;
        case TimeSlicing t -> "MIG " + profile + " + " + t.label();
        case Mps m -> "MIG " + profile + " + " + m.label();
        case Mig m -> throw new IllegalStateException("nested MIG");
      };
    }

    @Override
    public Set<Family> families() {
      Set<Family> f = EnumSet.of(Family.MIG);
      if (!(within instanceof Exclusive)) {
        f.addAll(within.families());
      }
      return f;
    }

    @Override
    public int tenantsPerDevice() {
      return within.tenantsPerDevice();
    }
  }
}
