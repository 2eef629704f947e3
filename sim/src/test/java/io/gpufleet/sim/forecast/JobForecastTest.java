package io.gpufleet.sim.forecast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpufleet.model.meta.ObjectRef;
import io.gpufleet.sim.metrics.TeamCost;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Quantiles over seeds, a run that never got there counting as later than every run that did. */
class JobForecastTest {

  static final JobSpec JOB = new JobSpec(Set.of(new ObjectRef("Job", "ml", "train")), Set.of(), 2, 2);

  static JobRun run(long seed, Long runningMinutes) {
    Optional<Duration> at = Optional.ofNullable(runningMinutes).map(Duration::ofMinutes);
    return new JobRun(seed, Duration.ofHours(24), 2, at, at.map(d -> d.plusHours(1)), new TreeMap<>(),
        TeamCost.Share.NONE, new TreeMap<>(), Optional.empty());
  }

  @Test
  void costIsANearestRankQuantileOverEveryRun() {
    List<JobRun> runs = new java.util.ArrayList<>();
    for (long seed = 1; seed <= 5; seed++) {
      JobRun r = run(seed, seed == 2 ? null : 10L);
      runs.add(new JobRun(r.seed(), r.horizon(), r.pods(), r.running(), r.finished(), r.placements(),
          new TeamCost.Share(seed, 10.0 * (6 - seed)), r.waiting(), r.kueue()));
    }
    JobForecast f = new JobForecast(JOB, runs);
    // $50, $40, $30, $20, $10: a run that never ran still has a cost (here $40), counted like the rest.
    assertThat(f.dollars(0.5)).isEqualTo(30.0);
    assertThat(f.dollars(0.9)).isEqualTo(50.0);
  }

  @Test
  void nearestRankOverTheSeeds() {
    JobForecast f = new JobForecast(JOB, List.of(run(1, 30L), run(2, 5L), run(3, 10L), run(4, 20L), run(5, 15L)));
    assertThat(f.running(0.5)).hasValue(Duration.ofMinutes(15));
    assertThat(f.running(0.9)).hasValue(Duration.ofMinutes(30));
    assertThat(f.finished(0.5)).hasValue(Duration.ofMinutes(75));
    assertThat(f.runningRuns()).isEqualTo(5);
  }

  @Test
  void runsThatNeverGotThereAreLaterThanAnyThatDidAndNeverTheHorizon() {
    JobForecast f = new JobForecast(JOB, List.of(run(1, 10L), run(2, null), run(3, 20L), run(4, null), run(5, null)));
    assertThat(f.running(0.4)).hasValue(Duration.ofMinutes(20));
    assertThat(f.running(0.5)).as("the third of five is a run that never got there").isEmpty();
    assertThat(f.running(0.9)).isEmpty();
    assertThat(f.runningRuns()).isEqualTo(2);
  }

  @Test
  void aJobNeedsAWorkloadOrAPodAndAForecastARun() {
    assertThatThrownBy(() -> new JobSpec(Set.of(), Set.of(), 0, 0)).hasMessageContaining("a workload or a pod");
    assertThatThrownBy(() -> new JobForecast(JOB, List.of())).hasMessageContaining("at least one run");
  }
}
