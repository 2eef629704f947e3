package io.gpufleet.bench;

import com.sun.management.ThreadMXBean;
import io.gpufleet.scenario.ScenarioFile;
import io.gpufleet.scenario.ScenarioReader;
import io.gpufleet.scenario.ScenarioSources;
import io.gpufleet.sim.ProgressListener;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.record.RunRecord;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What one simulation event costs as a fleet grows, not a unit test: for each shape, a small and a
 * large scenario (about 300 and 1,200 nodes) are simulated in this process one after the other,
 * {@code runs} times each after one warm-up run of each, and the median CPU time (this thread's) and
 * wall time per event are printed with the large-to-small ratio. Only {@code Simulation.run} is
 * timed: reading the scenario and writing the outputs are left out. The bytes the thread allocated per
 * event are printed beside them: not the cost itself, but a figure another process on the host does
 * not move, where CPU time drifted by up to 2x within minutes on a shared machine.
 *
 * <pre>scripts/event-cost [runs]   (generates the scenarios, builds, runs this)</pre>
 *
 * Arguments: {@code runs} then {@code shape small.yaml large.yaml} triples.
 */
public final class EventCost {
  private EventCost() {}

  /**
   * One run; {@code records}: the run record's entries (pods created, bound, evicted, nodes launched...),
   * the changes the events carried, so that the cost per change can be told from the cost per event.
   */
  record Run(long events, int peakNodes, long records, double cpuMicrosPerEvent, double wallMicrosPerEvent,
      double cpuMicrosPerRecord, double allocatedKbPerEvent) {}

  public static void main(String[] args) throws Exception {
    if (args.length < 4 || (args.length - 1) % 3 != 0) {
      throw new IllegalArgumentException("usage: EventCost RUNS (SHAPE SMALL.yaml LARGE.yaml)...");
    }
    int runs = Integer.parseInt(args[0]);
    ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    System.out.printf(Locale.ROOT, "%-10s %-6s %8s %7s %14s %15s %8s %15s %14s%n", "shape", "size", "events", "nodes",
        "cpu us/event", "wall us/event", "records", "cpu us/record", "alloc KB/event");
    List<String> ratios = new ArrayList<>();
    for (int i = 1; i < args.length; i += 3) {
      String shape = args[i];
      ScenarioFile small = read(Path.of(args[i + 1]));
      ScenarioFile large = read(Path.of(args[i + 2]));
      run(small, threads);
      run(large, threads);
      List<Run> s = new ArrayList<>();
      List<Run> l = new ArrayList<>();
      for (int r = 0; r < runs; r++) {
        s.add(run(small, threads));
        l.add(run(large, threads));
      }
      double[] sm = print(shape, "small", s);
      double[] lm = print(shape, "large", l);
      ratios.add(String.format(Locale.ROOT,
          "%-10s large/small per event: cpu %.2fx, wall %.2fx, allocated %.2fx; per record: cpu %.2fx",
          shape, lm[0] / sm[0], lm[1] / sm[1], lm[3] / sm[3], lm[2] / sm[2]));
    }
    ratios.forEach(System.out::println);
    System.out.printf(Locale.ROOT, "medians of %d runs each, alternating small and large; load average %.1f%n", runs,
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }

  private static ScenarioFile read(Path p) throws Exception {
    return ScenarioReader.read(p.toString(), Files.readString(p), ScenarioSources.directory(p.toAbsolutePath()
        .getParent()));
  }

  private static Run run(ScenarioFile f, ThreadMXBean threads) {
    long bytes0 = threads.getCurrentThreadAllocatedBytes();
    long cpu0 = threads.getCurrentThreadCpuTime();
    long wall0 = System.nanoTime();
    SimulationResult r = Simulation.run(f.scenario(), ProgressListener.NONE);
    long cpu = threads.getCurrentThreadCpuTime() - cpu0;
    long wall = System.nanoTime() - wall0;
    long bytes = threads.getCurrentThreadAllocatedBytes() - bytes0;
    long records = r.record().entries().size();
    return new Run(r.events(), peakNodes(r), records, cpu / 1e3 / r.events(), wall / 1e3 / r.events(),
        cpu / 1e3 / records, bytes / 1024.0 / r.events());
  }

  /** The most nodes at once: those at the end, less those registered, plus those terminated, then the record's walk. */
  private static int peakNodes(SimulationResult r) {
    int registered = 0;
    int terminated = 0;
    for (RunRecord.Entry e : r.record().entries()) {
      registered += e.kind() == RunRecord.Kind.NODE_REGISTERED ? 1 : 0;
      terminated += e.kind() == RunRecord.Kind.NODE_TERMINATED ? 1 : 0;
    }
    int now = r.finalState().nodes().size() - registered + terminated;
    int peak = now;
    for (RunRecord.Entry e : r.record().entries()) {
      now += e.kind() == RunRecord.Kind.NODE_REGISTERED ? 1 : e.kind() == RunRecord.Kind.NODE_TERMINATED ? -1 : 0;
      peak = Math.max(peak, now);
    }
    return peak;
  }

  /** Prints each size's medians; returns {cpu, wall} per event, cpu per record and allocated per event. */
  private static double[] print(String shape, String size, List<Run> runs) {
    double cpu = median(runs.stream().mapToDouble(Run::cpuMicrosPerEvent).toArray());
    double wall = median(runs.stream().mapToDouble(Run::wallMicrosPerEvent).toArray());
    double perRecord = median(runs.stream().mapToDouble(Run::cpuMicrosPerRecord).toArray());
    double allocated = median(runs.stream().mapToDouble(Run::allocatedKbPerEvent).toArray());
    Run first = runs.getFirst();
    System.out.printf(Locale.ROOT, "%-10s %-6s %8d %7d %14.1f %15.1f %8d %15.1f %14.1f%n", shape, size, first.events(),
        first.peakNodes(), cpu, wall, first.records(), perRecord, allocated);
    return new double[] {cpu, wall, perRecord, allocated};
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
