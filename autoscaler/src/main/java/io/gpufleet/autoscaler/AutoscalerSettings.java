package io.gpufleet.autoscaler;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Karpenter's operator settings and timings that gpufleet models, with Karpenter's defaults, plus
 * gpufleet's own extensions (marked as such).
 *
 * @param batchIdle {@code BATCH_IDLE_DURATION}, 1 s (reference §1.4)
 * @param batchMax {@code BATCH_MAX_DURATION}, 10 s (reference §1.4)
 * @param disruptionPoll how often the disruption controller runs, 10 s (reference §1.5)
 * @param commandValidationDelay how long a disruption decision waits before it is re-checked and
 *     executed, 15 s (reference §1.5)
 * @param launchTimeout a NodeClaim not launched by then is deleted, 5 min (reference §1.3)
 * @param registrationTimeout a NodeClaim not registered by then is deleted, 15 min (reference §1.3)
 * @param replacementTimeout how long a disruption waits for its replacements to initialise before it
 *     gives up and untaints its candidates; Karpenter allows 10 min to 1 h by queue length (reference
 *     §1.5), gpufleet uses one figure
 * @param multiNodeMaxCandidates at most this many candidates in a multi-node consolidation, 100
 *     (reference §1.5)
 * @param spotToSpotConsolidation the {@code SpotToSpotConsolidation} feature gate, off by default
 *     (reference §1.4)
 * @param initializationTimeout <b>gpufleet extension</b>, off by default: delete a NodeClaim that
 *     registered but is not initialised after this long (Karpenter has no such timeout, reference §1.3
 *     and pain point 2)
 * @param sizing how new nodes are sized for GPUs: as Karpenter does (physical GPUs, the default) or, a
 *     gpufleet extension, by what the device-plugin config the node will get advertises
 * @param evictionRetry how soon a drain retries an eviction the API refused
 * @param nodeOverlay the {@code NodeOverlay} feature gate, off by default ({@code K:pkg/operator/options/options.go}):
 *     NodeOverlays are honoured only with it on
 * @param draRequests what the provisioner does with pods that have DRA ResourceClaims: as Karpenter
 *     by default (refused), as Karpenter with {@code --ignore-dra-requests=false} (its own allocator),
 *     or, a gpufleet extension, size nodes by the NVIDIA DRA driver's devices
 */
public record AutoscalerSettings(
    Duration batchIdle,
    Duration batchMax,
    Duration disruptionPoll,
    Duration commandValidationDelay,
    Duration launchTimeout,
    Duration registrationTimeout,
    Duration replacementTimeout,
    int multiNodeMaxCandidates,
    boolean spotToSpotConsolidation,
    Optional<Duration> initializationTimeout,
    GpuSizing sizing,
    Duration evictionRetry,
    boolean nodeOverlay,
    DraRequests draRequests) {

  /** How the provisioner counts the GPUs of a node it has not launched yet. */
  public enum GpuSizing {
    /** As Karpenter: the instance type's physical GPUs, whatever the device plugin will do (pain point 3). */
    PHYSICAL,
    /** gpufleet: what the node's device-plugin config will advertise, e.g. GPUs × time-slicing replicas. */
    ADVERTISED
  }

  /** What the provisioner does with a pod that has DRA ResourceClaims. */
  public enum DraRequests {
    /**
     * As Karpenter: its {@code --ignore-dra-requests} ({@code IGNORE_DRA_REQUESTS}) defaults to true
     * ({@code K:pkg/operator/options/options.go}), and the scheduler then refuses such a pod
     * ({@code K:pkg/controllers/provisioning/scheduling/scheduler.go}, {@code Scheduler.add}).
     */
    IGNORE,
    /**
     * As Karpenter with {@code --ignore-dra-requests=false}: its own DRA allocator
     * ({@code K:pkg/scheduling/dynamicresources/allocator.go}) places claims on the devices of existing
     * initialised nodes' published ResourceSlices and on the devices the cloud provider declares for
     * each instance type ({@code InstanceType.DynamicResources}); the AWS provider declares none
     * ({@code A:} at 1d927085 nothing sets it), so no new node is launched for a claim.
     */
    KARPENTER,
    /** gpufleet: sizes the node so that the NVIDIA DRA driver's devices on it satisfy the pod's claims. */
    ALLOCATE
  }

  public static final AutoscalerSettings DEFAULTS = new AutoscalerSettings(
      Duration.ofSeconds(1), Duration.ofSeconds(10), Duration.ofSeconds(10), Duration.ofSeconds(15),
      Duration.ofMinutes(5), Duration.ofMinutes(15), Duration.ofMinutes(10), 100, false, Optional.empty(),
      GpuSizing.PHYSICAL, Duration.ofSeconds(5), false, DraRequests.IGNORE);

  public AutoscalerSettings {
    Objects.requireNonNull(batchIdle, "batchIdle");
    Objects.requireNonNull(batchMax, "batchMax");
    Objects.requireNonNull(initializationTimeout, "initializationTimeout");
    Objects.requireNonNull(sizing, "sizing");
    Objects.requireNonNull(draRequests, "draRequests");
  }

  /** Karpenter's {@code BATCH_IDLE_DURATION} and {@code BATCH_MAX_DURATION}. */
  public AutoscalerSettings withBatchWindow(Duration idle, Duration max) {
    return new AutoscalerSettings(idle, max, disruptionPoll, commandValidationDelay, launchTimeout,
        registrationTimeout, replacementTimeout, multiNodeMaxCandidates, spotToSpotConsolidation,
        initializationTimeout, sizing, evictionRetry, nodeOverlay, draRequests);
  }

  public AutoscalerSettings withSizing(GpuSizing s) {
    return new AutoscalerSettings(batchIdle, batchMax, disruptionPoll, commandValidationDelay, launchTimeout,
        registrationTimeout, replacementTimeout, multiNodeMaxCandidates, spotToSpotConsolidation,
        initializationTimeout, s, evictionRetry, nodeOverlay, draRequests);
  }

  public AutoscalerSettings withInitializationTimeout(Optional<Duration> t) {
    return new AutoscalerSettings(batchIdle, batchMax, disruptionPoll, commandValidationDelay, launchTimeout,
        registrationTimeout, replacementTimeout, multiNodeMaxCandidates, spotToSpotConsolidation, t, sizing,
        evictionRetry, nodeOverlay, draRequests);
  }

  public AutoscalerSettings withSpotToSpotConsolidation(boolean on) {
    return new AutoscalerSettings(batchIdle, batchMax, disruptionPoll, commandValidationDelay, launchTimeout,
        registrationTimeout, replacementTimeout, multiNodeMaxCandidates, on, initializationTimeout, sizing,
        evictionRetry, nodeOverlay, draRequests);
  }

  public AutoscalerSettings withNodeOverlay(boolean on) {
    return new AutoscalerSettings(batchIdle, batchMax, disruptionPoll, commandValidationDelay, launchTimeout,
        registrationTimeout, replacementTimeout, multiNodeMaxCandidates, spotToSpotConsolidation,
        initializationTimeout, sizing, evictionRetry, on, draRequests);
  }

  public AutoscalerSettings withDraRequests(DraRequests d) {
    return new AutoscalerSettings(batchIdle, batchMax, disruptionPoll, commandValidationDelay, launchTimeout,
        registrationTimeout, replacementTimeout, multiNodeMaxCandidates, spotToSpotConsolidation,
        initializationTimeout, sizing, evictionRetry, nodeOverlay, d);
  }
}
