package io.gpufleet.bench;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * {@link EventCost}'s runs of two builds of gpufleet side by side in one JVM: each build's classes in a
 * class loader of its own, the runs alternating build by build (A then B, then B then A) for each size.
 * Separate JVMs, one per build, differ by more than the change measured on a shared 2-core host: each
 * JVM's compiled code, and whatever else runs meanwhile, moved the large-over-small ratio of one and the
 * same build by 0.3 and more from JVM to JVM. Here both builds meet the same JVM, heap and neighbours, run
 * after run, so the two are compared under the same conditions; each build's code is still compiled apart,
 * and one JVM's figures still differ from the next one's (by about 0.15 in the ratio on that host): run it
 * several times, swapping A and B, and read the medians.
 *
 * <pre>java -cp bench/target/classes io.gpufleet.bench.EventCostAB RUNS TREE_A TREE_B SMALL.yaml LARGE.yaml [WARMUP]</pre>
 *
 * {@code TREE_A} and {@code TREE_B} are checkouts built with {@code mvn -pl bench -am package} (their
 * {@code bench/target/classes} and {@code bench/target/lib}). Prints, per build, the medians of CPU per
 * event, per poll and (all CPU, the polls' included) per fleet event for each size, their large-over-small
 * ratios, the median of the per-round ratios, where a round is one run of each size by each build, and the
 * ratio of each size's fastest round (another process or a collection only ever adds CPU to a run, so the
 * fastest is the least disturbed: Chen and Revels, "Robust benchmarking in noisy environments", 2016);
 * then each round's ratio, so that a JVM's spread shows.
 *
 * <p>{@code WARMUP} rounds (default {@value EventCost#WARMUP}) come first, unmeasured. The small batch day run again
 * and again in a JVM of its own cost 159, 81, 58 and 56 µs per fleet event in its first four runs and 36 to
 * 39 in the next four; the large day 152, 90, 69 and 63, then 54 to 86. Each build's code is compiled
 * apart, so each needs about four runs of each size before its figures settle, and in those first runs the
 * small day's cost falls further than the large day's: too short a warm-up lowers the ratio.
 */
public final class EventCostAB {
  private EventCostAB() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 5 && args.length != 6) {
      throw new IllegalArgumentException("usage: EventCostAB RUNS TREE_A TREE_B SMALL.yaml LARGE.yaml [WARMUP]");
    }
    int runs = Integer.parseInt(args[0]);
    int warmup = args.length == 6 ? Integer.parseInt(args[5]) : EventCost.WARMUP;
    Build a = Build.of("A", Path.of(args[1]));
    Build b = Build.of("B", Path.of(args[2]));
    Path small = Path.of(args[3]);
    Path large = Path.of(args[4]);
    Object[] scenariosA = {a.read(small), a.read(large)};
    Object[] scenariosB = {b.read(small), b.read(large)};
    for (int w = 0; w < warmup; w++) { // both sizes, both builds
      for (int size = 0; size < 2; size++) {
        a.run(scenariosA[size]);
        b.run(scenariosB[size]);
      }
    }
    List<double[]> rowsA = new ArrayList<>();
    List<double[]> rowsB = new ArrayList<>();
    for (int r = 0; r < runs; r++) {
      double[][] ra = new double[2][];
      double[][] rb = new double[2][];
      for (int size = 0; size < 2; size++) {
        if (r % 2 == 0) {
          ra[size] = a.run(scenariosA[size]);
          rb[size] = b.run(scenariosB[size]);
        } else {
          rb[size] = b.run(scenariosB[size]);
          ra[size] = a.run(scenariosA[size]);
        }
      }
      rowsA.add(concat(ra[0], ra[1]));
      rowsB.add(concat(rb[0], rb[1]));
    }
    System.out.printf(Locale.ROOT, "%-5s %22s %22s %22s %13s %13s %13s%n", "build", "cpu us/event s / l",
        "cpu us/poll s / l", "all cpu/fleet ev s / l", "ratio (med)", "ratio (pairs)", "ratio (min)");
    print(a, rowsA);
    print(b, rowsB);
    rounds(a, rowsA);
    rounds(b, rowsB);
    System.out.printf(Locale.ROOT, "%d rounds after %d of warm-up, builds alternating; load average %.1f%n", runs,
        warmup, ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }

  private static void print(Build build, List<double[]> rows) {
    double[] m = new double[6];
    for (int i = 0; i < 6; i++) {
      int k = i;
      m[i] = median(rows.stream().mapToDouble(row -> row[k]).toArray());
    }
    double pairs = median(rows.stream().mapToDouble(row -> row[5] / row[2]).toArray());
    double fastest = rows.stream().mapToDouble(row -> row[5]).min().orElseThrow()
        / rows.stream().mapToDouble(row -> row[2]).min().orElseThrow();
    System.out.printf(Locale.ROOT, "%-5s %10.1f / %9.1f %10.1f / %9.1f %10.1f / %9.1f %12.2fx %12.2fx %12.2fx  %s%n",
        build.name, m[0], m[3], m[1], m[4], m[2], m[5], m[5] / m[2], pairs, fastest, build.tree);
  }

  /** Each round's ratio of all CPU per fleet event, large over small, in the order run. */
  private static void rounds(Build build, List<double[]> rows) {
    StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%-5s rounds:", build.name));
    for (double[] row : rows) {
      out.append(String.format(Locale.ROOT, " %.2f", row[5] / row[2]));
    }
    System.out.println(out);
  }

  private static double[] concat(double[] x, double[] y) {
    double[] out = Arrays.copyOf(x, x.length + y.length);
    System.arraycopy(y, 0, out, x.length, y.length);
    return out;
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  /** One build's {@link EventCost}, reached by reflection in its own class loader. */
  private record Build(String name, Path tree, Method read, Method run, ThreadMXBean threads) {
    static Build of(String name, Path tree) throws Exception {
      List<URL> urls = new ArrayList<>();
      urls.add(tree.resolve("bench/target/classes").toUri().toURL());
      try (Stream<Path> jars = Files.list(tree.resolve("bench/target/lib"))) {
        for (Path p : jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList()) {
          urls.add(p.toUri().toURL());
        }
      }
      ClassLoader loader = new URLClassLoader("gpufleet-" + name, urls.toArray(URL[]::new),
          ClassLoader.getPlatformClassLoader());
      Class<?> cost = Class.forName("io.gpufleet.bench.EventCost", true, loader);
      Method read = cost.getDeclaredMethod("read", Path.class);
      Method run = Arrays.stream(cost.getDeclaredMethods()).filter(m -> m.getName().equals("run")).findFirst()
          .orElseThrow();
      read.setAccessible(true);
      run.setAccessible(true);
      return new Build(name, tree, read, run, (ThreadMXBean) ManagementFactory.getThreadMXBean());
    }

    Object read(Path scenario) throws Exception {
      return read.invoke(null, scenario);
    }

    /** One run: cpu per event, cpu per poll, all cpu per fleet event. */
    double[] run(Object scenario) throws Exception {
      Object r = run.invoke(null, scenario, threads, false);
      return new double[] {value(r, "cpuMicrosPerEvent"), value(r, "cpuMicrosPerPoll"),
          value(r, "allCpuMicrosPerFleetEvent")};
    }

    private static double value(Object record, String accessor) throws Exception {
      Method m = record.getClass().getDeclaredMethod(accessor);
      m.setAccessible(true);
      return (double) m.invoke(record);
    }
  }
}
