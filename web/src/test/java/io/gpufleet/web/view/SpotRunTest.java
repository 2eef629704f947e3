package io.gpufleet.web.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.web.Lab;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The spot example as the dashboard draws it: the interruption is a marker and the node's lane ends. */
class SpotRunTest {

  @Test
  @SuppressWarnings("unchecked")
  void theInterruptionIsMarkedAndTheReclaimedNodesLaneEndsInDraining() {
    var file = Lab.scenario("scenarios/inference-spot.yaml");
    PlayedRun run = PlayedRun.play("spot", file, file.scenario(), 20_000);
    List<Map<String, Object>> markers = RunOverview.markers(run);
    Map<String, Object> warning = markers.stream().filter(m -> m.get("kind").equals("SpotInterruptionWarning"))
        .findFirst().orElseThrow();
    String claim = (String) warning.get("subject");
    List<Map<String, Object>> lanes = RunOverview.lanes(run);
    Map<String, Object> lane = lanes.stream().filter(l -> claim.contains((String) l.get("key"))
        || ((String) l.get("key")).contains(claim) || claim.contains((String) l.get("node"))).findFirst().orElseThrow();
    List<Map<String, Object>> spans = (List<Map<String, Object>>) lane.get("spans");
    assertThat(spans.getLast().get("state")).isEqualTo("draining");
    assertThat(lane.get("deletedSeconds")).isNotNull();
    long warned = (Long) warning.get("seconds");
    assertThat((Long) spans.getLast().get("from")).isGreaterThanOrEqualTo(warned);
    assertThat((Long) lane.get("deletedSeconds")).isGreaterThan(warned);
  }

  /**
   * The what-if "capacity types = on-demand" on the spot example (issue 31): the nodes are on-demand,
   * so the scripted spot interruption does not happen (EC2 warns spot instances only); nothing is
   * evicted or deleted for it, and the run names the step and the node.
   */
  @Test
  void onDemandCapacityGetsNoSpotInterruptionAndTheRunSaysSo() {
    var file = Lab.scenario("scenarios/inference-spot.yaml");
    var onDemand = Knobs.read(Map.of("capacityTypes", "on-demand")).apply(file.scenario());
    var r = PlayedRun.play("on-demand", file, onDemand, 20_000).result();
    assertThat(r.record().of(RunRecord.Kind.NODECLAIM_LAUNCHED)).isNotEmpty()
        .allSatisfy(e -> assertThat(e.message()).contains(" on-demand in "));
    assertThat(r.record().of(RunRecord.Kind.SPOT_INTERRUPTION_WARNING)).isEmpty();
    assertThat(r.record().of(RunRecord.Kind.POD_EVICTED)).isEmpty();
    assertThat(r.record().of(RunRecord.Kind.NODECLAIM_DELETING)).isEmpty();
    assertThat(r.record().of(RunRecord.Kind.SCENARIO)).anySatisfy(e -> assertThat(e.message())
        .startsWith("step 2 A spot interruption: no spotInterruption for ")
        .endsWith(": it is on-demand capacity, and EC2 sends this notice only to spot instances"));
    // The spot run, for contrast, is interrupted and evicts.
    var spot = PlayedRun.play("spot", file, file.scenario(), 20_000).result();
    assertThat(spot.record().of(RunRecord.Kind.SPOT_INTERRUPTION_WARNING)).hasSize(1);
    assertThat(spot.record().of(RunRecord.Kind.POD_EVICTED)).hasSize(1);
  }
}
