package io.gpufleet.queue.jobset;

import io.gpufleet.model.pod.PodRequests;
import io.gpufleet.model.workload.JobSet;
import io.gpufleet.model.workload.Workload;
import io.gpufleet.queue.api.PodSet;
import io.gpufleet.queue.api.TopologyRequest;
import java.util.ArrayList;
import java.util.List;

/** A JobSet's Workload, as Kueue's JobSet integration reads it ({@code pkg/controller/jobs/jobset/jobset_controller.go}). */
public final class JobSetWorkload {

  /** {@code FrameworkName}: the integration's name in the Configuration's {@code integrations.frameworks}. */
  public static final String FRAMEWORK = "jobset.x-k8s.io/jobset";

  private JobSetWorkload() {}

  /**
   * {@code PodSets}: one pod set per replicated job, named after it, of its Job's pod template and
   * {@code replicas × min(parallelism, completions)} pods ({@code podsCount}, {@code podsCountPerReplica}),
   * with the template's topology request, if any.
   */
  public static List<PodSet> podSets(JobSet jobSet) {
    List<PodSet> out = new ArrayList<>();
    for (JobSet.ReplicatedJob r : jobSet.replicatedJobs()) {
      Workload.Job job = r.template();
      var spec = job.template().spec();
      PodSet ps = new PodSet(r.name(), r.replicas() * perReplica(job), PodRequests.of(spec), spec,
          TopologyRequest.fromAnnotations(job.template().annotations().map()).request());
      out.add(ps);
    }
    return out;
  }

  /** {@code podsCountPerReplica}: the Job's parallelism, or its completions when fewer. */
  static int perReplica(Workload.Job job) {
    return Math.min(job.parallelism(), job.completions());
  }

  /** One replicated job's status ({@code ReplicatedJobStatus}): how many of its Jobs are ready, and succeeded. */
  public record ReplicatedJobStatus(String name, int ready, int succeeded) {}

  /**
   * {@code PodsReady}: the Jobs ready or succeeded, over every replicated job, are all its replicas.
   */
  public static boolean podsReady(JobSet jobSet, List<ReplicatedJobStatus> status) {
    int replicas = jobSet.replicatedJobs().stream().mapToInt(JobSet.ReplicatedJob::replicas).sum();
    int ready = status.stream().mapToInt(s -> s.ready() + s.succeeded()).sum();
    return replicas == ready;
  }
}
