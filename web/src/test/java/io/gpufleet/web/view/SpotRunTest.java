package io.gpufleet.web.view;

import static org.assertj.core.api.Assertions.assertThat;

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
}
