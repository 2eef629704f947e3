package io.gpufleet.manifest.kueue;

import io.gpufleet.manifest.kube.DuplicateObjects;
import io.gpufleet.manifest.kube.KubeDecoder;
import io.gpufleet.manifest.kube.KubeObject;
import io.gpufleet.manifest.yaml.Cursor;
import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.YNode;
import io.gpufleet.manifest.yaml.YamlReader;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.pod.PodRequests;
import io.gpufleet.model.workload.Workload;
import io.gpufleet.queue.api.ClusterQueue;
import io.gpufleet.queue.api.KueueConfiguration;
import io.gpufleet.queue.api.KueueState;
import io.gpufleet.queue.api.Cohort;
import io.gpufleet.queue.api.LocalQueue;
import io.gpufleet.queue.api.PodSet;
import io.gpufleet.queue.api.ResourceFlavor;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The Kueue objects of a set of manifests, and the Workloads Kueue would create for its Jobs, as a
 * {@link KueueState}. A
 * batch/v1 Job labelled {@code kueue.x-k8s.io/queue-name} becomes a Workload of one pod set
 * {@code main} ({@code pkg/controller/jobs/job/job_controller.go} PodSets): count is parallelism, or
 * completions when set and smaller; each pod's requests as the pod template's effective requests.
 * Its priority is its WorkloadPriorityClass ({@code kueue.x-k8s.io/priority-class}) or the pod's
 * PriorityClass, else 0. Manifests carry no creation time: each Job is taken as created at
 * {@code submittedAt} plus its place in the files in milliseconds, so file order is FIFO order.
 */
public final class KueueManifests {

  /** Kueue's API group: its objects are read here, not skipped as unknown. */
  public static final String GROUP = KueueDecoder.GROUP;
  /** The group of Kueue's manager Configuration: read by {@link #configuration}, not skipped as unknown. */
  public static final String CONFIG_GROUP = KueueDecoder.CONFIG_GROUP;
  /** {@code constants.QueueLabel}. */
  public static final String QUEUE_LABEL = "kueue.x-k8s.io/queue-name";
  /** {@code constants.WorkloadPriorityClassLabel}. */
  public static final String PRIORITY_CLASS_LABEL = "kueue.x-k8s.io/priority-class";
  /** The label the API server puts on every namespace, which namespace selectors commonly use. */
  static final String NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";

  private KueueManifests() {}

  /** Reads YAML text; problems go to the diagnostics (call {@code throwIfErrors} to stop on them). */
  public static KueueState read(String file, String text, Diagnostics diagnostics, Instant submittedAt) {
    List<YNode> docs = new YamlReader().readAll(file, text);
    new DuplicateObjects(diagnostics).check(docs);
    List<KubeObject> objects = new KubeDecoder(diagnostics).decodeAll(docs);
    return of(objects, completionsWritten(docs), diagnostics, submittedAt);
  }

  /**
   * The Jobs ({@code namespace/name}) whose {@code spec.completions} is written: the twin's Job
   * defaults it to 1, but Kueue counts pods from parallelism when it is unset.
   */
  static Set<String> completionsWritten(List<YNode> docs) {
    Set<String> out = new HashSet<>();
    Diagnostics quiet = new Diagnostics();
    List<Cursor> all = new ArrayList<>();
    for (YNode d : docs) {
      Cursor c = Cursor.root(d, quiet);
      all.add(c);
      if (c.isMap() && "List".equals(c.string("kind", ""))) {
        all.addAll(c.list("items"));
      }
    }
    for (Cursor c : all) {
      if (c.isMap() && "Job".equals(c.string("kind", ""))
          && c.get("spec").flatMap(s -> s.get("completions")).isPresent()) {
        String ns = c.get("metadata").map(m -> m.string("namespace", "default")).orElse("default");
        out.add(ns + "/" + c.get("metadata").map(m -> m.string("name", "")).orElse(""));
      }
    }
    return out;
  }

