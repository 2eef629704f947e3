package io.gpufleet.bench;

import io.gpufleet.engine.placement.PolicyKind;
import io.gpufleet.manifest.openb.OpenbTrace;
import io.gpufleet.sim.replay.ReplayProtocol;
import io.gpufleet.sim.replay.ReplayCluster;
import io.gpufleet.sim.replay.ReplaySweep;
import io.gpufleet.sim.replay.ReplayWorkload;
import io.gpufleet.sim.replay.SweepCell;
import io.gpufleet.sim.replay.SweepOutcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * One replay of the openb trace under the FGD paper's protocol (by default: FGD, the default trace,
 * seed 42, 10,776 arrivals on 1,213 nodes), from the parsed trace to the summary, including the
 * fragmentation measured after every arrival. The trace is read once per trial. Sample time, so JMH
 * prints the median (p0.50). Run from the project root: {@code scripts/bench ReplayBench -f 1 -wi 2 -i 5};
 * {@code -p policy=fgd-cpu} or {@code -p variant=gpuspec33} for others.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class ReplayBench {

  @Param("fgd")
  public String policy;

  @Param("default")
  public String variant;

  @Param("42")
  public long seed;

  private ReplayCluster cluster;
  private ReplayWorkload workload;
  private SweepCell cell;

  @Setup
  public void loadTrace() throws IOException {
    Path data = Path.of(System.getProperty("gpufleet.openb", "data/openb"));
    if (!Files.isDirectory(data)) {
      throw new IllegalStateException("no openb trace at " + data.toAbsolutePath()
          + "; run from the project root or pass -Dgpufleet.openb=<dir>");
    }
    OpenbTrace trace = new OpenbTrace(data);
    cluster = ReplayCluster.of(trace.gpuNodes());
    workload = ReplayWorkload.of(variant, trace.pods(variant), ReplayProtocol.PAPER);
    cell = new SweepCell(variant, PolicyKind.parse(policy).orElseThrow(), seed);
  }

  @Benchmark
  public SweepOutcome replay() {
    return ReplaySweep.runOne(cluster, workload, cell, ReplayProtocol.PAPER);
  }
}
