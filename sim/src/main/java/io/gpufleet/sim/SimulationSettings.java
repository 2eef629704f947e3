package io.gpufleet.sim;

import io.gpufleet.engine.dra.GpuClaimPreparation;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The simulated cloud's and kubelets' timings, the traffic-free defaults of pods, and how much the
 * simulator checks and records.
 *
 * @param launchToRegistration from a NodeClaim's launch to its node registering: about three minutes
 *     for a GPU AMI (the workshop module: "Pending pod → node in ~3 minutes"; KWOK has no delay,
 *     reference §1.9)
 * @param registrationToReady from registration to the kubelet reporting Ready
 * @param startupTaintRemoval how long after Ready the owner of startup taints removes them
 * @param defaultImagePull pull time of an image not listed in {@code imagePulls}
 * @param imagePulls pull times per image (a 9 GB vLLM image takes minutes, the workshop module)
 * @param imageSizes sizes in bytes per image, as a node's status reports images it pulled (what
 *     kube-scheduler's ImageLocality weighs); an image not listed counts as size 0
 * @param containerStart from images present to containers running
 * @param readiness from running to Ready (the readiness probe)
 * @param interruptionNoticeDelay from an interruption warning to Karpenter's queue
 * @param spotReclaimAfterWarning EC2 reclaims a spot instance two minutes after its warning
 *     (reference §1.7)
 * @param spotInterruptionsPerHour the rate per spot instance at which warnings are drawn (0: none)
 * @param invariants how thoroughly invariants are checked after each event
 * @param recordEvents whether the run record keeps every occurrence
 * @param horizon the longest a run may last in virtual time
 * @param kubelets the kubelet settings of each node class (how image pulls queue); the EKS-optimized
 *     AMIs' by default
 * @param draDriver NVIDIA's DRA driver's feature gates (a scenario's {@code draDriver.featureGates}),
 *     which decide whether a claim's GpuConfig sharing applies; upstream's defaults, both off
 * @param explainDecisions whether each disruption decision records why consolidation left every other
 *     node ({@code DisruptionConsidered}, what {@code simulate --explain} shows): asking costs a
 *     simulation per node at each decision, so only when asked (the option, or an expectation that
 *     counts those events)
 */
public record SimulationSettings(
    Duration launchToRegistration,
    Duration registrationToReady,
    Duration startupTaintRemoval,
    Duration defaultImagePull,
    Map<String, Duration> imagePulls,
    Map<String, Long> imageSizes,
    Duration containerStart,
    Duration readiness,
    Duration interruptionNoticeDelay,
    Duration spotReclaimAfterWarning,
    double spotInterruptionsPerHour,
    InvariantMode invariants,
    boolean recordEvents,
    Duration horizon,
    KubeletConfig.PerNodeClass kubelets,
    GpuClaimPreparation.FeatureGates draDriver,
    boolean explainDecisions) {

  /** How much invariant checking each event gets. */
  public enum InvariantMode {
    /** Every node and pod after every event: for tests. */
    FULL,
    /** Only what the event touched: the default, same guarantees for changes made by the simulator. */
    INCREMENTAL,
    OFF
  }

  public static final SimulationSettings DEFAULTS = new SimulationSettings(Duration.ofMinutes(3), Duration.ZERO,
      Duration.ZERO, Duration.ofSeconds(30), Map.of(), Map.of(), Duration.ZERO, Duration.ZERO, Duration.ZERO,
      Duration.ofMinutes(2), 0, InvariantMode.INCREMENTAL, true, Duration.ofDays(400),
      KubeletConfig.PerNodeClass.EKS_AMI, GpuClaimPreparation.FeatureGates.DEFAULTS, false);

  public SimulationSettings {
    Objects.requireNonNull(launchToRegistration, "launchToRegistration");
    imagePulls = Map.copyOf(imagePulls);
    imageSizes = Map.copyOf(imageSizes);
    Objects.requireNonNull(invariants, "invariants");
    Objects.requireNonNull(kubelets, "kubelets");
    Objects.requireNonNull(draDriver, "draDriver");
  }

  public Duration pullTime(String image) {
    return Optional.ofNullable(imagePulls.get(image)).orElse(defaultImagePull);
  }

  public long imageSize(String image) {
    return imageSizes.getOrDefault(image, 0L);
  }

  public SimulationSettings withInvariants(InvariantMode mode) {
    return new SimulationSettings(launchToRegistration, registrationToReady, startupTaintRemoval, defaultImagePull,
        imagePulls, imageSizes, containerStart, readiness, interruptionNoticeDelay, spotReclaimAfterWarning,
        spotInterruptionsPerHour, mode, recordEvents, horizon, kubelets, draDriver, explainDecisions);
  }

  public SimulationSettings withImagePulls(Duration byDefault, Map<String, Duration> perImage) {
    return new SimulationSettings(launchToRegistration, registrationToReady, startupTaintRemoval, byDefault,
        perImage, imageSizes, containerStart, readiness, interruptionNoticeDelay, spotReclaimAfterWarning,
        spotInterruptionsPerHour, invariants, recordEvents, horizon, kubelets, draDriver, explainDecisions);
  }

  public SimulationSettings withImageSizes(Map<String, Long> sizes) {
    return new SimulationSettings(launchToRegistration, registrationToReady, startupTaintRemoval, defaultImagePull,
        imagePulls, sizes, containerStart, readiness, interruptionNoticeDelay, spotReclaimAfterWarning,
        spotInterruptionsPerHour, invariants, recordEvents, horizon, kubelets, draDriver, explainDecisions);
  }

  public SimulationSettings withLaunchToRegistration(Duration d) {
    return new SimulationSettings(d, registrationToReady, startupTaintRemoval, defaultImagePull, imagePulls,
        imageSizes, containerStart, readiness, interruptionNoticeDelay, spotReclaimAfterWarning, spotInterruptionsPerHour,
        invariants, recordEvents, horizon, kubelets, draDriver, explainDecisions);
  }

  public SimulationSettings withSpotInterruptionsPerHour(double rate) {
    return new SimulationSettings(launchToRegistration, registrationToReady, startupTaintRemoval, defaultImagePull,
        imagePulls, imageSizes, containerStart, readiness, interruptionNoticeDelay, spotReclaimAfterWarning, rate, invariants,
        recordEvents, horizon, kubelets, draDriver, explainDecisions);
  }

  public SimulationSettings withRecordEvents(boolean on) {
    return new SimulationSettings(launchToRegistration, registrationToReady, startupTaintRemoval, defaultImagePull,
        imagePulls, imageSizes, containerStart, readiness, interruptionNoticeDelay, spotReclaimAfterWarning,
        spotInterruptionsPerHour, invariants, on, horizon, kubelets, draDriver, explainDecisions);
  }

  public SimulationSettings withKubelets(KubeletConfig.PerNodeClass k) {
    return new SimulationSettings(launchToRegistration, registrationToReady, startupTaintRemoval, defaultImagePull,
        imagePulls, imageSizes, containerStart, readiness, interruptionNoticeDelay, spotReclaimAfterWarning,
        spotInterruptionsPerHour, invariants, recordEvents, horizon, k, draDriver, explainDecisions);
  }

  public SimulationSettings withReadiness(Duration d) {
    return new SimulationSettings(launchToRegistration, registrationToReady, startupTaintRemoval, defaultImagePull,
        imagePulls, imageSizes, containerStart, d, interruptionNoticeDelay, spotReclaimAfterWarning, spotInterruptionsPerHour,
        invariants, recordEvents, horizon, kubelets, draDriver, explainDecisions);
  }

  public SimulationSettings withDraDriver(GpuClaimPreparation.FeatureGates gates) {
    return new SimulationSettings(launchToRegistration, registrationToReady, startupTaintRemoval, defaultImagePull,
        imagePulls, imageSizes, containerStart, readiness, interruptionNoticeDelay, spotReclaimAfterWarning,
        spotInterruptionsPerHour, invariants, recordEvents, horizon, kubelets, gates, explainDecisions);
  }

  public SimulationSettings withExplainDecisions(boolean on) {
    return new SimulationSettings(launchToRegistration, registrationToReady, startupTaintRemoval, defaultImagePull,
        imagePulls, imageSizes, containerStart, readiness, interruptionNoticeDelay, spotReclaimAfterWarning,
        spotInterruptionsPerHour, invariants, recordEvents, horizon, kubelets, draDriver, on);
  }
}