  /** Picks Kueue's objects and queued Jobs out of decoded objects. */
  public static KueueState of(List<KubeObject> objects, Set<String> completionsWritten, Diagnostics diagnostics,
      Instant submittedAt) {
    KueueDecoder decoder = new KueueDecoder(diagnostics);
    List<ResourceFlavor> flavors = new ArrayList<>();
    List<ClusterQueue> cqs = new ArrayList<>();
    List<Cohort> cohorts = new ArrayList<>();
    List<LocalQueue> lqs = new ArrayList<>();
    Map<String, Integer> workloadPriorityClasses = new HashMap<>();
    Map<String, Integer> priorityClasses = new HashMap<>();
    Map<String, Labels> namespaces = new HashMap<>();
    List<KubeObject.WorkloadObject> jobs = new ArrayList<>();
    for (KubeObject o : objects) {
      switch (o) {
        case KubeObject.OtherObject other when other.apiVersion().startsWith(KueueDecoder.GROUP + "/") -> {
          switch (other.kind()) {
            case "ResourceFlavor" -> decoder.resourceFlavor(other.cursor(), other.apiVersion()).ifPresent(flavors::add);
            case "ClusterQueue" -> decoder.clusterQueue(other.cursor(), other.apiVersion()).ifPresent(cqs::add);
            case "Cohort" -> decoder.cohort(other.cursor(), other.apiVersion()).ifPresent(cohorts::add);
            case "LocalQueue" -> decoder.localQueue(other.cursor(), other.apiVersion()).ifPresent(lqs::add);
            case "WorkloadPriorityClass" -> decoder.workloadPriorityClass(other.cursor(), other.apiVersion())
                .ifPresent(e -> workloadPriorityClasses.put(e.getKey(), e.getValue()));
            default -> other.cursor().get("kind").orElse(other.cursor()).warning("kind " + other.kind() + " of "
                + other.apiVersion() + " is not modelled by gpufleet; it is skipped");
          }
        }
        case KubeObject.PriorityClassObject pc -> priorityClasses.put(pc.name(), pc.value());
        case KubeObject.NamespaceObject ns -> namespaces.put(ns.name(), ns.labels());
        case KubeObject.WorkloadObject w when w.workload() instanceof Workload.Job job
            && job.meta().labels().get(QUEUE_LABEL).isPresent() -> jobs.add(w);
        default -> { }
      }
    }
    List<io.gpufleet.queue.api.Workload> workloads = new ArrayList<>();
    for (int i = 0; i < jobs.size(); i++) {
      Workload.Job job = (Workload.Job) jobs.get(i).workload();
      String ns = job.meta().namespace();
      String key = ns + "/" + job.meta().name();
      int count = completionsWritten.contains(key) ? Math.min(job.parallelism(), job.completions()) : job.parallelism();
      PodSet ps = new PodSet(PodSet.MAIN, count, PodRequests.of(job.template().spec()), job.template().spec());
      int priority = job.meta().labels().get(PRIORITY_CLASS_LABEL).map(workloadPriorityClasses::get)
          .or(() -> job.template().spec().priorityClassName().map(priorityClasses::get)).orElse(0);
      Labels nsLabels = namespaces.getOrDefault(ns, Labels.EMPTY).with(NAMESPACE_NAME_LABEL, ns);
      // Kueue names a Job's Workload "job-<name>-<hash>"; the twin keys it by the Job's own name.
      workloads.add(new io.gpufleet.queue.api.Workload(ns, job.meta().name(), job.meta().labels().get(QUEUE_LABEL)
          .orElseThrow(), List.of(ps), priority, submittedAt.plusMillis(i), nsLabels));
    }
    return new KueueState(flavors, cqs, cohorts, lqs, workloads);
  }

  /**
   * Kueue's manager Configuration ({@code config.kueue.x-k8s.io} Configuration, the file Kueue's
   * manager reads, given here as an object of its own): empty when none is given, in which case Kueue
   * runs with its defaults ({@link KueueConfiguration#DEFAULT}). A second one is an error.
   */
  public static Optional<KueueConfiguration> configuration(List<KubeObject> objects, Diagnostics diagnostics) {
    KueueDecoder decoder = new KueueDecoder(diagnostics);
    Optional<KueueConfiguration> out = Optional.empty();
    for (KubeObject o : objects) {
      if (o instanceof KubeObject.OtherObject other && other.apiVersion().startsWith(CONFIG_GROUP + "/")) {
        if (!other.kind().equals("Configuration")) {
          other.cursor().get("kind").orElse(other.cursor()).warning("kind " + other.kind() + " of "
              + other.apiVersion() + " is not modelled by gpufleet; it is skipped");
        } else if (out.isPresent()) {
          other.cursor().error("a second Kueue Configuration: Kueue's manager reads one");
        } else {
          out = decoder.configuration(other.cursor(), other.apiVersion());
        }
      }
    }
    return out;
  }
}
