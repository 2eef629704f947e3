package io.gpufleet.bench;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.model.karpenter.ConsolidationPolicy;
import io.gpufleet.model.karpenter.Disruption;
import io.gpufleet.model.karpenter.NodeClaimTemplate;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import io.gpufleet.model.workload.IntOrPercent;
import io.gpufleet.model.workload.PodDisruptionBudget;
import io.gpufleet.model.workload.PodTemplate;
import io.gpufleet.model.workload.Workload;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationSettings;
import io.gpufleet.sim.scenario.ClusterObject;
import io.gpufleet.sim.scenario.Scenario;
import io.gpufleet.sim.scenario.ScenarioAction;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * A month of a GPU platform of about 200 nodes at its daily peak: 24 inference services on
 * single-GPU nodes (WhenEmpty, consolidateAfter 10m, a 50 % PDB each, weekly expiry) following a
 * daily curve with noise; a batch Job every 20 minutes (four 1-GPU pods for one to three hours) on
 * a spot-and-on-demand pool under default consolidation with a 64-GPU limit and spot interruptions,
 * its pods annotated {@code karpenter.sh/do-not-disrupt};
 * CPU services on a system pool; a node agent DaemonSet everywhere. Seeded, so every run is the same.
 */
final class FleetMonth {
  private FleetMonth() {}

  static final Taint GPU = Taint.of("nvidia.com/gpu", "true", TaintEffect.NO_SCHEDULE);

  static Scenario scenario(int hours, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    Scenario.Builder b = Scenario.builder("fleet month")
        .seed(seed)
        .settings(SimulationSettings.DEFAULTS.withSpotInterruptionsPerHour(0.01)
            .withImagePulls(Duration.ofSeconds(45), Map.of("vllm/vllm-openai:v0.6", Duration.ofMinutes(4))))
        .autoscaler(AutoscalerSettings.DEFAULTS);
    NodePool inference = NodePool.of("inference", NodeClaimTemplate.of(
            NodePoolRequirement.in("karpenter.k8s.aws/instance-family", "g5", "g6"),
            NodePoolRequirement.in("karpenter.k8s.aws/instance-gpu-count", "1"),
            NodePoolRequirement.in("karpenter.k8s.aws/instance-size", "xlarge", "2xlarge"),
            NodePoolRequirement.in("karpenter.sh/capacity-type", "on-demand"))
        .withTaints(List.of(GPU)).withExpireAfter(Optional.of(Duration.ofDays(7))))
        .withDisruption(new Disruption(ConsolidationPolicy.WHEN_EMPTY, Optional.of(Duration.ofMinutes(10)),
            Disruption.DEFAULT.budgets()))
        .withWeight(10);
    NodePool batch = NodePool.of("batch", NodeClaimTemplate.of(
            NodePoolRequirement.in("karpenter.k8s.aws/instance-family", "g6"),
            NodePoolRequirement.in("karpenter.k8s.aws/instance-gpu-count", "1", "4"),
            NodePoolRequirement.in("karpenter.sh/capacity-type", "spot", "on-demand"))
        .withTaints(List.of(GPU)))
        .withDisruption(Disruption.DEFAULT.withConsolidateAfter(Optional.of(Duration.ofMinutes(5))))
        .withLimits(ResourceList.of("nvidia.com/gpu", "64"));
    NodePool system = NodePool.of("system", NodeClaimTemplate.of(
        NodePoolRequirement.in("karpenter.k8s.aws/instance-family", "m5", "c5")))
        .withDisruption(Disruption.DEFAULT.withConsolidateAfter(Optional.of(Duration.ofMinutes(1))));
    b.object(ClusterObject.of(inference)).object(ClusterObject.of(batch)).object(ClusterObject.of(system));
    b.object(ClusterObject.of(new Workload.DaemonSet(ObjectMeta.named("node-agent"),
        LabelSelector.matching(Labels.of("app", "node-agent")), new PodTemplate(Labels.of("app", "node-agent"),
            Labels.EMPTY, PodSpec.of(Container.of("agent", "agent:1", ResourceList.of("cpu", "100m", "memory",
                "128Mi"), ResourceList.EMPTY)).withTolerations(List.of(Toleration.everything()))))));
    int services = 24;
    int[] base = new int[services];
    for (int i = 0; i < services; i++) {
      base[i] = 3 + random.nextInt(5);
      String name = String.format("svc-%02d", i);
      b.object(ClusterObject.of(service(name, replicas(base[i], 0, random))));
      b.object(ClusterObject.of(new PodDisruptionBudget(ObjectMeta.named(name + "-pdb"),
          LabelSelector.matching(Labels.of("app", name)), Optional.of(new IntOrPercent.Percent(50)),
          Optional.empty())));
    }
    b.object(ClusterObject.of(cpuService("web", 30)));
    int job = 0;
    for (int hour = 0; hour < hours; hour++) {
      for (int third = 0; third < 3; third++) {
        if (third == 0 && hour > 0) {
          for (int i = 0; i < services; i++) {
            b.then(new ScenarioAction.Scale(String.format("svc-%02d", i), replicas(base[i], hour, random)));
          }
        }
        b.then(new ScenarioAction.Apply(List.of(ClusterObject.of(batchJob("batch-" + job++,
            Duration.ofMinutes(60 + random.nextInt(121)))))));
        b.then(new ScenarioAction.Wait(Duration.ofMinutes(20)));
      }
    }
    return b.build();
  }

