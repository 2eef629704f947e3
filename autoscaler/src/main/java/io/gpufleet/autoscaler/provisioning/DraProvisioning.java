package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.autoscaler.AutoscalerSettings.DraRequests;
import io.gpufleet.engine.deviceplugin.GpuOperator;
import io.gpufleet.engine.dra.NvidiaDraDriver;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.workload.Workload;
import java.util.List;
import java.util.Objects;

/**
 * What the provisioner does with pods that have DRA ResourceClaims, and, for gpufleet's sizing
 * extension, the DRA objects their claims are resolved against (device classes, claims, templates,
 * slices the manifests define; the NVIDIA driver's classes are added where they are not).
 *
 * <p>{@link DraRequests#IGNORE} is Karpenter's default ({@code --ignore-dra-requests=true},
 * {@code K:pkg/operator/options/options.go}): {@code Scheduler.add} fails such a pod with
 * {@link #NOT_SUPPORTED} before trying any node ({@code K:pkg/controllers/provisioning/scheduling/scheduler.go}),
 * and DaemonSet pods with DRA requirements are left out of the daemon overhead
 * ({@code shouldSkipDaemonPod}, {@code buildDaemonOverheadGroups}).
 *
 * <p>Under {@link DraRequests#KARPENTER} ({@code --ignore-dra-requests=false}) Karpenter's own allocator
 * places claims: on the published devices of initialised nodes and on {@code devices}, the devices the
 * cloud provider declares per instance type (none on AWS, {@link InstanceTypeDevices#AWS}).
 *
 * <p>Under {@link DraRequests#ALLOCATE} only nodes whose GPUs are left to NVIDIA's DRA driver offer
 * devices: those whose labels turn the GPU Operator's device plugin off
 * ({@code nvidia.com/gpu.deploy.device-plugin: "false"}, {@link GpuOperator#runsDevicePlugin}); a
 * NodePool's template labels decide that for the nodes it launches.
 */
public record DraProvisioning(DraRequests mode, DraObjects objects, GpuCatalog gpus, ClusterClaims claims,
    InstanceTypeDevices devices) {

  /** {@code Scheduler.add}'s DRAError, as the FailedScheduling event ({@code PodFailedToScheduleEvent}) words it. */
  public static final String NOT_SUPPORTED =
      "Failed to schedule pod, pod has Dynamic Resource Allocation requirements that are not yet supported by Karpenter";

  /** Karpenter as it ships. */
  public static final DraProvisioning IGNORE = new DraProvisioning(DraRequests.IGNORE, DraObjects.NONE,
      GpuCatalog.builtIn());

  public DraProvisioning {
    Objects.requireNonNull(mode, "mode");
    objects = objects.withDefaultClasses(NvidiaDraDriver.deviceClasses());
    Objects.requireNonNull(gpus, "gpus");
    Objects.requireNonNull(claims, "claims");
    Objects.requireNonNull(devices, "devices");
  }

  /** With the devices the mode knows per instance type ({@link InstanceTypeDevices#of}). */
  public DraProvisioning(DraRequests mode, DraObjects objects, GpuCatalog gpus, ClusterClaims claims) {
    this(mode, objects, gpus, claims, InstanceTypeDevices.of(mode, gpus));
  }

  /** Over {@code objects} alone: templates instantiated per pod, allocations replayed from the bound pods. */
  public DraProvisioning(DraRequests mode, DraObjects objects, GpuCatalog gpus) {
    this(mode, objects, gpus, ClusterClaims.REPLAYED);
  }

  public boolean ignores() {
    return mode == DraRequests.IGNORE;
  }

  /** Whether Karpenter's own allocator places claims ({@code --ignore-dra-requests=false}). */
  public boolean karpenters() {
    return mode == DraRequests.KARPENTER;
  }

  /**
   * {@code K:pkg/utils/pod/scheduling.go} {@code HasDRARequirements}: the pod names claims. (It also
   * checks containers' {@code resources.claims}; the API server accepts those only for a name in
   * {@code spec.resourceClaims}, which gpufleet's manifest reader checks, so the pod's list decides.)
   */
  public static boolean hasDraRequirements(PodSpec spec) {
    return !spec.resourceClaims().isEmpty();
  }

  /** Whether a node with these labels (a NodePool's template labels for those it launches) runs the DRA driver. */
  public static boolean runsDraDriver(Labels labels) {
    return !GpuOperator.runsDevicePlugin(labels);
  }

  /** The DaemonSets whose pods count as overhead: those with DRA requirements not while ignoring them. */
  List<Workload.DaemonSet> countedDaemons(List<Workload.DaemonSet> daemonSets) {
    if (!ignores()) {
      return daemonSets;
    }
    return daemonSets.stream().filter(ds -> !hasDraRequirements(ds.template().spec())).toList();
  }
}
