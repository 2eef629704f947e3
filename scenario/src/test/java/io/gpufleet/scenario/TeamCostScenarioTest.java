package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.metrics.CardSpan;
import io.gpufleet.sim.metrics.Metrics;
import io.gpufleet.sim.metrics.TeamCost;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Cost per team on the examples: four tenants on 1g.10gb MIG slices of p5.4xlarge nodes (one H100
 * each, $6.88 an hour on demand in the catalogue), and one team on time-sliced replicas.
 */
class TeamCostScenarioTest {

  static SimulationResult run(String example) throws Exception {
    Path file = Path.of("..", "examples", "scenarios", example);
    ScenarioFile f = ScenarioReader.read(file.getFileName().toString(), Files.readString(file),
        ScenarioSources.directory(file.getParent()));
    return Simulation.run(f.scenario());
  }

  /** Each namespace's card-hours straight from its spans, for runs where no card is held past whole. */
  static Map<String, Double> heldHours(Metrics m) {
    Map<String, Double> out = new TreeMap<>();
    for (CardSpan s : m.cardSpans()) {
      double hours = Duration.between(s.start(), s.end().orElse(m.end())).toMillis() / 3_600_000.0;
      out.merge(s.pod().substring(0, s.pod().indexOf('/')), hours * s.card().share(), Double::sum);
    }
    return out;
  }

  @Test
  void migTenantsPayASeventhOfTheCardPerSliceAtTheInstancesPrice() throws Exception {
    Metrics m = run("mig-multi-tenant.yaml").metrics();
    TeamCost t = m.teamCost();
    assertThat(t.byNamespace()).containsOnlyKeys("acme", "globex", "initech", "umbrella");
    assertThat(m.cardSpans()).allSatisfy(s -> assertThat(s.card().share()).isCloseTo(1.0 / 7, within(1e-12)));
    Map<String, Double> held = heldHours(m);
    t.byNamespace().forEach((ns, share) -> {
      assertThat(share.gpuHours()).as(ns).isCloseTo(held.get(ns), within(1e-9));
      assertThat(share.dollars()).as(ns).isCloseTo(share.gpuHours() * 6.88, within(1e-9));
    });
    double charged = t.byNamespace().values().stream().mapToDouble(TeamCost.Share::dollars).sum();
    assertThat(charged + t.idle().dollars()).as("every dollar of the GPU nodes is charged or idle")
        .isCloseTo(m.totalCost(), within(1e-9));
    // The GPU-hours gauge counts the node's advertised slices in use; the spans count the slices the
    // kubelet gave out: two measurements of one thing, equal up to the gauge's rounding to 1e-6.
    double hours = t.byNamespace().values().stream().mapToDouble(TeamCost.Share::gpuHours).sum();
    assertThat(hours).isCloseTo(m.gpuHoursAllocated(), within(1e-5 * m.gpuHoursAllocated()));
  }

  @Test
  void timeSlicedReplicasAreChargedAsTheirPartOfTheCard() throws Exception {
    Metrics m = run("time-sliced-node-overlay.yaml").metrics();
    assertThat(m.cardSpans()).isNotEmpty().allSatisfy(s -> assertThat(s.card().share()).isLessThan(1));
    Map<String, Double> held = heldHours(m);
    m.teamCost().byNamespace().forEach((ns, share) ->
        assertThat(share.gpuHours()).as(ns).isCloseTo(held.get(ns), within(1e-9)));
    assertThat(m.teamCost().byNamespace().values().stream().mapToDouble(TeamCost.Share::gpuHours).sum())
        .isCloseTo(m.gpuHoursAllocated(), within(1e-5 * m.gpuHoursAllocated()));
  }
}
