package io.gpufleet.manifest.kube;

import io.gpufleet.manifest.yaml.Cursor;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.workload.JobSet;
import io.gpufleet.model.workload.Workload;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads a {@code jobset.x-k8s.io/v1alpha2} JobSet (kubernetes-sigs/jobset api/jobset/v1alpha2/jobset_types.go,
 * defaults and validation of jobset_webhook.go): {@code spec.replicatedJobs[].{name, replicas, template}},
 * {@code spec.suspend} and {@code spec.successPolicy}. Fields the twin does not model are warnings by name.
 */
public final class JobSetDecoder {

  public static final String GROUP = "jobset.x-k8s.io";
  public static final String API_VERSION = GROUP + "/v1alpha2";

  /** JobSetSpec's fields the twin reads; the rest of the struct's are warned about by name. */
  private static final Set<String> SPEC_READ = Set.of("replicatedJobs", "suspend", "successPolicy");
  private static final Set<String> SPEC_UNMODELLED = Set.of("network", "failurePolicy", "startupPolicy",
      "coordinator", "managedBy", "ttlSecondsAfterFinished", "volumeClaimPolicies");
  private static final Set<String> REPLICATED_JOB_FIELDS = Set.of("name", "groupName", "template", "replicas",
      "dependsOn");
  /** {@code Operator}'s enum ({@code +kubebuilder:validation:Enum=All;Any}). */
  private static final List<String> OPERATORS = List.of("All", "Any");

  private JobSetDecoder() {}

  /** A JobSet of the version the twin reads. */
  public static boolean isJobSet(KubeObject.OtherObject o) {
    return o.kind().equals("JobSet") && o.apiVersion().equals(API_VERSION);
  }

  /** The JobSet and, for each child Job it makes ({@link JobSet#childJobs}), that Job as decoded. */
  public record Decoded(JobSet jobSet, List<KubeObject.WorkloadObject> jobs) {}

  public static Decoded decode(KubeDecoder kube, KubeObject.OtherObject o) {
    Cursor doc = o.cursor();
    ObjectMeta meta = kube.meta(doc, true);
    Cursor spec = doc.require("spec").orElse(doc);
    Set<String> known = new HashSet<>(SPEC_READ);
    known.addAll(SPEC_UNMODELLED);
    spec.checkKnown(known, kube.strict());
    for (String f : spec.keys()) {
      if (SPEC_UNMODELLED.contains(f)) {
        spec.get(f).ifPresent(c -> c.warning("JobSet " + f + " is not modelled; ignored"));
      }
    }
    List<JobSet.ReplicatedJob> rjobs = new ArrayList<>();
    List<KubeObject.PriorityWritten> written = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (Cursor r : spec.list("replicatedJobs")) {
      r.checkKnown(REPLICATED_JOB_FIELDS, kube.strict());
      String name = r.require("name").map(Cursor::asString).orElse("");
      if (!name.isEmpty() && !names.add(name)) {
        r.get("name").ifPresent(c -> c.error("Duplicate value: \"" + name + "\" (replicatedJobs is a map keyed by name)"));
      }
      r.get("groupName").filter(g -> !g.asString().equals("default"))
          .ifPresent(g -> g.warning("ReplicatedJob groupName is not modelled; ignored"));
      r.get("dependsOn").ifPresent(d -> d.warning("ReplicatedJob dependsOn is not modelled; its Jobs start at once"));
      // +kubebuilder:default=1
      int replicas = r.integer("replicas", 1);
      if (replicas < 0) {
        r.get("replicas").ifPresent(c -> c.error("expected a non-negative integer, found " + replicas));
      }
      Cursor t = r.require("template").orElse(r);
      Cursor md = t.get("metadata").orElse(null);
      Labels labels = md == null ? Labels.EMPTY : Labels.of(md.stringMap("labels"));
      Labels annotations = md == null ? Labels.EMPTY : Labels.of(md.stringMap("annotations"));
      ObjectMeta jobMeta = new ObjectMeta(meta.name() + "-" + name, meta.namespace(), labels, annotations, null);
      Workload.Job job = (Workload.Job) kube.workload("Job", t, jobMeta);
      rjobs.add(new JobSet.ReplicatedJob(name, Math.max(0, replicas), job));
      for (int i = 0; i < Math.max(0, replicas); i++) {
        written.add(KubeDecoder.priorityWritten(t.node(), "spec", "template", "spec"));
      }
    }
    spec.get("successPolicy").ifPresent(p -> successPolicy(p, names));
    boolean suspend = spec.get("suspend").map(Cursor::asBoolean).orElse(false);
    JobSet js = new JobSet(meta, rjobs, suspend);
    List<KubeObject.WorkloadObject> jobs = new ArrayList<>();
    List<Workload.Job> children = js.childJobs();
    for (int i = 0; i < children.size(); i++) {
      jobs.add(new KubeObject.WorkloadObject(children.get(i), o.location(), written.get(i)));
    }
    return new Decoded(js, jobs);
  }

  /**
   * The default (operator All of every replicated job, the webhook's {@code Default}) is what the twin
   * models; a bad operator is the CRD's enum error, a target that is no replicated job the webhook's.
   */
  private static void successPolicy(Cursor p, Set<String> names) {
    p.checkKnown(Set.of("operator", "targetReplicatedJobs"), false);
    String op = p.require("operator").map(Cursor::asString).orElse("All");
    if (!OPERATORS.contains(op)) {
      p.get("operator").ifPresent(c -> c.error("Unsupported value: \"" + op + "\": supported values: \"All\", \"Any\""));
      return;
    }
    List<String> targets = p.stringList("targetReplicatedJobs");
    for (String t : targets) {
      if (!names.contains(t)) {
        p.get("targetReplicatedJobs").ifPresent(c -> c.error("invalid replicatedJob name '" + t
            + "' does not appear in .spec.ReplicatedJobs"));
      }
    }
    if (!op.equals("All") || !targets.isEmpty()) {
      p.warning("JobSet successPolicy other than operator All of every replicated job is not modelled; ignored");
    }
  }
}
