package io.gpufleet.bench;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.ScheduleResult;
import io.gpufleet.engine.scheduler.Scheduler;
import io.gpufleet.engine.scheduler.SchedulerProfile;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Issue target: at least 1,000 pods/s on one core, placing pods with cpu, memory and
 * {@code nvidia.com/gpu} requests onto 5,000 GPU nodes while scoring every node
 * ({@code percentageOfNodesToScore: 100}). Each invocation places 1,000 pods on a fresh image; JMH
 * samples its time, and the median is what docs/benchmarks.md quotes.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-XX:ActiveProcessorCount=1"})
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
public class SchedulerBench {

  static final int NODES = 5_000;
  static final int PODS = 1_000;

  private ClusterSnapshot empty;
  private List<PodInfo> pods;
  private Scheduler scheduler;

  @Setup(Level.Trial)
  public void setUp() {
    empty = ClusterSnapshot.of(nodes(false));
    pods = pods(i -> new Pod(ObjectMeta.named("pod-" + i), PodSpec.of()));
    scheduler = new Scheduler(SchedulerProfile.defaults().withPreemption().withPercentageOfNodesToScore(100));
  }

  /** The 5,000 GPU nodes in three zones; {@code hostnames} adds each node's kubernetes.io/hostname label. */
  static List<Node> nodes(boolean hostnames) {
    List<Node> nodes = new ArrayList<>(NODES);
    Taint gpuTaint = Taint.of("nvidia.com/gpu", "true", TaintEffect.NO_SCHEDULE);
    String[] products = {"NVIDIA-A10G", "NVIDIA-L4", "NVIDIA-L40S", "NVIDIA-H100-80GB-HBM3"};
    for (int i = 0; i < NODES; i++) {
      int gpus = (i % 3 == 0) ? 8 : (i % 3 == 1 ? 4 : 1);
      String name = String.format("node-%05d", i);
      Labels labels = Labels.of("nvidia.com/gpu.product", products[i % products.length], "topology.kubernetes.io/zone",
          "zone-" + (i % 3));
      nodes.add(Node.of(name, hostnames ? labels.with("kubernetes.io/hostname", name) : labels,
          List.of(gpuTaint),
          ResourceList.of("cpu", Integer.toString(8 * gpus), "memory", (32 * gpus) + "Gi", "pods", "110",
              "nvidia.com/gpu", Integer.toString(gpus))));
    }
    return nodes;
  }

  /** 1,000 GPU pods of seeded random size; {@code shell} gives pod {@code i} its metadata. */
  static List<PodInfo> pods(IntFunction<Pod> shell) {
    SplittableRandom r = new SplittableRandom(42);
    List<PodInfo> pods = new ArrayList<>(PODS);
    for (int i = 0; i < PODS; i++) {
      ResourceList req = ResourceList.of("cpu", (500 + r.nextInt(3500)) + "m", "memory", (1 + r.nextInt(15)) + "Gi");
      ResourceList lim = ResourceList.of("nvidia.com/gpu", Integer.toString(1 + r.nextInt(2)));
      PodSpec spec = PodSpec.of(Container.of("main", "vllm", req, lim))
          .withTolerations(List.of(Toleration.exists("nvidia.com/gpu", TaintEffect.NO_SCHEDULE)));
      pods.add(PodInfo.of(shell.apply(i).withSpec(spec)));
    }
    return pods;
  }

  /** Time to place 1,000 pods: the median in milliseconds gives pods/s as 1,000,000 / median. */
  @Benchmark
  public ClusterSnapshot placeThousandPodsOnFiveThousandNodes() {
    return place(empty, pods, scheduler);
  }

  static ClusterSnapshot place(ClusterSnapshot empty, List<PodInfo> pods, Scheduler scheduler) {
    ClusterSnapshot s = empty;
    SplittableRandom random = new SplittableRandom(7);
    int start = 0;
    for (PodInfo p : pods) {
      ScheduleResult r = scheduler.schedule(p, s, random, start, false);
      start = (start + r.evaluatedNodes()) % s.size();
      if (r instanceof ScheduleResult.Scheduled sc) {
        s = s.bind(p, sc.node());
      }
    }
    return s;
  }
}
