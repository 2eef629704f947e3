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
import io.gpufleet.queue.api.Topology;
import io.gpufleet.queue.api.TopologyRequest;
import io.gpufleet.queue.pods.PodGroup;
import io.gpufleet.queue.pods.PodGroupWebhook;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.validation.FieldError;
import io.gpufleet.manifest.yaml.Location;
import java.util.Optional;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The Kueue objects of a set of manifests, Kueue's manager Configuration if one is among them (its
 * {@code fairSharing}), and the Workloads Kueue would create for its Jobs, as a {@link KueueState}. A
 * batch/v1 Job labelled {@code kueue.x-k8s.io/queue-name} becomes a Workload of one pod set
 * {@code main} ({@code pkg/controller/jobs/job/job_controller.go} PodSets): count is parallelism, or
 * completions when set and smaller; each pod's requests as the pod template's effective requests.
 * Its priority is its WorkloadPriorityClass ({@code kueue.x-k8s.io/priority-class}) or the pod's
 * PriorityClass, else 0. With "pod" in the Configuration's {@code integrations.frameworks}, plain
 * pods labelled with a queue are read as Kueue's pod integration reads them ({@code podWorkloads}).
 * Manifests carry no creation time: each Job is taken as created at
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

  /** Whether an object of this apiVersion is Kueue's, read here. */
  public static boolean isKueue(String apiVersion) {
    return apiVersion.startsWith(GROUP + "/") || apiVersion.startsWith(CONFIG_GROUP + "/");
  }

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
    List<Topology> topologies = new ArrayList<>();
    Map<String, Integer> workloadPriorityClasses = new HashMap<>();
    Map<String, Integer> priorityClasses = new HashMap<>();
    Map<String, Labels> namespaces = new HashMap<>();
    List<KubeObject.WorkloadObject> jobs = new ArrayList<>();
    List<KubeObject.PodObject> pods = new ArrayList<>();
    KueueConfiguration configuration = KueueConfiguration.DEFAULT;
    boolean configured = false;
    for (KubeObject o : objects) {
      switch (o) {
        case KubeObject.OtherObject other when other.apiVersion().startsWith(KueueDecoder.CONFIG_GROUP + "/") -> {
          if (!other.kind().equals("Configuration")) {
            other.cursor().get("kind").orElse(other.cursor()).warning("kind " + other.kind() + " of "
                + other.apiVersion() + " is not modelled by gpufleet; it is skipped");
          } else if (configured) {
            other.cursor().error("a second Kueue Configuration: Kueue's manager reads one");
          } else {
            configured = true;
            configuration = decoder.configuration(other.cursor(), other.apiVersion()).orElse(configuration);
          }
        }
        case KubeObject.OtherObject other when other.apiVersion().startsWith(KueueDecoder.GROUP + "/") -> {
          switch (other.kind()) {
            case "ResourceFlavor" -> decoder.resourceFlavor(other.cursor(), other.apiVersion()).ifPresent(flavors::add);
            case "ClusterQueue" -> decoder.clusterQueue(other.cursor(), other.apiVersion()).ifPresent(cqs::add);
            case "Cohort" -> decoder.cohort(other.cursor(), other.apiVersion()).ifPresent(cohorts::add);
            case "LocalQueue" -> decoder.localQueue(other.cursor(), other.apiVersion()).ifPresent(lqs::add);
            case "Topology" -> decoder.topology(other.cursor(), other.apiVersion()).ifPresent(topologies::add);
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
        case KubeObject.PodObject p when p.pod().meta().labels().get(QUEUE_LABEL).isPresent()
            && p.pod().meta().owner().isEmpty() -> pods.add(p);
        default -> { }
      }
    }
    if (!configuration.manages(KueueConfiguration.JOB_FRAMEWORK)) {
      for (KubeObject.WorkloadObject j : jobs) {
        diagnostics.warning(j.location(), "metadata.labels." + QUEUE_LABEL, notManaged("Job", KueueConfiguration.JOB_FRAMEWORK));
      }
      jobs.clear();
    }
    List<io.gpufleet.queue.api.Workload> workloads = new ArrayList<>();
    for (int i = 0; i < jobs.size(); i++) {
      Workload.Job job = (Workload.Job) jobs.get(i).workload();
      String ns = job.meta().namespace();
      String key = ns + "/" + job.meta().name();
      int count = completionsWritten.contains(key) ? Math.min(job.parallelism(), job.completions()) : job.parallelism();
      PodSet ps = new PodSet(PodSet.MAIN, count, PodRequests.of(job.template().spec()), job.template().spec(),
          topologyRequest(job, jobs.get(i).location(), diagnostics));
      int priority = job.meta().labels().get(PRIORITY_CLASS_LABEL).map(workloadPriorityClasses::get)
          .or(() -> job.template().spec().priorityClassName().map(priorityClasses::get)).orElse(0);
      Labels nsLabels = namespaces.getOrDefault(ns, Labels.EMPTY).with(NAMESPACE_NAME_LABEL, ns);
      // Kueue names a Job's Workload "job-<name>-<hash>"; the twin keys it by the Job's own name.
      workloads.add(new io.gpufleet.queue.api.Workload(ns, job.meta().name(), job.meta().labels().get(QUEUE_LABEL)
          .orElseThrow(), List.of(ps), priority, submittedAt.plusMillis(i), nsLabels));
    }
    // Without a Configuration among these objects Kueue runs batch/job alone, or, in a scenario's
    // step, the one applied before: pods are then left to the simulator, unwarned.
    if (configuration.manages(KueueConfiguration.POD_FRAMEWORK)) {
      podWorkloads(pods, workloadPriorityClasses, priorityClasses, namespaces, diagnostics, submittedAt.plusMillis(jobs.size()),
          workloads);
    } else if (configured) {
      for (KubeObject.PodObject p : pods) {
        diagnostics.warning(p.location(), "metadata.labels." + QUEUE_LABEL, notManaged("Pod", KueueConfiguration.POD_FRAMEWORK));
      }
    }
    return new KueueState(flavors, cqs, cohorts, lqs, workloads, configuration, topologies, workloadPriorityClasses);
  }

  private static String notManaged(String kind, String framework) {
    return "names a LocalQueue, but Kueue's Configuration does not enable the \"" + framework + "\" integration "
        + "(integrations.frameworks): Kueue does not manage this " + kind;
  }

  /**
   * The Workloads of Kueue's pod integration ({@link PodGroup}): each pod its webhook lets through
   * ({@link PodGroupWebhook}; a refused one is an error at its line, in Kueue's words), alone or with
   * its group, keyed by the pod's name or the group's (upstream names a single pod's Workload
   * {@code pod-<name>-<hash>}); a group whose Workload Kueue would not make yet (too few pods, mismatched
   * queue or count) is a warning at its first pod. Priority and namespace labels as a Job's; created
   * in file order of their first pod, from {@code firstCreated} on.
   */
  private static void podWorkloads(List<KubeObject.PodObject> pods, Map<String, Integer> workloadPriorityClasses,
      Map<String, Integer> priorityClasses, Map<String, Labels> namespaces, Diagnostics diagnostics,
      Instant firstCreated, List<io.gpufleet.queue.api.Workload> out) {
    Map<String, List<KubeObject.PodObject>> groups = new java.util.LinkedHashMap<>();
    for (KubeObject.PodObject p : pods) {
      List<FieldError> errors = PodGroupWebhook.validate(p.pod().meta());
      for (FieldError e : errors) {
        diagnostics.error(p.location(), e.path(), "Kueue's pod webhook (vpod.kb.io) denies the pod: " + e.message());
      }
      if (errors.isEmpty()) {
        String ns = p.pod().meta().namespace();
        String key = PodGroupWebhook.groupName(p.pod().meta()).map(g -> ns + "/group/" + g).orElse(ns + "/pod/" + p.pod().name());
        groups.computeIfAbsent(key, k -> new ArrayList<>()).add(p);
      }
    }
    int i = 0;
    for (List<KubeObject.PodObject> group : groups.values()) {
      List<PodGroup.Member> members = group.stream().map(KueueManifests::member).toList();
      Pod first = group.getFirst().pod();
      Optional<String> groupName = PodGroupWebhook.groupName(first.meta());
      switch (PodGroup.compose(members)) {
        case PodGroup.NotComposed n -> diagnostics.warning(group.getFirst().location(), "metadata.labels."
            + PodGroupWebhook.GROUP_NAME_LABEL, "Kueue makes no Workload for this pod group yet (ErrWorkloadCompose: "
            + n.message() + ")");
        case PodGroup.Workload w -> {
          String ns = first.meta().namespace();
          int priority = first.meta().labels().get(PRIORITY_CLASS_LABEL).map(workloadPriorityClasses::get)
              .or(() -> first.spec().priorityClassName().map(priorityClasses::get)).orElse(0);
          Labels nsLabels = namespaces.getOrDefault(ns, Labels.EMPTY).with(NAMESPACE_NAME_LABEL, ns);
          out.add(new io.gpufleet.queue.api.Workload(ns, groupName.orElse(first.name()),
              members.getFirst().queue(), w.podSets(), priority, firstCreated.plusMillis(i++), nsLabels));
        }
      }
    }
  }

  /** A pod as its group's member: active unless Succeeded or Failed by its recorded phase. */
  private static PodGroup.Member member(KubeObject.PodObject p) {
    boolean failed = p.phase().map(ph -> ph == KubeObject.PodObject.Phase.FAILED).orElse(false);
    boolean succeeded = p.phase().map(ph -> ph == KubeObject.PodObject.Phase.SUCCEEDED).orElse(false);
    return new PodGroup.Member(p.pod(), p.pod().meta().labels().get(QUEUE_LABEL).orElse(""), !failed, failed, false);
  }

  /**
   * The Job's TAS request from its pod template's annotations; a bad one is an error, a slice or
   * pod-set-group annotation a warning (not modelled), each at the Job with the annotation's path.
   */
  static Optional<TopologyRequest> topologyRequest(Workload.Job job, Location at, Diagnostics diagnostics) {
    TopologyRequest.Parsed p = TopologyRequest.fromAnnotations(job.template().annotations().map());
    String path = "spec.template.metadata.annotations";
    for (String e : p.errors()) {
      int colon = e.indexOf(": ");
      String key = e.substring(0, colon);
      diagnostics.error(at, key.isEmpty() ? path : path + "." + key, e.substring(colon + 2));
    }
    for (String a : p.notModelled()) {
      diagnostics.warning(at, path + "." + a, "is not modelled by gpufleet (TAS slices and pod-set groups); it is ignored");
    }
    return p.request();
  }

  /**
   * The first Kueue manager Configuration among the objects (the file Kueue's manager reads, given
   * here as an object of its own; {@link #of} reads it into {@link KueueState#configuration}), where
   * one is given; without one Kueue runs with its defaults ({@link KueueConfiguration#DEFAULT}).
   */
  public static Optional<KubeObject> configurationObject(List<KubeObject> objects) {
    return objects.stream().filter(o -> o instanceof KubeObject.OtherObject other
        && other.apiVersion().startsWith(CONFIG_GROUP + "/") && other.kind().equals("Configuration")).findFirst();
  }
}
