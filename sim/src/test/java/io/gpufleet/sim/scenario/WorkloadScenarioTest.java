package io.gpufleet.sim.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.meta.ObjectRef;
import io.gpufleet.model.workload.PodTemplate;
import io.gpufleet.model.workload.Workload;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.SimulationSettings;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.testing.Objects;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WorkloadScenarioTest {

  static final SimulationSettings FULL = SimulationSettings.DEFAULTS
      .withInvariants(SimulationSettings.InvariantMode.FULL);

  @Test
  void aRolloutStaysWithinMaxSurgeAndMaxUnavailable() {
    var v1 = Objects.inference("llm", 4, 1, Labels.EMPTY);
    var v2 = new Workload.Deployment(v1.meta(), 4, v1.selector(), new PodTemplate(v1.template().labels(),
        Labels.EMPTY, Objects.gpuSpec(1, "2", "8Gi", "vllm/vllm-openai:v0.7")), v1.maxSurge(), v1.maxUnavailable());
    Scenario s = Scenario.builder("rollout").settings(FULL)
        .object(ClusterObject.of(Objects.gpuPool("gpu", List.of("g6"), "on-demand")))
        .object(ClusterObject.of(v1))
        .then(new ScenarioAction.WaitUntil(Condition.readyPods("llm", Comparison.EQ, 4), Duration.ofMinutes(10)))
        .then(new ScenarioAction.Apply(List.of(ClusterObject.of(v2))))
        .then(new ScenarioAction.Wait(Duration.ofMinutes(30)))
        .then(new ScenarioAction.Expect("four ready on the new image", Condition.readyPods("llm", Comparison.EQ, 4)))
        .build();
    SimulationResult r = Simulation.run(s);
    assertThat(r.violations()).isEmpty();
    assertThat(r.allExpectationsPassed()).as(r.expectations().toString()).isTrue();
    assertThat(r.finalState().pods().values()).allSatisfy(p ->
        assertThat(p.pod().spec().images()).containsExactly("vllm/vllm-openai:v0.7"));
    // maxUnavailable 25% of 4 is 1: never fewer than three Ready once the first four were.
    assertThat(r.metrics().service(new ObjectRef("Deployment", "default", "llm")).orElseThrow().minReady().orElseThrow()).isGreaterThanOrEqualTo(3);
  }

  /**
   * {@code strategy.type: Recreate}, as the deployment controller's rolloutRecreate does it: the old
   * pods are deleted first and the new ones created only once none of them is left, so the rollout
   * needs no surge GPU (no node launched) and the service has none Ready meanwhile; RollingUpdate with
   * the default 25% surges one pod onto a new node and keeps both Ready.
   */
  @Test
  void recreateReplacesEveryPodBeforeCreatingTheNewOnes() {
    var pool = Objects.withRequirement(Objects.withPolicy(Objects.gpuPool("gpu", List.of("g6"), "on-demand"),
        io.gpufleet.model.karpenter.ConsolidationPolicy.WHEN_EMPTY, Duration.ofHours(2)),
        io.gpufleet.model.karpenter.NodePoolRequirement.in("karpenter.k8s.aws/instance-gpu-count", "1"));
    for (var strategy : Workload.Deployment.Strategy.values()) {
      var v1 = Objects.inference("llm", 2, 1, Labels.EMPTY);
      v1 = new Workload.Deployment(v1.meta(), 2, v1.selector(), v1.template(), v1.maxSurge(), v1.maxUnavailable(),
          strategy);
      var v2 = v1.withTemplate(new PodTemplate(v1.template().labels(), Labels.EMPTY,
          Objects.gpuSpec(1, "2", "8Gi", "vllm/vllm-openai:v0.7")));
      Scenario s = Scenario.builder("rollout " + strategy).settings(FULL)
          .object(ClusterObject.of(pool))
          .object(ClusterObject.of(v1))
          .then(new ScenarioAction.WaitUntil(Condition.readyPods("llm", Comparison.EQ, 2), Duration.ofMinutes(10)))
          .then(new ScenarioAction.Apply(List.of(ClusterObject.of(v2))))
          .then(new ScenarioAction.Wait(Duration.ofMinutes(30)))
          .then(new ScenarioAction.Expect("two ready on the new image", Condition.readyPods("llm", Comparison.EQ, 2)))
          .build();
      SimulationResult r = Simulation.run(s);
      assertThat(r.violations()).isEmpty();
      assertThat(r.allExpectationsPassed()).as(strategy + " " + r.expectations()).isTrue();
      var created = r.record().of(RunRecord.Kind.POD_CREATED);
      var oldPods = created.subList(0, 2).stream().map(RunRecord.Entry::subject).toList();
      var newPods = created.subList(2, created.size());
      var lastOld = oldPods.stream().map(p -> r.record().about(p).getLast().time()).max(java.time.Instant::compareTo)
          .orElseThrow();
      var service = r.metrics().service(new ObjectRef("Deployment", "default", "llm")).orElseThrow();
      if (strategy == Workload.Deployment.Strategy.RECREATE) {
        assertThat(newPods).as(r.record().toString()).hasSize(2)
            .allSatisfy(e -> assertThat(e.time()).isAfterOrEqualTo(lastOld));
        assertThat(r.record().of(RunRecord.Kind.NODECLAIM_LAUNCHED)).as("no surge node").hasSize(2);
        assertThat(service.minReady()).hasValue(0);
      } else {
        assertThat(newPods.getFirst().time()).isBefore(lastOld);
        assertThat(r.record().of(RunRecord.Kind.NODECLAIM_LAUNCHED)).as("a surge node").hasSize(3);
        assertThat(service.minReady().orElseThrow()).isEqualTo(2);
      }
    }
  }

  /**
   * What users report of GPU rollouts with no spare GPU (bayesimpact/bayes-platform#776, a GPU pool
   * capped at one node; defilantech/LLMKube#192 and its fix #196): under RollingUpdate the new pod
   * stays Pending ({@code Insufficient nvidia.com/gpu} on the node, the NodePool's limit reached) while
   * the old one keeps the GPU, a deadlock; under Recreate the old pod stops first and the new one takes
   * the GPU.
   */
  @Test
  void aRolloutWithNoSpareGpuDeadlocksUnderRollingUpdateAndCompletesUnderRecreate() {
    var pool = Objects.gpuPool("gpu", List.of("g6"), "on-demand")
        .withLimits(io.gpufleet.model.resource.ResourceList.of("nvidia.com/gpu", "1"));
    for (var strategy : Workload.Deployment.Strategy.values()) {
      var base = Objects.inference("llm", 1, 1, Labels.EMPTY);
      var v1 = new Workload.Deployment(base.meta(), 1, base.selector(), base.template(), base.maxSurge(),
          base.maxUnavailable(), strategy);
      var v2 = v1.withTemplate(new PodTemplate(v1.template().labels(), Labels.EMPTY,
          Objects.gpuSpec(1, "2", "8Gi", "vllm/vllm-openai:v0.7")));
      Scenario s = Scenario.builder("rollout with no spare GPU, " + strategy).settings(FULL)
          .object(ClusterObject.of(pool))
          .object(ClusterObject.of(v1))
          .then(new ScenarioAction.WaitUntil(Condition.readyPods("llm", Comparison.EQ, 1), Duration.ofMinutes(10)))
          .then(new ScenarioAction.Apply(List.of(ClusterObject.of(v2))))
          .then(new ScenarioAction.Wait(Duration.ofHours(1)))
          .build();
      SimulationResult r = Simulation.run(s);
      assertThat(r.violations()).isEmpty();
      var pods = r.finalState().pods().values();
      if (strategy == Workload.Deployment.Strategy.RECREATE) {
        assertThat(pods).as(r.record().toString()).singleElement().satisfies(p -> {
          assertThat(p.isReady()).isTrue();
          assertThat(p.pod().spec().images()).containsExactly("vllm/vllm-openai:v0.7");
        });
      } else {
        assertThat(pods).hasSize(2);
        assertThat(pods).filteredOn(p -> p.pod().spec().images().contains("vllm/vllm-openai:v0.6"))
            .singleElement().satisfies(p -> assertThat(p.isReady()).isTrue());
        assertThat(pods).filteredOn(p -> p.pod().spec().images().contains("vllm/vllm-openai:v0.7"))
            .singleElement().satisfies(p -> assertThat(p.isPending()).isTrue());
        assertThat(r.record().toString()).contains("Insufficient nvidia.com/gpu")
            .contains("all available instance types exceed limits for nodepool (NodePool=gpu)");
      }
    }
  }

  @Test
  void jobsRunTheirCourseAndCachedImagesStartFaster() {
    var job = new Workload.Job(ObjectMeta.named("train"), 2, 4, LabelSelector.matching(Labels.of("job", "train")),
        new PodTemplate(Labels.of("job", "train"), Labels.EMPTY, Objects.gpuSpec(1, "2", "8Gi", "trainer:1")),
        Optional.of(Duration.ofMinutes(20)));
    Scenario s = Scenario.builder("job").settings(FULL.withImagePulls(Duration.ofSeconds(30),
            Map.of("trainer:1", Duration.ofMinutes(5))))
        .object(ClusterObject.of(Objects.gpuPool("gpu", List.of("g6"), "on-demand")))
        .object(ClusterObject.of(job))
        .then(new ScenarioAction.Wait(Duration.ofHours(2)))
        .then(new ScenarioAction.Expect("done", Condition.pendingPods(Comparison.EQ, 0)))
        .build();
    SimulationResult r = Simulation.run(s);
    assertThat(r.violations()).isEmpty();
    assertThat(r.record().of(RunRecord.Kind.POD_SUCCEEDED)).hasSize(4);
    assertThat(r.finalState().workloads().size()).isZero();
    // The first two pods waited for the 5-minute pull; the next two found the image cached.
    var started = r.record().of(RunRecord.Kind.POD_STARTED);
    var scheduled = r.record().of(RunRecord.Kind.POD_SCHEDULED);
    for (int i = 0; i < 4; i++) {
      String pod = scheduled.get(i).subject();
      var start = started.stream().filter(e -> e.subject().equals(pod)).findFirst().orElseThrow();
      assertThat(Duration.between(scheduled.get(i).time(), start.time()))
          .isEqualTo(i < 2 ? Duration.ofMinutes(5) : Duration.ZERO);
    }
  }
}