  /** Replicas over the day: a sine peaking mid-afternoon, ±40 %, with ±1 of noise. */
  static int replicas(int base, int hour, SplittableRandom random) {
    double day = Math.sin(2 * Math.PI * ((hour % 24) - 9) / 24.0);
    return Math.max(1, (int) Math.round(base * (1 + 0.4 * day)) + random.nextInt(3) - 1);
  }

  static Workload.Deployment service(String name, int replicas) {
    Labels labels = Labels.of("app", name);
    ResourceList req = ResourceList.of("cpu", "2", "memory", "8Gi", "nvidia.com/gpu", "1");
    PodSpec spec = PodSpec.of(Container.of("server", "vllm/vllm-openai:v0.6", req, ResourceList.of("nvidia.com/gpu",
        "1"))).withTolerations(List.of(Toleration.exists("nvidia.com/gpu", TaintEffect.NO_SCHEDULE)))
        .withTerminationGracePeriodSeconds(60).withNodeSelector(Labels.of("karpenter.sh/nodepool", "inference"));
    return new Workload.Deployment(new ObjectMeta(name, "default", labels, Labels.of(
        "gpufleet.io/requests-per-second", "15", "gpufleet.io/request-duration", "3s"), Optional.empty()), replicas,
        LabelSelector.matching(labels), new PodTemplate(labels, Labels.EMPTY, spec), Workload.Deployment.DEFAULT_ROLLING,
        Workload.Deployment.DEFAULT_ROLLING);
  }

  static Workload.Deployment cpuService(String name, int replicas) {
    Labels labels = Labels.of("app", name);
    PodSpec spec = PodSpec.of(Container.of("web", "nginx:1", ResourceList.of("cpu", "500m", "memory", "1Gi"),
        ResourceList.EMPTY));
    return new Workload.Deployment(new ObjectMeta(name, "default", labels, Labels.EMPTY, Optional.empty()), replicas,
        LabelSelector.matching(labels), new PodTemplate(labels, Labels.EMPTY, spec), Workload.Deployment.DEFAULT_ROLLING,
        Workload.Deployment.DEFAULT_ROLLING);
  }

  static Workload.Job batchJob(String name, Duration runFor) {
    Labels labels = Labels.of("job", name);
    ResourceList req = ResourceList.of("cpu", "4", "memory", "16Gi", "nvidia.com/gpu", "1");
    PodSpec spec = PodSpec.of(Container.of("train", "trainer:2", req, ResourceList.of("nvidia.com/gpu", "1")))
        .withTolerations(List.of(Toleration.exists("nvidia.com/gpu", TaintEffect.NO_SCHEDULE)))
        .withNodeSelector(Labels.of("karpenter.sh/nodepool", "batch"));
    // Training pods ask Karpenter not to move them, as its documentation advises for jobs.
    return new Workload.Job(new ObjectMeta(name, "default", labels, Labels.EMPTY, Optional.empty()), 4, 4,
        LabelSelector.matching(labels), new PodTemplate(labels, Labels.of("karpenter.sh/do-not-disrupt", "true"),
            spec), Optional.of(runFor));
  }

  /** Runs one simulated month and prints what it took, for quick checks outside JMH. */
  public static void main(String[] args) {
    int hours = args.length > 0 ? Integer.parseInt(args[0]) : 30 * 24;
    var scenario = scenario(hours, 1);
    long t0 = System.nanoTime();
    var r = Simulation.run(scenario);
    double wall = (System.nanoTime() - t0) / 1e9;
    double simulated = r.simulated().toSeconds();
    System.out.printf("%d hours in %.2f s wall: %.0fx, %d events, %d violations, %d records, max nodes %s, cost $%.0f%n",
        hours, wall, simulated / wall, r.events(), r.violations().size(), r.record().entries().size(),
        r.metrics().series().entrySet().stream().filter(e -> e.getKey().startsWith("nodes{"))
            .map(e -> e.getKey() + "=" + (int) e.getValue().max()).toList(), r.metrics().totalCost());
    r.violations().stream().limit(5).forEach(System.out::println);
    if (args.length > 1) {
      Map<Object, Long> kinds = new TreeMap<>();
      r.record().entries().forEach(e -> kinds.merge(e.kind(), 1L, Long::sum));
      System.out.println(kinds);
      r.record().entries().stream().filter(e -> e.kind().name().startsWith(args[1])).limit(40)
          .forEach(System.out::println);
    }
  }
}
