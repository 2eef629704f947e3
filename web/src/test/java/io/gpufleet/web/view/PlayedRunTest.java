package io.gpufleet.web.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.gpufleet.web.Lab;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The lab as the dashboard sees it, step by step: what the workshop says each step shows. */
class PlayedRunTest {

  static final String LAB_NODE = "ip-10-0-1-17.ec2.internal";
  private static PlayedRun lab;

  @BeforeAll
  static void play() {
    var file = Lab.lab();
    lab = PlayedRun.play("lab", file, file.scenario(), 20_000);
  }

  private static StepMark step(String id) {
    return lab.steps().stream().filter(s -> s.id().equals(id)).findFirst().orElseThrow();
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> nodes(int frame) {
    return (List<Map<String, Object>>) ClusterView.of(lab, frame).get("nodes");
  }

  private static Map<String, Object> labNode(int frame) {
    return nodes(frame).stream().filter(n -> n.get("name").equals(LAB_NODE)).findFirst().orElseThrow();
  }

  @Test
  void everyStepOfTheLabHasItsPlaceOnTheTimeline() {
    assertThat(lab.steps()).extracting(StepMark::id).containsExactly("3.1", "3.2", "3.3", "3.4", "3.5");
    for (StepMark s : lab.steps()) {
      assertThat(s.endFrame()).isGreaterThanOrEqualTo(s.startFrame());
      assertThat(lab.frames().get(s.endFrame()).checkpoint()).isPresent();
    }
    assertThat(lab.frames().getLast().state()).isSameAs(lab.result().finalState());
  }

  @Test
  @SuppressWarnings("unchecked")
  void atTheEndOf33FourPodsShareTheOneCardOfTheLabNode() {
    Map<String, Object> node = labNode(step("3.3").endFrame());
    assertThat(node.get("gpuAdvertised")).isEqualTo(4L);
    List<Map<String, Object>> gpus = (List<Map<String, Object>>) node.get("gpus");
    assertThat(gpus).hasSize(1);
    assertThat((List<String>) gpus.getFirst().get("pods")).hasSize(4).allMatch(p -> p.contains("vllm-sliced"));
    List<Map<String, Object>> devices = (List<Map<String, Object>>) gpus.getFirst().get("devices");
    assertThat(devices).hasSize(4).allMatch(d -> d.get("replicas").equals(4) && d.get("pod") != null);
    assertThat(((Map<String, String>) node.get("gfdLabels"))).containsEntry("nvidia.com/gpu.replicas", "4");
  }

  @Test
  void at34ASecondNodeOfTheNodePoolHoldsTheFifthPod() {
    List<Map<String, Object>> nodes = nodes(step("3.4").endFrame());
    assertThat(nodes).filteredOn(n -> "gpu".equals(n.get("nodePool"))).hasSize(2);
    Map<String, Object> second = nodes.stream().filter(n -> !n.get("name").equals(LAB_NODE)).findFirst().orElseThrow();
    assertThat(second.get("lifecycle")).isEqualTo("initialized");
    assertThat(second.get("gpuAdvertised")).isEqualTo(1L);
    assertThat(second.toString()).contains("vllm-fifth");
    assertThat(nodes(step("3.3").endFrame())).hasSize(1);
  }

  @Test
  void at35TheLabNodeAdvertisesOneAgain() {
    assertThat(labNode(step("3.5").endFrame()).get("gpuAdvertised")).isEqualTo(1L);
    // The show checkpoint part-way: four replicas still held on one advertised GPU.
    int shown = step("3.5").startFrame() + 1;
    while (lab.frames().get(shown).checkpoint().isEmpty()) {
      shown++;
    }
    Map<String, Object> held = labNode(shown);
    assertThat(held.get("gpuAdvertised")).isEqualTo(1L);
    assertThat(held.get("gpuAllocated")).isEqualTo(4L);
  }

  /** The series' value at a frame's time. */
  private static double at(List<double[]> points, int frame) {
    long t = java.time.Duration.between(lab.result().start(), lab.frames().get(frame).time()).getSeconds();
    return points.stream().filter(p -> p[0] == t).findFirst().orElseThrow()[1];
  }

  @Test
  @SuppressWarnings("unchecked")
  void theSeriesFollowTheFramesAndTheCostAddsUpToTheRunsTotal() {
    Map<String, Object> series = RunOverview.series(lab);
    List<double[]> advertised = (List<double[]>) series.get("gpusAdvertised");
    // One point per time the frames reach: the last frame's of that instant.
    assertThat(advertised).hasSize((int) lab.frames().stream().map(f -> f.time()).distinct().count());
    assertThat(at(advertised, step("3.3").endFrame())).isEqualTo(4);
    List<double[]> physical = (List<double[]>) series.get("gpusPhysical");
    assertThat(at(physical, step("3.3").endFrame())).isEqualTo(1);
    assertThat(at(physical, step("3.5").endFrame())).isEqualTo(2);
    List<double[]> cost = (List<double[]>) series.get("costCumulative");
    assertThat(cost.getLast()[1]).isCloseTo(lab.result().metrics().totalCost(), within(0.001));
    for (int i = 1; i < cost.size(); i++) {
      assertThat(cost.get(i)[1]).isGreaterThanOrEqualTo(cost.get(i - 1)[1]);
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void theSecondNodesLaneGoesFromLaunchedToInitialized() {
    List<Map<String, Object>> lanes = RunOverview.lanes(lab);
    assertThat(lanes).hasSize(2);
    Map<String, Object> second = lanes.stream().filter(l -> !l.get("node").equals(LAB_NODE)).findFirst().orElseThrow();
    List<Map<String, Object>> spans = (List<Map<String, Object>>) second.get("spans");
    assertThat(spans).extracting(s -> s.get("state")).containsExactly("launched", "registered", "initialized");
    for (int i = 1; i < spans.size(); i++) {
      assertThat(spans.get(i).get("from")).isEqualTo(spans.get(i - 1).get("to"));
    }
  }

  @Test
  void frameAtFindsTheLastFrameByThatTime() {
    long end = lab.result().simulated().getSeconds();
    assertThat(lab.frameAt(0)).isLessThan(lab.frames().size());
    assertThat(lab.frameAt(end)).isEqualTo(lab.frames().size() - 1);
    long t = 400;
    int f = lab.frameAt(t);
    assertThat(lab.frames().get(f).time()).isBeforeOrEqualTo(lab.result().start().plusSeconds(t));
    assertThat(lab.frames().get(f + 1).time()).isAfter(lab.result().start().plusSeconds(t));
  }
}
