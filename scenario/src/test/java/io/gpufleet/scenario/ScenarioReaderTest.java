package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.sim.scenario.ClusterObject;
import io.gpufleet.sim.scenario.Comparison;
import io.gpufleet.sim.scenario.Condition;
import io.gpufleet.sim.scenario.InterruptionNotice;
import io.gpufleet.sim.scenario.NodeRef;
import io.gpufleet.sim.scenario.ScenarioAction;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScenarioReaderTest {

  private static final Path LAB = Path.of("..", "examples", "lab");

  static ScenarioFile read(String text) {
    return ScenarioReader.read("s.yaml", text, ScenarioSources.directory(LAB));
  }

  static List<String> errors(String text) {
    try {
      read(text);
    } catch (ManifestException e) {
      return e.problems().stream().map(ManifestProblem::toString).toList();
    }
    throw new AssertionError("expected errors");
  }

  @Test
  void theLabScenarioReadsIntoFiveStepsOverTheSimulatorsTimeline() throws Exception {
    String text = java.nio.file.Files.readString(LAB.resolve("lab.yaml"));
    ScenarioFile f = ScenarioReader.read("lab.yaml", text, ScenarioSources.directory(LAB));
    assertThat(f.steps()).extracting(Step::heading).containsExactly("3.1 Warm the image cache",
        "3.2 Time-slice the lab node", "3.3 Four pods, one GPU", "3.4 The fifth pod", "3.5 Reset for Lab 2");
    int actions = f.steps().stream().mapToInt(Step::actionCount).sum();
    assertThat(f.scenario().timeline()).hasSize(actions);
    assertThat(f.scenario().objects()).anyMatch(o -> o instanceof ClusterObject.NodePoolObject)
        .anyMatch(o -> o instanceof ClusterObject.NodeObject);
    assertThat(f.scenario().settings().pullTime("vllm/vllm-openai:v0.6.3")).isEqualTo(Duration.ofMinutes(4));
    assertThat(f.scenario().seed()).isEqualTo(1);
    assertThat(f.scenario().timeline().get(2)).isEqualTo(new ScenarioAction.Checkpoint("3.1 Warm the image cache"));
    assertThat(f.scenario().timeline().get(3)).isEqualTo(new ScenarioAction.LabelNode(
        NodeRef.named("ip-10-0-1-17.ec2.internal"), "nvidia.com/device-plugin.config", "time-sliced-4"));
  }

  @Test
  void actionsAndConditions() {
    ScenarioFile f = read("""
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: t}
        spec:
          steps:
          - title: everything
            actions:
            - apply:
              - apiVersion: v1
                kind: Pod
                metadata: {name: p}
                spec: {containers: [{name: c}]}
            - scale: {workload: Deployment/web, replicas: 3}
            - delete: {kind: Pod, name: p}
            - interrupt: {node: {hosting: {workload: web, index: 1}}}
            - wait: 90s
            - waitUntil: {condition: {pendingPods: {equals: 0}}, timeout: 5m}
            - expect:
                condition:
                  all:
                  - {nodeCount: {selector: {matchLabels: {karpenter.sh/capacity-type: spot}}, atMost: 3}}
                  - not: {readyPods: {workload: web, lessThan: 2}}
        """);
    List<ScenarioAction> t = f.scenario().timeline();
    assertThat(t.get(0)).isInstanceOf(ScenarioAction.Apply.class);
    assertThat(((ScenarioAction.Apply) t.get(0)).objects()).singleElement().isInstanceOf(ClusterObject.PodObject.class);
    assertThat(t.get(1)).isEqualTo(new ScenarioAction.Scale("Deployment/web", 3));
    assertThat(t.get(2)).isEqualTo(new ScenarioAction.Delete("Pod", "p"));
    assertThat(t.get(3)).isEqualTo(ScenarioAction.Interrupt.spot(NodeRef.hosting("web", 1)));
    assertThat(t.get(4)).isEqualTo(new ScenarioAction.Wait(Duration.ofSeconds(90)));
    assertThat(t.get(5)).isEqualTo(new ScenarioAction.WaitUntil(new Condition.PendingPods(Comparison.EQ, 0),
        Duration.ofMinutes(5)));
    ScenarioAction.Expect e = (ScenarioAction.Expect) t.get(6);
    assertThat(e.condition()).isInstanceOf(Condition.All.class);
    // Without `that:` an expectation is named by its condition, in the syntax it was written in.
    assertThat(e.description()).isEqualTo("{all: [{nodeCount: {selector: {matchLabels: {karpenter.sh/capacity-type:"
        + " spot}}, atMost: 3}}, {not: {readyPods: {workload: web, lessThan: 2}}}]}");
  }

  @Test
  void everyConditionRendersInScenarioSyntaxThatReadsBackToTheSameCondition() {
    String conditions = """
        - {podRunningOn: {workload: Deployment/web, node: {hosting: {workload: web, index: 1}}}}
        - {podReady: team-a/p}
        - {readyPods: {workload: StatefulSet/db, atLeast: 2}}
        - {nodeCount: {selector: {matchLabels: {karpenter.sh/nodepool: gpu, "n": "1"}, matchExpressions: [{key: zone, \
        operator: In, values: [a, b]}, {key: spot, operator: DoesNotExist}]}, moreThan: 0}}
        - {nodeCount: {equals: 3}}
        - {nodeInitialized: {node: {selector: {matchLabels: {role: gpu}}, index: 2}}}
        - {resourceAdvertised: {node: ip-10-0-1-17.ec2.internal, resource: nvidia.com/gpu, lessThan: 8}}
        - {pendingPods: {atMost: 0}}
        - {not: {all: [{pendingPods: {equals: 0}}, {podReady: "true"}]}}
        - {nodeClaimCount: {selector: {matchLabels: {karpenter.sh/nodepool: gpu}}, atMost: 4}}
        - {events: {reason: Unconsolidatable, object: gpu-abcde, atLeast: 1}}
        - {events: {type: PodEvicted, equals: 0}}
        - {disruptions: {method: Drift, reason: Drifted, equals: 2}}
        - {disruptions: {reason: Expired, moreThan: 0}}
        - {evictions: {reason: Interrupted, lessThan: 3}}
        - {evictions: {atMost: 10}}
        - {cost: {atMost: 12.5}}
        """;
    List<Condition> read = expectations(conditions);
    assertThat(read).hasSize(17);
    StringBuilder rendered = new StringBuilder();
    for (Condition c : read) {
      String text = io.gpufleet.sim.scenario.ConditionText.of(c);
      assertThat(text).doesNotContain("[conditions=", "Named[", "Hosting[", "Selected[", "PT");
      rendered.append("- ").append(text).append('\n');
    }
    assertThat(expectations(rendered.toString())).isEqualTo(read);
  }

  @Test
  void anExpectationThatCountsDecisionEntriesHasTheDecisionsExplained() {
    assertThat(scenarioOf("- {events: {type: DisruptionConsidered, atLeast: 1}}").settings().explainDecisions()).isTrue();
    // Counting other entries (a reason alone counts Karpenter's events) asks for no explanation.
    assertThat(scenarioOf("- {events: {reason: Unconsolidatable, atLeast: 1}}\n- {events: {type: DisruptionExecuted, "
        + "atLeast: 1}}").settings().explainDecisions()).isFalse();
  }

  /** The conditions of a scenario made of one expectation per line of {@code list}. */
  private static List<Condition> expectations(String list) {
    return scenarioOf(list).timeline().stream().filter(a -> a instanceof ScenarioAction.Expect)
        .map(a -> ((ScenarioAction.Expect) a).condition()).toList();
  }

  /** A scenario made of one expectation per line of {@code list}. */
  private static io.gpufleet.sim.scenario.Scenario scenarioOf(String list) {
    StringBuilder actions = new StringBuilder();
    list.lines().forEach(l -> actions.append("    - expect: {condition: ").append(l.substring(2)).append("}\n"));
    ScenarioFile f = read("""
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: t}
        spec:
          steps:
          - title: conditions
            actions:
        """ + actions);
    return f.scenario();
  }

  @Test
  void everyMistakeIsReportedAtItsLine() {
    assertThat(errors("""
        apiVersion: gpufleet.io/v1
        kind: Scenario
        metadata: {name: t}
        spec:
          seeds: 3
          simulation: {launchToRegistration: 3 minutes}
          steps:
          - title: bad
            actions:
            - wait: forever
            - scale: {workload: web}
            - jump: {to: 3}
            - expect: {condition: {readyPods: {workload: web}}}
        """)).containsExactly(
        "s.yaml:1:13: apiVersion: expected gpufleet.io/v1alpha1, found \"gpufleet.io/v1\"",
        "s.yaml:5:3: spec.seeds: unknown field \"seeds\"",
        "s.yaml:6:38: spec.simulation.launchToRegistration: expected a duration such as 30s, 3m or 1h30m, "
            + "found \"3 minutes\"",
        "s.yaml:10:13: spec.steps[0].actions[0].wait: expected a duration such as 30s, 3m or 1h30m, found \"forever\"",
        "s.yaml:11:14: spec.steps[0].actions[1].scale.replicas: required field is missing",
        "s.yaml:12:7: spec.steps[0].actions[2]: expected exactly one action of apply, delete, expect, "
            + "expireReservation, insufficientCapacity, interrupt, label, scale, show, unlabel, wait, waitUntil, "
            + "found jump",
        "s.yaml:13:39: spec.steps[0].actions[3].expect.condition.readyPods: expected one of equals, atLeast, atMost, "
            + "moreThan, lessThan");
  }

  @Test
  void everyInterruptionKindTheProviderHandlesAndItsErrors() {
    ScenarioFile f = read("""
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: t}
        spec:
          steps:
          - title: notices
            actions:
            - interrupt: {node: n1}
            - interrupt: {node: n1, kind: spotInterruption}
            - interrupt: {node: n1, kind: rebalanceRecommendation}
            - interrupt: {node: n1, kind: scheduledChange}
            - interrupt: {node: n1, kind: stateChange, state: stopping}
            - interrupt: {node: n1, kind: stateChange, state: stopped}
            - interrupt: {node: n1, kind: stateChange, state: shutting-down}
            - interrupt: {node: n1, kind: stateChange, state: terminated}
        """);
    NodeRef n1 = NodeRef.named("n1");
    assertThat(f.scenario().timeline().subList(0, 8)).containsExactly(
        ScenarioAction.Interrupt.spot(n1), ScenarioAction.Interrupt.spot(n1),
        new ScenarioAction.Interrupt(n1, InterruptionNotice.REBALANCE_RECOMMENDATION),
        new ScenarioAction.Interrupt(n1, InterruptionNotice.SCHEDULED_CHANGE),
        new ScenarioAction.Interrupt(n1, InterruptionNotice.STOPPING),
        new ScenarioAction.Interrupt(n1, InterruptionNotice.STOPPED),
        new ScenarioAction.Interrupt(n1, InterruptionNotice.SHUTTING_DOWN),
        new ScenarioAction.Interrupt(n1, InterruptionNotice.TERMINATED));
    assertThat(errors("""
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: t}
        spec:
          steps:
          - title: bad notices
            actions:
            - interrupt: {node: n1, kind: maintenance}
            - interrupt: {node: n1, kind: stateChange, state: creating}
            - interrupt: {node: n1, kind: stateChange}
            - interrupt: {node: n1, kind: scheduledChange, state: stopped}
        """)).containsExactly(
        "s.yaml:8:35: spec.steps[0].actions[0].interrupt.kind: expected one of spotInterruption, "
            + "rebalanceRecommendation, scheduledChange, stateChange, found \"maintenance\"",
        "s.yaml:9:55: spec.steps[0].actions[1].interrupt.state: expected state one of stopping, stopped, "
            + "shutting-down, terminated for kind stateChange, found \"creating\"",
        "s.yaml:10:18: spec.steps[0].actions[2].interrupt: expected state one of stopping, stopped, shutting-down, "
            + "terminated for kind stateChange, found none",
        "s.yaml:11:59: spec.steps[0].actions[3].interrupt.state: state applies to kind stateChange, not "
            + "scheduledChange");
  }

  @Test
  void watchesCapacityErrorsAndKarpentersOperatorSettings() {
    ScenarioFile f = read("""
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: t}
        spec:
          autoscaler:
            batchIdleDuration: 2s
            batchMaxDuration: 30s
            featureGates: {SpotToSpotConsolidation: true, NodeOverlay: true, ReservedCapacity: true, NodeRepair: false}
          steps:
          - title: watched
            actions:
            - expect: {throughout: {readyPods: {workload: web, atLeast: 1}}, for: 30m}
            - expect: {that: no evictions, never: {evictions: {moreThan: 0}}}
            - insufficientCapacity: {instanceType: g5.xlarge, zone: us-east-1a, capacityType: spot, for: 10m}
            - insufficientCapacity: {instanceType: g6.xlarge}
        """);
    var a = f.scenario().autoscaler();
    assertThat(a.batchIdle()).isEqualTo(Duration.ofSeconds(2));
    assertThat(a.batchMax()).isEqualTo(Duration.ofSeconds(30));
    assertThat(a.spotToSpotConsolidation()).isTrue();
    assertThat(a.nodeOverlay()).isTrue();
    List<ScenarioAction> t = f.scenario().timeline();
    assertThat(t.get(0)).isEqualTo(new ScenarioAction.Watch(
        "throughout {readyPods: {workload: web, atLeast: 1}} for 30m",
        new Condition.ReadyPods("web", Comparison.GE, 1), false, java.util.Optional.of(Duration.ofMinutes(30))));
    assertThat(t.get(1)).isEqualTo(new ScenarioAction.Watch("no evictions",
        new Condition.Evictions(java.util.Optional.empty(), Comparison.GT, 0), true, java.util.Optional.empty()));
    assertThat(t.get(2)).isEqualTo(new ScenarioAction.InsufficientCapacity("g5.xlarge",
        java.util.Optional.of("us-east-1a"), java.util.Optional.of(io.gpufleet.model.cloud.CapacityType.SPOT),
        java.util.Optional.of(Duration.ofMinutes(10))));
    assertThat(t.get(3)).isEqualTo(new ScenarioAction.InsufficientCapacity("g6.xlarge", java.util.Optional.empty(),
        java.util.Optional.empty(), java.util.Optional.empty()));
    // Karpenter's defaults where the scenario says nothing.
    ScenarioFile plain = read("""
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: t}
        spec: {autoscaler: {sizing: physical}}
        """);
    assertThat(plain.scenario().autoscaler().batchIdle()).isEqualTo(Duration.ofSeconds(1));
    assertThat(plain.scenario().autoscaler().batchMax()).isEqualTo(Duration.ofSeconds(10));
    assertThat(plain.scenario().autoscaler().spotToSpotConsolidation()).isFalse();
  }

  @Test
  void mistakesInWatchesCapacityErrorsAndSettingsAreReportedAtTheirLine() {
    assertThat(errors("""
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: t}
        spec:
          autoscaler:
            nodeOverlay: true
            batchIdleDuration: soon
            featureGates: {SpotToSpot: true, NodeRepair: true, ReservedCapacity: true}
          steps:
          - title: bad
            actions:
            - expect: {condition: {pendingPods: {equals: 0}}, never: {pendingPods: {equals: 1}}}
            - expect: {condition: {pendingPods: {equals: 0}}, for: 5m}
            - insufficientCapacity: {instanceType: g9.huge}
            - insufficientCapacity: {instanceType: g5.xlarge, zone: us-west-2a}
            - insufficientCapacity: {instanceType: g5.xlarge, capacityType: preemptible}
            - expect: {condition: {events: {type: PodEvicted, reason: Evicted, atLeast: 1}}}
            - expect: {condition: {events: {type: Evicted, atLeast: 1}}}
            - expect: {condition: {disruptions: {method: Consolidation, atLeast: 1}}}
            - expect: {condition: {evictions: {reason: Preempted, atLeast: 1}}}
            - expect: {condition: {cost: {atMost: cheap}}}
        """)).containsExactly(
        "s.yaml:6:18: spec.autoscaler.nodeOverlay: Karpenter's feature gates are written under featureGates, as "
            + "FEATURE_GATES names them: featureGates: {NodeOverlay: true}",
        "s.yaml:7:24: spec.autoscaler.batchIdleDuration: expected a duration such as 30s, 3m or 1h30m, found \"soon\"",
        "s.yaml:8:32: spec.autoscaler.featureGates[SpotToSpot]: unknown feature gate \"SpotToSpot\"; Karpenter's are "
            + "NodeRepair, ReservedCapacity, SpotToSpotConsolidation, NodeOverlay, StaticCapacity, CapacityBuffer",
        "s.yaml:8:50: spec.autoscaler.featureGates[NodeRepair]: the feature gate NodeRepair is not modelled by "
            + "gpufleet, which behaves as Karpenter does with its default (NodeRepair=false); modelled: NodeOverlay, "
            + "SpotToSpotConsolidation",
        "s.yaml:12:62: spec.steps[0].actions[0].expect.never: expected exactly one of condition (now), throughout or "
            + "never (from now on), found condition, never",
        "s.yaml:13:60: spec.steps[0].actions[1].expect.for: for applies to throughout and never; a condition is "
            + "checked once, now",
        "s.yaml:14:44: spec.steps[0].actions[2].insufficientCapacity.instanceType: no instance type \"g9.huge\" in "
            + "the instance catalogue",
        "s.yaml:15:29: spec.steps[0].actions[3].insufficientCapacity: g5.xlarge has no offering in us-west-2a to take "
            + "away; its offerings: spot in us-east-1a, on-demand in us-east-1a, spot in us-east-1b, on-demand in "
            + "us-east-1b, spot in us-east-1c, on-demand in us-east-1c",
        "s.yaml:16:69: spec.steps[0].actions[4].insufficientCapacity.capacityType: expected one of reserved, spot, "
            + "on-demand, found \"preemptible\"",
        "s.yaml:17:63: spec.steps[0].actions[5].expect.condition.events.reason: an event reason belongs to "
            + "KarpenterEvent and KueueEvent entries; type PodEvicted has none",
        "s.yaml:18:43: spec.steps[0].actions[6].expect.condition.events.type: expected one of Scenario, PodCreated, "
            + "PodScheduled, PodStarted, PodReady, PodFailedScheduling, PodNominated, PodPreempted, PodEvicted, "
            + "PodDeleted, PodFailed, PodExited, PodKilled, PodSucceeded, NodeclaimLaunched, NodeclaimLaunchFailed, NodeRegistered, "
            + "NodeReady, NodeclaimRegistered, NodeclaimInitialized, NodeclaimDrifted, NodeclaimDeleting, NodeTerminated, "
            + "DevicePluginRegistered, DevicePluginStopped, DeviceAllocationRefused, NodeLabeled, NodeTainted, "
            + "NodeUntainted, ImagePulled, KarpenterEvent, DisruptionProposed, DisruptionConsidered, DisruptionExecuted, "
            + "DisruptionAbandoned, "
            + "SpotInterruptionWarning, SpotReclaimed, OfferingUnavailable, Expectation, InvariantViolated, "
            + "CapacityReservation, KueueEvent, found "
            + "\"Evicted\"",
        "s.yaml:19:50: spec.steps[0].actions[7].expect.condition.disruptions.method: expected one of Emptiness, Drift, "
            + "MultiNodeConsolidation, SingleNodeConsolidation, found \"Consolidation\"",
        "s.yaml:20:48: spec.steps[0].actions[8].expect.condition.evictions.reason: expected one of Empty, "
            + "Underutilized, Drifted, Expired, Interrupted, LaunchFailed, LaunchTimeout, RegistrationTimeout, "
            + "InitializationTimeout, Deleted, found \"Preempted\"",
        "s.yaml:21:43: spec.steps[0].actions[9].expect.condition.cost.atMost: expected a number, found the string "
            + "\"cheap\"");
  }

  @Test
  void durationsBeyondGoOrTheRunsHorizonAreRefusedNotCapped() {
    assertThat(errors("""
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: t}
        spec:
          steps:
          - title: long
            actions:
            - wait: 9999999999999999999h
            - wait: 9601h
            - wait: 9600h
        """)).containsExactly(
        "s.yaml:8:13: spec.steps[0].actions[0].wait: expected a duration such as 30s, 3m or 1h30m, "
            + "found \"9999999999999999999h\"",
        "s.yaml:9:13: spec.steps[0].actions[1].wait: expected a duration of at most 9600h (a run's horizon of 400 days "
            + "of virtual time), found \"9601h\"");
  }

  @Test
  void aMissingManifestFileIsNamedWhereItIsReferenced() {
    assertThat(errors("""
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: t}
        spec:
          cluster:
          - file: nope.yaml
        """)).singleElement().asString().startsWith("s.yaml:6:11: file: no such file:");
  }

  @Test
  void errorsInsideReferencedManifestsPointAtThoseFiles() {
    ScenarioSources sources = new ScenarioSources() {
      @Override
      public String read(String path, io.gpufleet.manifest.yaml.Location at) {
        return "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n"
            + "    resources: {limits: {nvidia.com/gpu: half}}\n";
      }

      @Override
      public String name(String path) {
        return "dir/" + path;
      }
    };
    try {
      ScenarioReader.read("s.yaml", """
          apiVersion: gpufleet.io/v1alpha1
          kind: Scenario
          metadata: {name: t}
          spec:
            cluster: [{file: pod.yaml}]
          """, sources);
      throw new AssertionError("expected errors");
    } catch (ManifestException e) {
      assertThat(e.problems()).singleElement().asString()
          .startsWith("dir/pod.yaml:7:42: spec.containers[0].resources.limits[nvidia.com/gpu]: expected a quantity");
    }
  }
}
