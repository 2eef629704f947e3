package io.gpufleet.sim.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;

/**
 * Many replays (variants × policies × seeds) on an executor the caller owns. Each replay is
 * independent and seeded by its own cell, so the outcomes, returned in cell order, do not depend on
 * the thread count or on which replay finishes first.
 */
public final class ReplaySweep {

  private ReplaySweep() {}

  /** The generator of one replay: the seed alone decides it, so every policy sees the same arrivals. */
  public static RandomGenerator generator(long seed) {
    return new SplittableRandom(seed);
  }

  /** Runs one replay and condenses it. */
  public static SweepOutcome runOne(ReplayCluster cluster, ReplayWorkload workload, SweepCell cell,
      ReplayProtocol protocol) {
    ReplayCurve curve = ReplayRun.run(cluster, workload, cell.policy(), generator(cell.seed()), protocol);
    ArrivalGrid grid = ArrivalGrid.of(curve);
    return new SweepOutcome(cell, ReplaySummary.of(cell.variant(), cell.policy().title(), cell.seed(), curve, grid,
        workload.typical()), grid);
  }

  public static List<SweepOutcome> run(ReplayCluster cluster, Map<String, ReplayWorkload> workloads,
      List<SweepCell> cells, ReplayProtocol protocol, ExecutorService executor, SweepProgress progress)
      throws InterruptedException {
    for (SweepCell c : cells) {
      if (!workloads.containsKey(c.variant())) {
        throw new IllegalArgumentException("no workload for variant " + c.variant());
      }
    }
    AtomicInteger done = new AtomicInteger();
    List<Future<SweepOutcome>> futures = new ArrayList<>(cells.size());
    for (SweepCell c : cells) {
      futures.add(executor.submit(() -> {
        SweepOutcome o = runOne(cluster, workloads.get(c.variant()), c, protocol);
        progress.finished(done.incrementAndGet(), cells.size(), c);
        return o;
      }));
    }
    List<SweepOutcome> outcomes = new ArrayList<>(cells.size());
    try {
      for (Future<SweepOutcome> f : futures) {
        outcomes.add(f.get());
      }
    } catch (ExecutionException e) {
      futures.forEach(f -> f.cancel(true));
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(cause);
    } catch (InterruptedException | CancellationException e) {
      futures.forEach(f -> f.cancel(true));
      throw e;
    }
    return outcomes;
  }
}
