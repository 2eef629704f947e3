package io.gpufleet.engine.dra;

import io.gpufleet.model.dra.DeviceConfig;
import io.gpufleet.model.dra.GpuConfig;
import io.gpufleet.model.dra.ResourceClaim;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * What NVIDIA's GPU kubelet plugin does when the kubelet asks it to prepare an allocated claim
 * (NVIDIA/k8s-dra-driver-gpu {@code cmd/gpu-kubelet-plugin/device_state.go}, {@code prepareDevices}
 * and {@code applySharingConfig}): each allocated device gets the last of the claim's
 * {@code gpu.nvidia.com} configs that applies to it (one naming its request or one naming none),
 * else the driver's default {@code GpuConfig}; each config is normalized, validated and applied as the driver
 * does ({@code api/nvidia.com/resource/v1beta1/gpuconfig.go}, {@code validate.go}, {@code sharing.go}),
 * and an error fails the preparation with the driver's words, so the pod's containers do not start.
 * Time-slicing and MPS are alpha features of the driver, off unless its feature gates are set.
 */
public final class GpuClaimPreparation {
  private GpuClaimPreparation() {}

  /**
   * The driver's feature gates the twin models ({@code pkg/featuregates/featuregates.go}, all alpha and
   * off by default): TimeSlicingSettings and MPSSupport, which sharing depends on, and DynamicMIG, under
   * which the driver publishes each MIG-capable card and every MIG placement on it as partitionable
   * devices ({@link NvidiaDraDriver}).
   */
  public record FeatureGates(boolean timeSlicingSettings, boolean mpsSupport, boolean dynamicMig) {
    public static final FeatureGates DEFAULTS = new FeatureGates(false, false, false);

    /** The gates the twin models, by their upstream names. */
    public static final List<String> NAMES = List.of("TimeSlicingSettings", "MPSSupport", "DynamicMIG");

    /** The sharing gates, DynamicMIG off. */
    public FeatureGates(boolean timeSlicingSettings, boolean mpsSupport) {
      this(timeSlicingSettings, mpsSupport, false);
    }

    /** These gates with {@code gate} set; empty for a gate the twin does not model. */
    public Optional<FeatureGates> with(String gate, boolean on) {
      return switch (gate) {
        case "TimeSlicingSettings" -> Optional.of(new FeatureGates(on, mpsSupport, dynamicMig));
        case "MPSSupport" -> Optional.of(new FeatureGates(timeSlicingSettings, on, dynamicMig));
        case "DynamicMIG" -> Optional.of(new FeatureGates(timeSlicingSettings, mpsSupport, on));
        default -> Optional.empty();
      };
    }
  }

  /** How one prepared device is shared by the containers given it. */
  public sealed interface Sharing {
    /** No sharing settings applied: the card as it is (its own time-slicing between processes). */
    record Unset() implements Sharing {}

    /** Compute mode DEFAULT and the time slice set ({@code nvidia-smi compute-policy}). */
    record TimeSliced(String interval) implements Sharing {}

    /**
     * An MPS control daemon for the claim: its default active-thread percentage (empty: MPS's own
     * 100) and pinned memory limit per device ({@code <MiB>M}, as the driver writes it).
     */
    record Mps(Optional<Integer> activeThreadPercentage, Optional<String> pinnedDeviceMemoryLimit) implements Sharing {}
  }

  /**
   * One prepared device and what a container using it is given beyond the device: the MPS pipe
   * directory's variable under MPS ({@code GetCDIContainerEdits}), nothing more otherwise.
   */
  public record PreparedDevice(String request, String device, Sharing sharing, List<String> containerEnv) {
    public PreparedDevice {
      containerEnv = List.copyOf(containerEnv);
    }
  }

  public sealed interface Outcome {
    record Prepared(List<PreparedDevice> devices) implements Outcome {
      public Prepared {
        devices = List.copyOf(devices);
      }
    }

    /** NodePrepareResources failed: the kubelet retries and the pod's containers wait. */
    record Failed(String message) implements Outcome {}
  }

  private static final String TIME_SLICING = "TimeSlicing";
  private static final String MPS = "MPS";
  private static final List<String> INTERVALS = List.of("Default", "Short", "Medium", "Long");

