package io.gpufleet.model.workload;

import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.meta.OwnerReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A JobSet ({@code jobset.x-k8s.io/v1alpha2}): Jobs made from each replicated job's template, that
 * complete together ({@code successPolicy} operator All, the webhook's default). {@code template} of a
 * replicated job is its JobTemplateSpec decoded as a Job named after the JobSet.
 */
public record JobSet(ObjectMeta meta, List<ReplicatedJob> replicatedJobs, boolean suspend) {

  // Labels and annotations of child Jobs and their pods: api/jobset/v1alpha2/jobset_types.go and
  // pkg/controllers/constants (RestartsKey), kubernetes-sigs/jobset.
  public static final String KIND = "JobSet";
  public static final String JOBSET_NAME = "jobset.sigs.k8s.io/jobset-name";
  public static final String REPLICATED_JOB_NAME = "jobset.sigs.k8s.io/replicatedjob-name";
  public static final String REPLICATED_JOB_REPLICAS = "jobset.sigs.k8s.io/replicatedjob-replicas";
  public static final String GLOBAL_REPLICAS = "jobset.sigs.k8s.io/global-replicas";
  public static final String JOB_INDEX = "jobset.sigs.k8s.io/job-index";
  public static final String JOB_GLOBAL_INDEX = "jobset.sigs.k8s.io/job-global-index";
  public static final String RESTART_ATTEMPT = "jobset.sigs.k8s.io/restart-attempt";

  public JobSet {
    replicatedJobs = List.copyOf(replicatedJobs);
  }

  /** One entry of {@code spec.replicatedJobs}: {@code replicas} Jobs of {@code template}. */
  public record ReplicatedJob(String name, int replicas, Workload.Job template) {}

  public String name() {
    return meta.name();
  }

  /**
   * The child Jobs the JobSet controller creates ({@code constructJobsFromTemplate}, {@code constructJob},
   * {@code labelAndAnnotateObject} of pkg/controllers/jobset_controller.go): named
   * {@code <jobset>-<replicatedJob>-<index>} ({@code placement.GenJobName}), in the JobSet's namespace,
   * the Job and its pod template labelled and annotated with the JobSet's keys (no restarts yet, so
   * restart-attempt 0), owned by the JobSet. A Job that wrote no selector selects its own pods by these labels, as the Job
   * controller's generated selector selects only its own.
   */
  public List<Workload.Job> childJobs() {
    int global = replicatedJobs.stream().mapToInt(ReplicatedJob::replicas).sum();
    List<Workload.Job> out = new ArrayList<>();
    int globalIndex = 0;
    for (ReplicatedJob r : replicatedJobs) {
      for (int i = 0; i < r.replicas(); i++) {
        Labels keys = Labels.of(JOBSET_NAME, name(), REPLICATED_JOB_NAME, r.name(), RESTART_ATTEMPT, "0",
            REPLICATED_JOB_REPLICAS, Integer.toString(r.replicas()), GLOBAL_REPLICAS, Integer.toString(global),
            JOB_INDEX, Integer.toString(i), JOB_GLOBAL_INDEX, Integer.toString(globalIndex++));
        Workload.Job t = r.template();
        ObjectMeta m = new ObjectMeta(name() + "-" + r.name() + "-" + i, meta.namespace(),
            t.meta().labels().withAll(keys), t.meta().annotations().withAll(keys),
            Optional.of(new OwnerReference(KIND, name())));
        PodTemplate pt = t.template();
        PodTemplate pods = new PodTemplate(pt.labels().withAll(keys), pt.annotations().withAll(keys), pt.spec(),
            pt.stored());
        LabelSelector selector = t.selector().equals(LabelSelector.matching(pt.labels()))
            ? LabelSelector.matching(pods.labels()) : t.selector();
        out.add(new Workload.Job(m, t.parallelism(), t.completions(), selector, pods, t.runFor()));
      }
    }
    return out;
  }
}
