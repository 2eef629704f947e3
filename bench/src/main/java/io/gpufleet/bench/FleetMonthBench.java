package io.gpufleet.bench;

import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.scenario.Scenario;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Thirty simulated days of a GPU fleet of about 200 nodes at its daily peak (see {@link FleetMonth}),
 * run whole: every event, every controller, invariants after every event (incremental, the default),
 * the run record and the metrics. One run per measurement; divide 2,592,000 s by the score for the
 * speed-up over wall time. Run: {@code scripts/bench FleetMonthBench}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 5)
@Fork(1)
public class FleetMonthBench {

  @Param("720")
  public int hours;

  private Scenario scenario;

  @Setup
  public void setUp() {
    scenario = FleetMonth.scenario(hours, 1);
  }

  @Benchmark
  public SimulationResult month() {
    return Simulation.run(scenario);
  }
}