  /**
   * Prepares {@code claim}'s devices of {@code allocation} that belong to the driver;
   * {@code uuids} gives each allocated device's GPU UUID (MPS limits may name a device by it).
   */
  public static Outcome prepare(ResourceClaim claim, Allocation allocation, FeatureGates gates,
      Map<String, String> uuids) {
    List<DeviceConfig> configs = claim.spec().config().stream()
        .filter(c -> c.driver().equals(GpuConfig.DRIVER) && c.parameters() instanceof GpuConfig).toList();
    // The config each result takes; the driver's default GpuConfig (index -1) has the lowest precedence.
    Map<Integer, List<Allocation.Result>> byConfig = new TreeMap<>();
    for (Allocation.Result r : allocation.results()) {
      if (!r.driver().equals(GpuConfig.DRIVER)) {
        continue;
      }
      int chosen = -1;
      for (int i = configs.size() - 1; i >= 0; i--) {
        if (configs.get(i).appliesTo(r.request())) {
          chosen = i;
          break;
        }
      }
      byConfig.computeIfAbsent(chosen, k -> new ArrayList<>()).add(r);
    }
    Map<String, PreparedDevice> prepared = new LinkedHashMap<>();
    for (var e : byConfig.entrySet()) {
      GpuConfig config = e.getKey() < 0 ? new GpuConfig(Optional.empty())
          : (GpuConfig) configs.get(e.getKey()).parameters();
      List<Allocation.Result> results = e.getValue();
      Optional<GpuConfig.Sharing> sharing = normalize(config, gates);
      if (sharing.isPresent()) {
        Optional<String> invalid = validate(sharing.get(), gates);
        if (invalid.isPresent()) {
          return new Outcome.Failed("error validating GPU config: " + invalid.get());
        }
      }
      Outcome applied = apply(sharing, gates, claim, results, uuids);
      if (applied instanceof Outcome.Prepared p) {
        p.devices().forEach(d -> prepared.put(d.device(), d));
      } else {
        return applied;
      }
    }
    List<PreparedDevice> inOrder = new ArrayList<>();
    for (Allocation.Result r : allocation.results()) {
      Optional.ofNullable(prepared.get(r.device())).ifPresent(inOrder::add);
    }
    return new Outcome.Prepared(inOrder);
  }

  /** {@code GpuConfig.Normalize}: the implied strategy and its config where the gates allow them. */
  static Optional<GpuConfig.Sharing> normalize(GpuConfig config, FeatureGates gates) {
    Optional<GpuConfig.Sharing> s = config.sharing();
    if (s.isEmpty()) {
      if (!gates.timeSlicingSettings()) {
        return s;
      }
      s = Optional.of(new GpuConfig.Sharing(TIME_SLICING, Optional.empty(), Optional.empty()));
    }
    GpuConfig.Sharing x = s.get();
    if (gates.timeSlicingSettings() && x.strategy().equals(TIME_SLICING) && x.timeSlicingConfig().isEmpty()) {
      x = new GpuConfig.Sharing(x.strategy(), Optional.of(new GpuConfig.TimeSlicing(Optional.of("Default"))),
          x.mpsConfig());
    }
    if (gates.mpsSupport() && x.strategy().equals(MPS) && x.mpsConfig().isEmpty()) {
      x = new GpuConfig.Sharing(x.strategy(), x.timeSlicingConfig(), Optional.of(new GpuConfig.Mps(Optional.empty(),
          Optional.empty(), Map.of())));
    }
    return Optional.of(x);
  }

  /** {@code GpuSharing.Validate}: a known strategy whose gate is on, and its config's own checks. */
  static Optional<String> validate(GpuConfig.Sharing s, FeatureGates gates) {
    switch (s.strategy()) {
      case TIME_SLICING -> {
        if (!gates.timeSlicingSettings()) {
          return Optional.of(gateError(TIME_SLICING, "TimeSlicingSettings"));
        }
        // TimeSlicingConfig.Validate: Interval.Validate. A block without interval is not filled in by
        // Normalize, and the driver then dereferences a nil interval: the twin says so as an error.
        Optional<String> interval = s.timeSlicingConfig().flatMap(GpuConfig.TimeSlicing::interval);
        if (interval.isEmpty()) {
          return Optional.of("timeSlicingConfig has no interval (the driver validates a nil interval and fails)");
        }
        if (!INTERVALS.contains(interval.get())) {
          return Optional.of("unknown time-slice interval: " + interval.get() + ", supported time-slice intervals: "
              + String.join(", ", INTERVALS));
        }
        return Optional.empty();
      }
      case MPS -> {
        if (!gates.mpsSupport()) {
          return Optional.of(gateError(MPS, "MPSSupport"));
        }
        Optional<Integer> p = s.mpsConfig().flatMap(GpuConfig.Mps::defaultActiveThreadPercentage);
        if (p.isPresent() && p.get() < 0) {
          return Optional.of("active thread percentage must not be negative");
        }
        if (p.isPresent() && p.get() > 100) {
          return Optional.of("active thread percentage must not be greater than 100");
        }
        return Optional.empty();
      }
      default -> {
        return Optional.of("unknown GPU sharing strategy: " + s.strategy() + ", supported GPU sharing strategies: "
            + TIME_SLICING + ", " + MPS);
      }
    }
  }

  private static String gateError(String strategy, String gate) {
    return "\"" + strategy + "\" is selected as the GPU sharing strategy, but the \"" + gate
        + "\" feature gate is not enabled";
  }

