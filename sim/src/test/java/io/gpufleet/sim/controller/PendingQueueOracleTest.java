package io.gpufleet.sim.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.pod.TopologySpreadConstraint;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import io.gpufleet.model.workload.PodTemplate;
import io.gpufleet.model.workload.Workload;
import io.gpufleet.sim.ProgressListener;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.SimulationSettings;
import io.gpufleet.sim.scenario.ClusterObject;
import io.gpufleet.sim.scenario.NodeRef;
import io.gpufleet.sim.scenario.Scenario;
import io.gpufleet.sim.scenario.ScenarioAction;
import io.gpufleet.sim.testing.Objects;
import io.gpufleet.testing.property.Gen;
import io.gpufleet.testing.property.Property;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * kube-scheduler looking only at the pending pods that changed or are due (while the capacity epoch
 * stands) decides as the scan of every pending pod each cycle did, and the workload controllers
 * syncing only the workloads due, putting each batch of new pods into the image at once, act as the
 * pass over every workload making one pod at a time did: drawn runs with NodePool
 * limits that keep pods Pending, priorities (so preemption), hard spread constraints, a Job, a
 * DaemonSet and a StatefulSet beside the Deployments, Deployments applied later (new spread selectors),
 * scale-ups and -downs and spot interruptions give the same record, metrics and final pods both ways.
 */
class PendingQueueOracleTest {

  static Scenario draw(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    NodePool pool = Objects.gpuPool("gpu", List.of("g5", "g6"), r.nextBoolean() ? new String[] {"spot", "on-demand"}
        : new String[] {"on-demand"});
    pool = pool.withLimits(ResourceList.of("nvidia.com/gpu", Integer.toString(2 + r.nextInt(10))));
    Scenario.Builder b = Scenario.builder("pending " + seed).seed(seed)
        .settings(SimulationSettings.DEFAULTS.withSpotInterruptionsPerHour(r.nextInt(2) == 0 ? 0.5 : 0))
        .object(ClusterObject.of(pool));
    int services = 2 + r.nextInt(3);
    for (int i = 0; i < services; i++) {
      String name = "svc" + i;
      Workload.Deployment d = Objects.inference(name, 1 + r.nextInt(12), 1 + r.nextInt(2), Labels.EMPTY);
      PodSpec spec = d.template().spec();
      if (r.nextInt(3) == 0) {
        spec = spec.withPriority(r.nextInt(3) * 1000);
      }
      if (r.nextInt(4) == 0) {
        spec = spec.withTopologySpreadConstraints(List.of(TopologySpreadConstraint.of(1,
            "topology.kubernetes.io/zone", TopologySpreadConstraint.WhenUnsatisfiable.DO_NOT_SCHEDULE,
            LabelSelector.matching(Labels.of("app", name)))));
      }
      d = new Workload.Deployment(d.meta(), d.replicas(), d.selector(), new PodTemplate(d.template().labels(),
          d.template().annotations(), spec), d.maxSurge(), d.maxUnavailable());
      b.object(ClusterObject.of(d));
    }
    // The other workload kinds, for the workload controllers' due keys (DaemonSets synced on every pass).
    if (r.nextBoolean()) {
      Labels l = Labels.of("app", "train");
      b.object(ClusterObject.of(new Workload.Job(new ObjectMeta("train", "default", l, Labels.EMPTY, Optional.empty()),
          1 + r.nextInt(3), 2 + r.nextInt(4), LabelSelector.matching(l),
          new PodTemplate(l, Labels.EMPTY, Objects.gpuSpec(1, "2", "8Gi", "train:1")),
          Optional.of(Duration.ofMinutes(5 + r.nextInt(30))))));
    }
    if (r.nextBoolean()) {
      Labels l = Labels.of("app", "agent");
      PodSpec agent = PodSpec.of(Container.of("agent", "agent:1", ResourceList.of("cpu", "100m", "memory", "64Mi"),
          ResourceList.of())).withTolerations(List.of(Toleration.exists("nvidia.com/gpu", TaintEffect.NO_SCHEDULE)));
      b.object(ClusterObject.of(new Workload.DaemonSet(new ObjectMeta("agent", "default", l, Labels.EMPTY,
          Optional.empty()), LabelSelector.matching(l), new PodTemplate(l, Labels.EMPTY, agent))));
    }
    if (r.nextBoolean()) {
      Labels l = Labels.of("app", "db");
      b.object(ClusterObject.of(new Workload.StatefulSet(new ObjectMeta("db", "default", l, Labels.EMPTY,
          Optional.empty()), 1 + r.nextInt(3), LabelSelector.matching(l),
          new PodTemplate(l, Labels.EMPTY, Objects.gpuSpec(1, "2", "8Gi", "db:1")))));
    }
    int steps = 3 + r.nextInt(6);
    for (int s = 0; s < steps; s++) {
      b.then(new ScenarioAction.Wait(Duration.ofMinutes(1 + r.nextInt(30))));
      switch (r.nextInt(4)) {
        case 0, 1 -> b.then(new ScenarioAction.Scale("svc" + r.nextInt(services), r.nextInt(15)));
        // A Deployment that comes later: kube-scheduler's spread selectors must take in its ReplicaSet.
        case 2 -> b.then(new ScenarioAction.Apply(List.of(ClusterObject.of(
            Objects.inference("late" + s, 2 + r.nextInt(6), 1, Labels.EMPTY)))));
        default -> b.then(ScenarioAction.Interrupt.spot(NodeRef.hosting("svc" + r.nextInt(services), 0)));
      }
    }
    b.then(new ScenarioAction.Wait(Duration.ofMinutes(20)));
    return b.build();
  }

  @Test
  void onlyThePodsDueAreLookedAtYetEveryDecisionIsTheSame() {
    Property.check(20261206L, 30, Gen.longs(1, 1_000_000), seed -> {
      SimulationResult fast = new Runtime(draw(seed)).run(ProgressListener.NONE);
      SimulationResult full = new Runtime(draw(seed), true).run(ProgressListener.NONE);
      assertThat(fast.record()).as("seed %d", seed).isEqualTo(full.record());
      assertThat(fast.finalState().pods().asMap()).as("seed %d", seed).isEqualTo(full.finalState().pods().asMap());
      assertThat(fast.events()).as("seed %d", seed).isEqualTo(full.events());
      assertThat(fast.metrics()).as("seed %d", seed).isEqualTo(full.metrics());
    });
  }
}
