package io.gpufleet.model.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.pod.PodSpec;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The JobSet controller's child Jobs, from kubernetes-sigs/jobset pkg/controllers/jobset_controller_test.go
 * {@code TestConstructJobsFromTemplate} (a JobSet "test-jobset" in "default", no Jobs owned yet).
 */
class JobSetTest {

  static Workload.Job template(Labels podLabels) {
    PodTemplate pods = new PodTemplate(podLabels, Labels.EMPTY, PodSpec.of());
    return new Workload.Job(ObjectMeta.named("test-jobset-x"), 1, 1, LabelSelector.matching(podLabels), pods,
        Optional.empty());
  }

  static JobSet jobSet(JobSet.ReplicatedJob... rjobs) {
    return new JobSet(ObjectMeta.named("test-jobset"), List.of(rjobs), false);
  }

  /** {@code makeJob}'s labels: the JobSet's keys with no restarts yet. */
  static Map<String, String> keys(String rjob, int replicas, int index) {
    return Map.of(JobSet.JOBSET_NAME, "test-jobset", JobSet.REPLICATED_JOB_NAME, rjob,
        JobSet.REPLICATED_JOB_REPLICAS, Integer.toString(replicas), JobSet.JOB_INDEX, Integer.toString(index),
        JobSet.RESTART_ATTEMPT, "0");
  }

  @Test
  void allJobsCreated() {
    // "all jobs created": one replicated job of 2 replicas.
    List<Workload.Job> jobs = jobSet(new JobSet.ReplicatedJob("replicated-job", 2, template(Labels.EMPTY)))
        .childJobs();
    assertThat(jobs).extracting(Workload::name)
        .containsExactly("test-jobset-replicated-job-0", "test-jobset-replicated-job-1");
    for (int i = 0; i < 2; i++) {
      Workload.Job j = jobs.get(i);
      assertThat(j.meta().namespace()).isEqualTo("default");
      // labelAndAnnotateObject labels and annotates both the Job and its pod template.
      assertThat(j.meta().labels().map()).containsAllEntriesOf(keys("replicated-job", 2, i));
      assertThat(j.meta().annotations().map()).containsAllEntriesOf(keys("replicated-job", 2, i));
      assertThat(j.template().labels().map()).containsAllEntriesOf(keys("replicated-job", 2, i));
      assertThat(j.template().annotations().map()).containsAllEntriesOf(keys("replicated-job", 2, i));
    }
    // Each Job selects its own pods only, not its sibling's.
    assertThat(jobs.get(0).selector().matches(jobs.get(1).template().labels())).isFalse();
    assertThat(jobs.get(0).selector().matches(jobs.get(0).template().labels())).isTrue();
  }

  @Test
  void multipleReplicatedJobs() {
    // "multiple replicated jobs": A of 1 replica and B of 2. Upstream's case already owns B-0 and
    // expects A-0 and B-1; the twin makes a JobSet's Jobs once, all together, so here all three.
    List<Workload.Job> jobs = jobSet(
        new JobSet.ReplicatedJob("replicated-job-A", 1, template(Labels.of("app", "a"))),
        new JobSet.ReplicatedJob("replicated-job-B", 2, template(Labels.EMPTY))).childJobs();
    assertThat(jobs).extracting(Workload::name).containsExactly("test-jobset-replicated-job-A-0",
        "test-jobset-replicated-job-B-0", "test-jobset-replicated-job-B-1");
    assertThat(jobs.get(2).meta().labels().map()).containsAllEntriesOf(keys("replicated-job-B", 2, 1))
        .containsEntry(JobSet.GLOBAL_REPLICAS, "3").containsEntry(JobSet.JOB_GLOBAL_INDEX, "2");
    // The template's own labels are kept (constructJob clones rjob.Template.Labels first).
    assertThat(jobs.get(0).template().labels().map()).containsEntry("app", "a");
  }
}
