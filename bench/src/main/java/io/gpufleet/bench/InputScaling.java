package io.gpufleet.bench;

import com.sun.management.ThreadMXBean;
import io.gpufleet.cluster.Cluster;
import io.gpufleet.cluster.ClusterAssembly;
import io.gpufleet.cluster.ClusterSettings;
import io.gpufleet.lint.LintInput;
import io.gpufleet.lint.Linter;
import io.gpufleet.lint.rules.Rules;
import io.gpufleet.manifest.ManifestReader;
import io.gpufleet.manifest.ManifestSource;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToIntFunction;

/**
 * How the reading of a user's cluster dump grows with it, not a unit test (issue 33, "a user's real
 * cluster"): a {@code kubectl get nodes,pods -A -o yaml}-style dump of GPU nodes with GFD labels
 * and pods with long label sets, at a small and a 4x larger size, written two ways: one file, and
 * one file per object (as {@code -f dir} reads a directory). For each, in this process, alternating
 * small and large {@code runs} times after a warm-up of each, the median CPU time (this thread's) and
 * the bytes allocated of two paths every command takes:
 * <ul>
 *   <li>{@code assemble}: {@link ManifestReader} then {@link ClusterAssembly} (schedule, smi, simulate -f);
 *   <li>{@code lint}: {@link LintInput} and every default rule ({@link Linter}).
 * </ul>
 * A path whose large/small ratio is well over 4 grows faster than its input. Scheduling is left out:
 * kube-scheduler's per-pod work over its feasible nodes grows with nodes x pods by design.
 *
 * <pre>scripts/input-scaling [runs] [small-nodes large-nodes]   (builds, runs this; 3, 300 1200 by default)</pre>
 */
public final class InputScaling {
  private InputScaling() {}

  record Figures(double cpuMillis, double allocatedMb, int answer) {}

