package io.gpufleet.bench;

import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.Scheduler;
import io.gpufleet.engine.scheduler.SchedulerProfile;
import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.meta.OwnerReference;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
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
 * {@link SchedulerBench} with PodTopologySpread's default system constraints in force: the same
 * 5,000 nodes (with hostname labels) and 1,000 pods, all of one ReplicaSet, so every pod is spread
 * by hostname and zone over every node.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-XX:ActiveProcessorCount=1"})
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
public class SpreadSchedulerBench {

  private ClusterSnapshot empty;
  private List<PodInfo> pods;
  private Scheduler scheduler;

  @Setup(Level.Trial)
  public void setUp() {
    empty = ClusterSnapshot.of(SchedulerBench.nodes(true));
    pods = SchedulerBench.pods(i -> new Pod(new ObjectMeta("web-" + i, ObjectMeta.DEFAULT_NAMESPACE,
        Labels.of("app", "web"), Labels.EMPTY, Optional.of(new OwnerReference("ReplicaSet", "web"))), PodSpec.of()));
    LabelSelector web = LabelSelector.matching(Labels.of("app", "web"));
    scheduler = new Scheduler(SchedulerProfile.defaults().withPreemption().withPercentageOfNodesToScore(100)
        .withSpreadSelectors(p -> Optional.of(web)));
  }

  /** Time to place 1,000 spread pods: pods/s is 1,000,000 / median milliseconds. */
  @Benchmark
  public ClusterSnapshot placeThousandSpreadPodsOnFiveThousandNodes() {
    return SchedulerBench.place(empty, pods, scheduler);
  }
}
