package io.gpufleet.queue.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.workload.JobSet;
import io.gpufleet.model.workload.PodTemplate;
import io.gpufleet.model.workload.Workload;
import io.gpufleet.queue.api.PodSet;
import io.gpufleet.queue.jobset.JobSetWorkload;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Kueue's JobSet integration, translated from {@code pkg/controller/jobs/jobset/jobset_controller_test.go}:
 * a JobSet's pod sets (TestPodSets; the pod-set counts of TestReconciler's Workload) and when it is
 * PodsReady (TestPodsReady). Upstream's JobSet: {@code testingjobset.MakeJobSet("jobset", "ns")}, each
 * replicated job's pod template {@code TestPodSpec} (container {@code test-container}, image
 * {@code busybox:latest}, no requests, restartPolicy Never). TestPodSets' two entries with a topology
 * annotation are not translated: upstream's request also carries the pod-index and sub-group labels and
 * count, which the twin's TopologyRequest does not hold.
 */
final class JobSetCases {

  private static final String AREA = "JobSets";
  private static final String CONTROLLER = "pkg/controller/jobs/jobset/jobset_controller_test.go";

  private JobSetCases() {}

  static List<UpstreamCase> all() {
    List<UpstreamCase> out = new ArrayList<>();
    podSets(out);
    podsReady(out);
    return out;
  }

  /** {@code testingjobset.TestPodSpec}. */
  private static final PodSpec POD_SPEC = PodSpec.of(Container.of("test-container", "busybox:latest",
      ResourceList.EMPTY, ResourceList.EMPTY));

  /** A {@code ReplicatedJobRequirements} entry. */
  private static JobSet.ReplicatedJob replicated(String name, int replicas, int parallelism, int completions) {
    Workload.Job job = new Workload.Job(new ObjectMeta("jobset", "ns", Labels.EMPTY, Labels.EMPTY, Optional.empty()),
        parallelism, completions, LabelSelector.matching(Labels.EMPTY), new PodTemplate(Labels.EMPTY, Labels.EMPTY,
        POD_SPEC), Optional.empty());
    return new JobSet.ReplicatedJob(name, replicas, job);
  }

  private static JobSet jobSet(JobSet.ReplicatedJob... jobs) {
    return new JobSet(new ObjectMeta("jobset", "ns", Labels.EMPTY, Labels.EMPTY, Optional.empty()), List.of(jobs),
        true);
  }

  private static void podSets(List<UpstreamCase> out) {
    out.add(UpstreamCase.of(AREA, CONTROLLER, "TestPodSets: no annotations", () -> assertThat(JobSetWorkload.podSets(
        jobSet(replicated("job1", 2, 1, 1), replicated("job2", 3, 2, 3)))).containsExactly(
        new PodSet("job1", 2, ResourceList.EMPTY, POD_SPEC), new PodSet("job2", 6, ResourceList.EMPTY, POD_SPEC))));
    // TestReconciler compares the Workload's pod sets by name and count (its cmp options ignore Template).
    out.add(UpstreamCase.of(AREA, CONTROLLER, "TestReconciler: workload is created with podsets and a ProvReq "
        + "annotation", () -> assertThat(JobSetWorkload.podSets(jobSet(replicated("replicated-job-1", 1, 1, 1),
        replicated("replicated-job-2", 2, 2, 2)))).extracting(ps -> ps.name() + "=" + ps.count())
        .containsExactly("replicated-job-1=1", "replicated-job-2=4")));
  }

  private static void podsReady(List<UpstreamCase> out) {
    JobSet js = jobSet(replicated("replicated-job-1", 2, 1, 1), replicated("replicated-job-2", 3, 1, 1));
    out.add(UpstreamCase.of(AREA, CONTROLLER, "TestPodsReady: all jobs are ready", () -> assertThat(
        JobSetWorkload.podsReady(js, List.of(new JobSetWorkload.ReplicatedJobStatus("replicated-job-1", 1, 1),
            new JobSetWorkload.ReplicatedJobStatus("replicated-job-2", 3, 0)))).isTrue()));
    out.add(UpstreamCase.of(AREA, CONTROLLER, "TestPodsReady: not all jobs are ready", () -> assertThat(
        JobSetWorkload.podsReady(js, List.of(new JobSetWorkload.ReplicatedJobStatus("replicated-job-1", 1, 0),
            new JobSetWorkload.ReplicatedJobStatus("replicated-job-2", 1, 2)))).isFalse()));
  }
}