  public static void main(String[] args) {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    int small = args.length > 2 ? Integer.parseInt(args[1]) : 300;
    int large = args.length > 2 ? Integer.parseInt(args[2]) : 1200;
    ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    System.out.printf(Locale.ROOT, "%-8s %-6s %-9s %7s %7s %9s %11s %10s%n", "layout", "path", "size", "nodes", "pods",
        "input MB", "cpu ms", "alloc MB");
    List<String> ratios = new ArrayList<>();
    for (boolean perObject : new boolean[] {false, true}) {
      String layout = perObject ? "per-file" : "one-file";
      List<ManifestSource> s = dump(small, small * 3 / 2, perObject);
      List<ManifestSource> l = dump(large, large * 3 / 2, perObject);
      for (String path : List.of("assemble", "lint")) {
        ToIntFunction<List<ManifestSource>> work = path.equals("assemble") ? InputScaling::assemble : InputScaling::lint;
        measure(work, s, threads);
        measure(work, l, threads);
        List<Figures> fs = new ArrayList<>();
        List<Figures> fl = new ArrayList<>();
        for (int r = 0; r < runs; r++) {
          fs.add(measure(work, s, threads));
          fl.add(measure(work, l, threads));
        }
        double[] ms = print(layout, path, "small", small, s, fs);
        double[] ml = print(layout, path, "large", large, l, fl);
        ratios.add(String.format(Locale.ROOT, "%-8s %-8s large/small (%.1fx input): cpu %.2fx, allocated %.2fx",
            layout, path, megabytes(l) / megabytes(s), ml[0] / ms[0], ml[1] / ms[1]));
      }
    }
    ratios.forEach(System.out::println);
    System.out.printf(Locale.ROOT, "medians of %d runs each, alternating small and large; load average %.1f%n", runs,
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }

  /** The nodes every command schedules on: read, admitted, registered by the device plugin. */
  private static int assemble(List<ManifestSource> sources) {
    Cluster c = ClusterAssembly.assemble(new ManifestReader().read(sources), ClusterSettings.defaults());
    return c.nodes().size() + c.warnings().size();
  }

  /** What {@code gpufleet lint} finds. */
  private static int lint(List<ManifestSource> sources) {
    return Linter.run(LintInput.read(sources), Rules.all()).findings().size();
  }

  private static Figures measure(ToIntFunction<List<ManifestSource>> work, List<ManifestSource> in,
      ThreadMXBean threads) {
    long id = Thread.currentThread().threadId();
    long cpu0 = threads.getCurrentThreadCpuTime();
    long alloc0 = threads.getThreadAllocatedBytes(id);
    int answer = work.applyAsInt(in);
    return new Figures((threads.getCurrentThreadCpuTime() - cpu0) / 1e6,
        (threads.getThreadAllocatedBytes(id) - alloc0) / 1e6, answer);
  }

  private static double[] print(String layout, String path, String size, int nodes, List<ManifestSource> in,
      List<Figures> fs) {
    double cpu = median(fs.stream().mapToDouble(Figures::cpuMillis).toArray());
    double alloc = median(fs.stream().mapToDouble(Figures::allocatedMb).toArray());
    System.out.printf(Locale.ROOT, "%-8s %-6s %-9s %7d %7d %9.1f %11.0f %10.0f%n", layout, path, size, nodes,
        nodes * 3 / 2, megabytes(in), cpu, alloc);
    return new double[] {cpu, alloc};
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  private static double megabytes(List<ManifestSource> in) {
    return in.stream().mapToLong(s -> s.text().length()).sum() / 1e6;
  }

  /**
   * {@code nodes} GPU nodes (1, 4 or 8 GPUs of four products, GFD's labels, tainted, each reporting
   * GPUs the plugin's defaults would advertise otherwise: a warning per node) and {@code pods} GPU
   * pods of a few Deployments, 4 in 5 bound, each with 32 labels; one source, or one per object.
   */
  static List<ManifestSource> dump(int nodes, int pods, boolean perObject) {
    String[] products = {"NVIDIA-A10G", "NVIDIA-L4", "NVIDIA-L40S", "NVIDIA-H100-80GB-HBM3"};
    List<String> objects = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      int gpus = i % 3 == 0 ? 8 : i % 3 == 1 ? 4 : 1;
      String name = String.format(Locale.ROOT, "ip-10-0-%d-%d.ec2.internal", i / 256, i % 256);
      names.add(name);
      objects.add("""
          apiVersion: v1
          kind: Node
          metadata:
            name: %1$s
            labels:
              kubernetes.io/hostname: %1$s
              kubernetes.io/os: linux
              node.kubernetes.io/instance-type: custom
              topology.kubernetes.io/zone: zone-%2$d
              nvidia.com/gpu.present: "true"
              nvidia.com/gpu.product: %3$s
              nvidia.com/gpu.memory: "23034"
              nvidia.com/gpu.family: ampere
              nvidia.com/gpu.compute.major: "8"
              nvidia.com/cuda.driver.major: "550"
              nvidia.com/mig.capable: "false"
          spec:
            taints: [{key: nvidia.com/gpu, value: "true", effect: NoSchedule}]
          status:
            capacity: {cpu: "%4$d", memory: %5$dGi, pods: "110", nvidia.com/gpu: "%6$d"}
            allocatable: {cpu: "%4$d", memory: %5$dGi, pods: "110", nvidia.com/gpu: "%6$d"}
            conditions:
            - {type: Ready, status: "True", reason: KubeletReady, message: kubelet is posting ready status}
            addresses:
            - {type: InternalIP, address: 10.0.%7$d.%8$d}
          """.formatted(name, i % 3, products[i % 4], 8 * gpus, 32 * gpus, gpus, i / 256, i % 256));
    }
    long seed = 12345;
    for (int i = 0; i < pods; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648L;
      long r = seed / 65536 % 16;
      int gpus = r < 8 ? 1 : r < 12 ? 2 : r < 15 ? 4 : 8;
      StringBuilder labels = new StringBuilder();
      for (int k = 0; k < 30; k++) {
        labels.append(String.format(Locale.ROOT, "    example.com/label-%02d: value-%d-%d%n", k, k, i % 17));
      }
      objects.add("""
          apiVersion: v1
          kind: Pod
          metadata:
            name: svc-%1$d-%2$05d
            namespace: team-%3$d
            labels:
              app.kubernetes.io/name: svc-%1$d
              pod-template-hash: h%1$d
          %4$s\
          spec:
          %5$s\
            tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
            containers:
            - name: main
              image: registry.example/app:1
              resources: {requests: {cpu: "%6$d", memory: %7$dGi}, limits: {nvidia.com/gpu: %8$d}}
          """.formatted(i % 50, i, i % 10, labels, i % 5 == 0 ? "" : "  nodeName: " + names.get(i % nodes) + "\n",
          2 * gpus, 8 * gpus, gpus));
    }
    if (!perObject) {
      return List.of(new ManifestSource("dump.yaml", "---\n" + String.join("---\n", objects)));
    }
    List<ManifestSource> out = new ArrayList<>();
    for (int i = 0; i < objects.size(); i++) {
      out.add(new ManifestSource(String.format(Locale.ROOT, "dump/%05d.yaml", i), objects.get(i)));
    }
    return out;
  }
}