  /** {@code applySharingConfig}: time-slicing or an MPS daemon over the results' GPUs. */
  private static Outcome apply(Optional<GpuConfig.Sharing> sharing, FeatureGates gates, ResourceClaim claim,
      List<Allocation.Result> results, Map<String, String> uuids) {
    List<String> requests = results.stream().map(Allocation.Result::request).toList();
    Sharing how = new Sharing.Unset();
    List<String> env = List.of();
    Map<String, String> limits = Map.of();
    if (sharing.isPresent() && gates.timeSlicingSettings() && sharing.get().strategy().equals(TIME_SLICING)) {
      if (sharing.get().mpsConfig().isPresent()) {
        return new Outcome.Failed("error applying config: error getting timeslice config for requests '"
            + goList(requests) + "' in claim '" + claim.key() + "': cannot use MpsConfig with the 'TimeSlicing' strategy");
      }
      how = new Sharing.TimeSliced(sharing.get().timeSlicingConfig().flatMap(GpuConfig.TimeSlicing::interval)
          .orElseThrow());
    } else if (sharing.isPresent() && gates.mpsSupport() && sharing.get().strategy().equals(MPS)) {
      if (gates.dynamicMig()) {
        // device_state.go, applySharingConfig: MPS needs the MIG device's UUID, made only at preparation.
        return new Outcome.Failed("error applying config: MPS is not yet supported when using "
            + "featureGates.DynamicMIG=true");
      }
      if (sharing.get().timeSlicingConfig().isPresent()) {
        return new Outcome.Failed("error applying config: error getting MPS configuration: cannot use "
            + "TimeSlicingConfig with the 'MPS' strategy");
      }
      GpuConfig.Mps mps = sharing.get().mpsConfig().orElseThrow();
      List<String> deviceUuids = results.stream().map(r -> uuids.getOrDefault(r.device(), r.device())).toList();
      var normalized = pinnedLimits(mps, deviceUuids);
      if (normalized instanceof Limits.Invalid i) {
        return new Outcome.Failed("error applying config: error starting MPS control daemon: error transforming "
            + "DefaultPerDevicePinnedMemoryLimit into string: " + i.message());
      }
      limits = ((Limits.Valid) normalized).byUuid();
      how = null;
      env = List.of("CUDA_MPS_PIPE_DIRECTORY=/tmp/nvidia-mps");
    }
    List<PreparedDevice> out = new ArrayList<>();
    for (Allocation.Result r : results) {
      Sharing s = how != null ? how : new Sharing.Mps(sharing.orElseThrow().mpsConfig().orElseThrow()
          .defaultActiveThreadPercentage(), Optional.ofNullable(limits.get(uuids.getOrDefault(r.device(), r.device()))));
      out.add(new PreparedDevice(r.request(), r.device(), s, env));
    }
    return new Outcome.Prepared(out);
  }

  private sealed interface Limits {
    record Valid(Map<String, String> byUuid) implements Limits {}

    record Invalid(String message) implements Limits {}
  }

  /** {@code MpsPerDevicePinnedMemoryLimit.Normalize}: the default for every device, then the overrides. */
  private static Limits pinnedLimits(GpuConfig.Mps mps, List<String> uuids) {
    Map<String, String> limits = new TreeMap<>();
    if (mps.defaultPinnedDeviceMemoryLimit().isPresent() && !uuids.isEmpty()) {
      long mib = mps.defaultPinnedDeviceMemoryLimit().get() / 1024 / 1024;
      if (mib <= 0) {
        return new Limits.Invalid("invalid limit: default value set too low: "
            + mps.defaultPinnedDeviceMemoryLimit().get());
      }
      uuids.forEach(u -> limits.put(u, mib + "M"));
    }
    for (var e : mps.defaultPerDevicePinnedMemoryLimit().entrySet()) {
      String key = e.getKey();
      String id;
      if (uuids.contains(key)) {
        id = key;
      } else {
        int index;
        try {
          index = Integer.parseInt(key);
        } catch (NumberFormatException x) {
          return new Limits.Invalid("invalid device: unable to parse key as an integer: " + key);
        }
        if (index < 0 || index >= uuids.size()) {
          return new Limits.Invalid("invalid device: invalid device index: " + index);
        }
        id = uuids.get(index);
      }
      long mib = e.getValue() / 1024 / 1024;
      if (mib <= 0) {
        return new Limits.Invalid("invalid limit: value set too low: " + key + ": " + e.getValue());
      }
      limits.put(id, mib + "M");
    }
    return new Limits.Valid(limits);
  }

  /** The GPU index of a whole-GPU device ({@code gpu-<minor>}, the driver's canonical name); empty for others. */
  public static OptionalInt gpuIndex(String device) {
    if (device.matches("gpu-[0-9]+")) {
      return OptionalInt.of(Integer.parseInt(device.substring("gpu-".length())));
    }
    return OptionalInt.empty();
  }

  /** A short account of how a device is shared, for views and metrics. */
  public static String describe(Sharing s) {
    return switch (s) {
      case Sharing.Unset u -> "claim";
      case Sharing.TimeSliced t -> "time-sliced " + t.interval();
      case Sharing.Mps m -> "MPS" + m.activeThreadPercentage().map(p -> " " + p + "% threads").orElse("")
          + m.pinnedDeviceMemoryLimit().map(l -> " " + l + " pinned").orElse("");
    };
  }

  /** A Go string slice as {@code %v} prints it. */
  private static String goList(List<String> items) {
    return "[" + String.join(" ", items) + "]";
  }
}
