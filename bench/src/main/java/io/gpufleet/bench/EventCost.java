package io.gpufleet.bench;

import com.sun.management.ThreadMXBean;
import io.gpufleet.scenario.ScenarioFile;
import io.gpufleet.scenario.ScenarioReader;
import io.gpufleet.scenario.ScenarioSources;
import io.gpufleet.sim.EventObserver;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.kernel.Event;
import io.gpufleet.sim.record.RunRecord;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one simulation event costs as a fleet grows, not a unit test: for each shape, a small and a
 * large scenario (about 300 and 1,200 nodes) are simulated in this process one after the other,
 * {@code runs} times each after one warm-up run of each, and the median CPU time (this thread's) and
 * wall time per event are printed with the large-to-small ratio. Only {@code Simulation.run} is
 * timed: reading the scenario and writing the outputs are left out. The bytes the thread allocated per
 * event are printed beside them: not the cost itself, but a figure another process on the host does
 * not move, where CPU time drifted by up to 2x within minutes on a shared machine.
 *
 * <p>The disruption polls come once per poll interval however large the fleet (8,639 in a simulated
 * day of 10 s polls), so they are a large share of a small fleet's events and a smaller one of a large
 * fleet's: even a simulator whose every cost grew with the fleet alone would show a per-event ratio
 * above 1. Their CPU is therefore timed apart (this thread's CPU around each poll) and printed per
 * poll, and the rest per fleet event: every other event, whose number grows with the fleet; the ratio of
 * all CPU (the polls' included) per fleet event is printed too, the cost of the fleet's work. With
 * {@code --kinds} first, every event is timed and each size's last run is broken down per event kind.
 *
 * <p>Events are not units of work of one size: a scheduler cycle binds every pod that fits, a provisioning
 * round launches for every pod pending, so on a larger fleet an event can carry more. The pods bound
 * (run-record {@code POD_SCHEDULED} entries) per fleet event are printed with their ratio, and all CPU per
 * pod bound: the per-fleet-event ratio is the product of the two ratios.
 *
 * <p>{@code --warmup N} runs each size N times first, unmeasured (default {@value #WARMUP}): each size's
 * figures take about four runs to settle ({@link EventCostAB}).
 *
 * <pre>scripts/event-cost [runs]   (generates the scenarios, builds, runs this)</pre>
 *
 * Arguments: [{@code --kinds}] [{@code --warmup N}] {@code runs} then {@code shape small.yaml large.yaml} triples.
 */
public final class EventCost {
  private EventCost() {}

  /** Warm-up runs of each size (of each build in {@link EventCostAB}) before any is measured. */
  static final int WARMUP = 5;

  /**
   * One run; {@code records}: the run record's entries (pods created, bound, evicted, nodes launched...),
   * the changes the events carried, so that the cost per change can be told from the cost per event.
   */
  record Run(long events, int peakNodes, long records, double cpuMicrosPerEvent, double wallMicrosPerEvent,
      double cpuMicrosPerRecord, double allocatedKbPerEvent, long polls, double cpuMicrosPerPoll,
      double cpuMicrosPerFleetEvent, double allCpuMicrosPerFleetEvent, double podsBoundPerFleetEvent,
      double allCpuMicrosPerPodBound, Map<String, Kind> kinds) {}

  /** One kind of event in a run: how many, and this thread's CPU over their handling. */
  record Kind(long count, long cpuNanos) {
    Kind plus(long nanos) {
      return new Kind(count + 1, cpuNanos + nanos);
    }
  }

  public static void main(String[] args) throws Exception {
    boolean kinds = args.length > 0 && args[0].equals("--kinds");
    if (kinds) {
      args = Arrays.copyOfRange(args, 1, args.length);
    }
    int warmup = WARMUP;
    if (args.length > 1 && args[0].equals("--warmup")) {
      warmup = Integer.parseInt(args[1]);
      args = Arrays.copyOfRange(args, 2, args.length);
    }
    if (args.length < 4 || (args.length - 1) % 3 != 0 || warmup < 0) {
      throw new IllegalArgumentException(
          "usage: EventCost [--kinds] [--warmup N] RUNS (SHAPE SMALL.yaml LARGE.yaml)...");
    }
    int runs = Integer.parseInt(args[0]);
    ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    System.out.printf(Locale.ROOT, "%-10s %-6s %8s %7s %14s %15s %8s %15s %14s %7s %13s %19s%n", "shape", "size",
        "events", "nodes", "cpu us/event", "wall us/event", "records", "cpu us/record", "alloc KB/event", "polls",
        "cpu us/poll", "cpu us/fleet event");
    List<String> breakdowns = new ArrayList<>();
    List<String> ratios = new ArrayList<>();
    for (int i = 1; i < args.length; i += 3) {
      String shape = args[i];
      ScenarioFile small = read(Path.of(args[i + 1]));
      ScenarioFile large = read(Path.of(args[i + 2]));
      for (int w = 0; w < warmup; w++) {
        run(small, threads, kinds);
        run(large, threads, kinds);
      }
      List<Run> s = new ArrayList<>();
      List<Run> l = new ArrayList<>();
      for (int r = 0; r < runs; r++) {
        s.add(run(small, threads, kinds));
        l.add(run(large, threads, kinds));
      }
      double[] sm = print(shape, "small", s);
      double[] lm = print(shape, "large", l);
      ratios.add(String.format(Locale.ROOT,
          "%-10s large/small per event: cpu %.2fx, wall %.2fx, allocated %.2fx; per record: cpu %.2fx; "
              + "per poll: cpu %.2fx; per fleet event: cpu %.2fx, all cpu (polls' too) %.2fx = pods bound %.2fx "
              + "(%.3f / %.3f) x all cpu per pod bound %.2fx; fastest runs' all cpu per fleet event %.2fx",
          shape, lm[0] / sm[0], lm[1] / sm[1], lm[3] / sm[3], lm[2] / sm[2], lm[4] / sm[4], lm[5] / sm[5],
          lm[6] / sm[6], lm[7] / sm[7], sm[7], lm[7], lm[8] / sm[8], lm[9] / sm[9]));
      ratios.add(pairs(shape, s, l));
      if (kinds) {
        breakdowns.add(breakdown(shape, "small", s.getLast()));
        breakdowns.add(breakdown(shape, "large", l.getLast()));
      }
    }
    ratios.forEach(System.out::println);
    breakdowns.forEach(System.out::print);
    System.out.printf(Locale.ROOT, "medians of %d runs each after %d of warm-up, alternating small and large; "
        + "load average %.1f%n", runs, warmup, ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }

  private static ScenarioFile read(Path p) throws Exception {
    return ScenarioReader.read(p.toString(), Files.readString(p), ScenarioSources.directory(p.toAbsolutePath()
        .getParent()));
  }

  /**
   * The ratio of all CPU per fleet event, large over small, of each pair (a small run and the large run
   * after it): their median and range. A pair's runs are close in time, so a host's drift over minutes
   * moves this less than the ratio of the medians; its range shows the JVM's spread.
   */
  private static String pairs(String shape, List<Run> small, List<Run> large) {
    double[] r = new double[small.size()];
    for (int i = 0; i < r.length; i++) {
      r[i] = large.get(i).allCpuMicrosPerFleetEvent() / small.get(i).allCpuMicrosPerFleetEvent();
    }
    double[] sorted = r.clone();
    Arrays.sort(sorted);
    return String.format(Locale.ROOT, "%-10s pairs' all cpu per fleet event, large/small: median %.2fx, %.2fx to %.2fx",
        shape, median(r), sorted[0], sorted[sorted.length - 1]);
  }

  /** One run; polls are timed, and with {@code everyKind} every event. */
  private static Run run(ScenarioFile f, ThreadMXBean threads, boolean everyKind) {
    Map<String, Kind> kinds = new TreeMap<>();
    EventObserver timing = (event, handling) -> {
      if (!everyKind && !(event instanceof Event.DisruptionPoll)) {
        handling.run();
        return;
      }
      long t0 = threads.getCurrentThreadCpuTime();
      handling.run();
      long t = threads.getCurrentThreadCpuTime() - t0;
      kinds.merge(event.getClass().getSimpleName(), new Kind(1, t), (a, b) -> a.plus(b.cpuNanos()));
    };
    long bytes0 = threads.getCurrentThreadAllocatedBytes();
    long cpu0 = threads.getCurrentThreadCpuTime();
    long wall0 = System.nanoTime();
    SimulationResult r = Simulation.runObserved(f.scenario(), timing);
    long cpu = threads.getCurrentThreadCpuTime() - cpu0;
    long wall = System.nanoTime() - wall0;
    long bytes = threads.getCurrentThreadAllocatedBytes() - bytes0;
    long records = r.record().entries().size();
    Kind polls = kinds.getOrDefault(Event.DisruptionPoll.class.getSimpleName(), new Kind(0, 0));
    long fleetEvents = r.events() - polls.count();
    long bound = r.record().entries().stream().filter(e -> e.kind() == RunRecord.Kind.POD_SCHEDULED).count();
    return new Run(r.events(), peakNodes(r), records, cpu / 1e3 / r.events(), wall / 1e3 / r.events(),
        cpu / 1e3 / records, bytes / 1024.0 / r.events(), polls.count(),
        polls.count() == 0 ? 0 : polls.cpuNanos() / 1e3 / polls.count(),
        (cpu - polls.cpuNanos()) / 1e3 / fleetEvents, cpu / 1e3 / fleetEvents, (double) bound / fleetEvents,
        bound == 0 ? 0 : cpu / 1e3 / bound, kinds);
  }

  /** A run's events per kind: count, CPU microseconds each, and share of the timed CPU. */
  private static String breakdown(String shape, String size, Run run) {
    long total = run.kinds().values().stream().mapToLong(Kind::cpuNanos).sum();
    StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%s %s, last run, per event kind:%n", shape,
        size));
    run.kinds().forEach((name, k) -> out.append(String.format(Locale.ROOT, "  %-24s %8d %10.1f us %6.1f%%%n", name,
        k.count(), k.cpuNanos() / 1e3 / k.count(), 100.0 * k.cpuNanos() / total)));
    return out.toString();
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

  /**
   * Prints each size's medians; returns {cpu, wall} per event, cpu per record, allocated per event,
   * cpu per poll, cpu per fleet event, all cpu per fleet event, pods bound per fleet event, all cpu per
   * pod bound, and the fastest run's all cpu per fleet event ({@link EventCostAB} says why).
   */
  private static double[] print(String shape, String size, List<Run> runs) {
    double cpu = median(runs.stream().mapToDouble(Run::cpuMicrosPerEvent).toArray());
    double wall = median(runs.stream().mapToDouble(Run::wallMicrosPerEvent).toArray());
    double perRecord = median(runs.stream().mapToDouble(Run::cpuMicrosPerRecord).toArray());
    double allocated = median(runs.stream().mapToDouble(Run::allocatedKbPerEvent).toArray());
    double perPoll = median(runs.stream().mapToDouble(Run::cpuMicrosPerPoll).toArray());
    double perFleetEvent = median(runs.stream().mapToDouble(Run::cpuMicrosPerFleetEvent).toArray());
    double allPerFleetEvent = median(runs.stream().mapToDouble(Run::allCpuMicrosPerFleetEvent).toArray());
    double podsPerFleetEvent = median(runs.stream().mapToDouble(Run::podsBoundPerFleetEvent).toArray());
    double perPodBound = median(runs.stream().mapToDouble(Run::allCpuMicrosPerPodBound).toArray());
    Run first = runs.getFirst();
    System.out.printf(Locale.ROOT, "%-10s %-6s %8d %7d %14.1f %15.1f %8d %15.1f %14.1f %7d %13.1f %19.1f%n", shape,
        size, first.events(), first.peakNodes(), cpu, wall, first.records(), perRecord, allocated, first.polls(),
        perPoll, perFleetEvent);
    double fastest = runs.stream().mapToDouble(Run::allCpuMicrosPerFleetEvent).min().orElseThrow();
    return new double[] {cpu, wall, perRecord, allocated, perPoll, perFleetEvent, allPerFleetEvent,
        podsPerFleetEvent, perPodBound, fastest};
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
