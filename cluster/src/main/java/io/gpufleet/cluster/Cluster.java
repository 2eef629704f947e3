package io.gpufleet.cluster;

import io.gpufleet.engine.deviceplugin.GpuOperator;
import io.gpufleet.engine.dra.DraState;
import io.gpufleet.engine.random.SeededStreams;
import io.gpufleet.engine.scheduler.BatchPlacement;
import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.Scheduler;
import io.gpufleet.engine.scheduler.SchedulerProfile;
import io.gpufleet.engine.scheduler.plugin.DynamicResources;
import io.gpufleet.engine.workload.ControllerSelectors;
import io.gpufleet.engine.workload.InitialPods;
import io.gpufleet.manifest.ManifestBundle;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.scheduling.SchedulerConfiguration;
import io.gpufleet.model.workload.DisruptionBudget;
import io.gpufleet.model.workload.PodDisruptionBudget;
import io.gpufleet.model.workload.Workload;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * One cluster, as every command sees it: its nodes as they are now, the pods that hold or want room
 * (admitted), the workloads and PDBs, the DRA objects with what NVIDIA's DRA driver publishes for the
 * nodes it serves, the GPU Operator that registered the nodes (and registers what changes next), and
 * the warnings of the assembly. {@code bundle} is what was read, for views that point into the files.
 */
public record Cluster(List<ClusterNode> nodes, List<Pod> pods, List<Pod> succeededPods, List<Workload> workloads,
    List<PodDisruptionBudget> pdbs, DraObjects dra, GpuOperator operator, List<ManifestProblem> warnings,
    ManifestBundle bundle) {

  public Cluster {
    nodes = List.copyOf(nodes);
    pods = List.copyOf(pods);
    succeededPods = List.copyOf(succeededPods);
    workloads = List.copyOf(workloads);
    pdbs = List.copyOf(pdbs);
    warnings = List.copyOf(warnings);
  }

  /** The nodes as the scheduler sees them. */
  public List<Node> nodeValues() {
    return nodes.stream().map(ClusterNode::node).toList();
  }

  /** A placement of the cluster's pods and the DRA plugin whose allocations it made. */
  public record Placement(BatchPlacement.Result result, DynamicResources dynamicResources) {}

  /**
   * kube-scheduler's default profile, as every command places pods with it unless a configuration
   * says otherwise: DefaultPreemption is in it.
   */
  public static List<SchedulerProfile> defaultProfiles() {
    return List.of(SchedulerProfile.of(SchedulerConfiguration.defaults()).withPreemption());
  }

  /**
   * Places {@link #podsToPlace} with these profiles, as one kube-scheduler: PodTopologySpread's
   * default constraints over this cluster's controllers, its Namespaces' labels for namespace
   * selectors, one DRA plugin over the published objects for every profile. Every command that places pods places them here, so they agree.
   * The pods the controllers still make are named from the seed's {@link SeededStreams#NAMES} stream and
   * ties broken from its {@link SeededStreams#TIE_BREAKS} stream, as {@code simulate} draws them.
   */
  public Placement place(List<SchedulerProfile> profiles, long seed, boolean explain) {
    var selectors = ControllerSelectors.of(workloads);
    DynamicResources dynamicResources = new DynamicResources(dra);
    List<DisruptionBudget> budgets = disruptionBudgets();
    List<Scheduler> schedulers = profiles.stream()
        .map(p -> new Scheduler(p.withSpreadSelectors(selectors).withNamespaceLabels(bundle.namespaces()::of)
            .withDynamicResources(dynamicResources).withDisruptionBudgets(() -> budgets))).toList();
    List<Pod> pods = podsToPlace(SeededStreams.stream(seed, SeededStreams.NAMES));
    BatchPlacement.Result placed = BatchPlacement.place(pods, ClusterSnapshot.of(nodeValues()), schedulers,
        SeededStreams.stream(seed, SeededStreams.TIE_BREAKS), explain);
    // The kubelets start the pods bound by name: one whose claims no scheduler allocated does not start.
    DraState state = dynamicResources.state(placed.snapshot());
    return new Placement(BatchPlacement.preparingClaims(placed, pod -> dynamicResources.kubeletRefusal(pod, state)),
        dynamicResources);
  }

  /**
   * The PDBs with the disruptions each allows as the run starts, as DefaultPreemption's PDB lister
   * reads them: the disruption controller's count over the written pods, those running (bound to a
   * node of the cluster) healthy, since the twin reads no pod's Ready condition from a file. Pods
   * bound or evicted during the run do not change it, as the controller's status lags them.
   */
  public List<DisruptionBudget> disruptionBudgets() {
    if (pdbs.isEmpty()) {
      return List.of();
    }
    var names = new HashSet<String>();
    nodes.forEach(n -> names.add(n.node().name()));
    return DisruptionBudget.of(pdbs, workloads, pods, p -> p.spec().nodeName().filter(names::contains).isPresent());
  }

  /**
   * Every pod that holds or wants room: those the controllers still make to reach their counts (they
   * resume from the pods the cluster has; finished pods hold nothing), then those written. {@code names}
   * names the made pods.
   */
  private List<Pod> podsToPlace(RandomGenerator names) {
    List<Pod> out = new ArrayList<>(InitialPods.resume(workloads, nodeValues(), pods, succeededPods, names));
    out.addAll(pods);
    return out;
  }
}
