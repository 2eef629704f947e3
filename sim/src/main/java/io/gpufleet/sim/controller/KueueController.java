package io.gpufleet.sim.controller;

import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectRef;
import io.gpufleet.model.pod.PodRequests;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.taint.Toleration;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.meta.OwnerReference;
import io.gpufleet.model.workload.JobSet;
import io.gpufleet.model.workload.PodTemplate;
import io.gpufleet.model.workload.Workload;
import io.gpufleet.queue.admission.Decision;
import io.gpufleet.queue.admission.Scheduler;
import io.gpufleet.queue.api.Admission;
import io.gpufleet.queue.api.KueueConfiguration;
import io.gpufleet.queue.api.KueueState;
import io.gpufleet.queue.jobset.JobSetWorkload;
import io.gpufleet.queue.pods.PodGroup;
import io.gpufleet.queue.podsready.JobPodsReady;
import io.gpufleet.queue.pods.PodGroupWebhook;
import io.gpufleet.queue.api.PodSet;
import io.gpufleet.queue.api.ResourceFlavor;
import io.gpufleet.queue.api.WorkloadCondition;
import io.gpufleet.queue.api.TopologyAssignment;
import io.gpufleet.queue.api.TopologyRequest;
import io.gpufleet.queue.tas.TasFlavorSnapshot;
import io.gpufleet.queue.tas.TopologyNode;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.sim.state.NodeState;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.state.PodState;
import io.gpufleet.sim.state.WorkloadState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.random.RandomGenerator;

/**
 * Kueue in the simulation, its smallest faithful slice. Once Kueue's objects are applied, a Job
 * labelled {@code kueue.x-k8s.io/queue-name} is created suspended (Kueue's Job webhook sets
 * {@code spec.suspend}) and gets a Workload of one pod set. When something that can change admission
 * happens (a Job created, a Job finished, a preempted Job's pods gone) the scheduler's cycles run
 * ({@link Scheduler#cycle}) until they decide nothing new, and their decisions are applied:
 * Admitted unsuspends the Job with its flavors' node labels and tolerations merged into its pod
 * template (Kueue's {@code pkg/podset/podset.go} FromAssignment and Merge), its quota held until the
 * Job finishes; Pending records the message once per change; Preempting deletes the victims' pods
 * and suspends their Jobs (their pod templates restored, as {@code podset.RestorePodSpec}), whose
 * quota is released (and Workloads requeued, with their creation time
 * as Kueue orders preempted ones) once their pods are gone. waitForPodsReady ({@link KueuePodsReady})
 * evicts an admitted Workload whose pods are not all ready within its timeout, as a preemption stops
 * its victims, and requeues it after a backoff; with blockAdmission it holds admissions back. With a
 * TAS flavor (a Topology named by its {@code topologyName}) a Job's pod set is placed on the nodes'
 * topology domains, each node's free capacity counted from the pods TAS did not place, and each of
 * its pods is pinned to its domain as it is created ({@link TopologyUngater}); TAS places pods on
 * nodes that exist, it asks Karpenter for none. With "pod" in the Configuration's
 * {@code integrations.frameworks}, plain pods labelled with a queue are Kueue's pod integration
 * ({@link PodGroup}): created gated, one Workload per group once all its pods exist, ungated together
 * on admission, deleted on eviction. With {@code jobset.x-k8s.io/jobset} listed, a JobSet labelled with a
 * queue is Kueue's JobSet integration ({@link JobSetWorkload}): its Jobs are made suspended (Kueue's
 * webhook suspends the JobSet, and the JobSet controller makes its Jobs suspended with it), one Workload
 * once they all exist, whose pod sets are its replicated jobs; on admission each Job gets its pod set's
 * flavors and is resumed, on eviction each is suspended again, its pods deleted. No admission checks in
 * this slice. Events go to the
 * run record as {@link RunRecord.Kind#KUEUE_EVENT},
 * "Reason: message", in Kueue's words ({@code pkg/scheduler/scheduler.go}).
 */
final class KueueController implements JobGate {

  /** {@code constants.QueueLabel}. */
  static final String QUEUE_LABEL = "kueue.x-k8s.io/queue-name";
  /** {@code constants.WorkloadPriorityClassLabel}. */
  static final String PRIORITY_CLASS_LABEL = "kueue.x-k8s.io/priority-class";
  /** The label the API server puts on every namespace. */
  private static final String NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";

  private final ApiServer api;
  private KueueState objects = new KueueState(List.of(), List.of(), List.of(), List.of(), List.of());
  private final SortedMap<ObjectRef, io.gpufleet.queue.api.Workload> workloads = new TreeMap<>();
  private final Map<String, ObjectRef> jobs = new HashMap<>();
  private final Set<ObjectRef> suspended = new TreeSet<>();
  /** Preempted Workloads whose Jobs' pods are still terminating: their quota is still held. */
  private final Set<ObjectRef> evicting = new TreeSet<>();
  /** Workloads left out of the cycles until something frees quota (inadmissible, or waiting for their victims). */
  private final Set<String> setAside = new TreeSet<>();
  private final Map<String, String> lastPending = new HashMap<>();
  /** Each queued Job's pod template as created: a suspended Job gets it back (podset.RestorePodSpec). */
  private final Map<ObjectRef, PodTemplate> original = new HashMap<>();
  /** When a requeued (preempted) Workload was evicted: its wait is counted from then. */
  private final Map<ObjectRef, java.time.Instant> queuedSince = new HashMap<>();
  private long created;
  private final KueuePodsReady podsReady;
  /**
   * Kueue's pod integration: each managed pod group's (or single pod's) pods, keyed as its Workload
   * is ({@link #POD_GROUP} or {@link #POD} and the group's or pod's name), in creation order.
   */
  private final SortedMap<ObjectRef, List<String>> podGroups = new TreeMap<>();
  /** The ErrWorkloadCompose message last recorded for each group not composed yet. */
  private final Map<ObjectRef, String> composeErrors = new HashMap<>();

  /**
   * Kueue's JobSet integration: each managed JobSet's Jobs, keyed as its Workload is ({@link JobSet#KIND}
   * and the JobSet's name), in creation order; and each such Job's JobSet.
   */
  private final SortedMap<ObjectRef, List<ObjectRef>> jobSets = new TreeMap<>();
  private final Map<ObjectRef, ObjectRef> jobSetOf = new HashMap<>();
  /** Each composed JobSet as its Jobs describe it (the simulation keeps no JobSet object). */
  private final Map<ObjectRef, JobSet> jobSetSpecs = new HashMap<>();
  /** JobSets naming a queue while their integration is off: warned about once each. */
  private final Set<ObjectRef> unmanagedJobSets = new TreeSet<>();

  /** The kind of the key of a pod group's Workload. */
  static final String POD_GROUP = "PodGroup";
  /** The kind of the key of a single pod's Workload. */
  static final String POD = "Pod";

  /** {@code requeueJitter}: the stream of the requeue backoff's jitter. */
  KueueController(ApiServer api, RandomGenerator requeueJitter) {
    this.api = api;
    this.podsReady = new KueuePodsReady(api, requeueJitter);
  }

  /** Whether Kueue runs: some ClusterQueue exists. */
  boolean active() {
    return !objects.clusterQueues().isEmpty();
  }

  /**
   * Kueue's objects applied, with the manager's Configuration that came with them (waitForPodsReady,
   * fair sharing); the Workloads they carry are ignored: Kueue makes them from Jobs.
   */
  void apply(KueueState applied) {
    podsReady.configure(applied.configuration());
    objects = applied.withWorkloads(List.of());
    requeueAll();
  }

  /**
   * A Job was created: with Kueue running and the queue label set, it is suspended and gets its
   * Workload, pod count {@code min(parallelism, completions)} as the twin's Job runs them, created
   * now (the order within one instant kept as the order of creation).
   */
  void jobCreated(ObjectRef key, Workload.Job job) {
    Optional<OwnerReference> jobSet = job.meta().owner().filter(o -> o.kind().equals(JobSet.KIND));
    if (jobSet.isPresent()) {
      jobSetJobCreated(key, job, new ObjectRef(JobSet.KIND, job.meta().namespace(), jobSet.get().name()));
      return;
    }
    Optional<String> queue = job.meta().labels().get(QUEUE_LABEL);
    if (!active() || queue.isEmpty() || !objects.configuration().manages(KueueConfiguration.JOB_FRAMEWORK)) {
      return;
    }
    String ns = job.meta().namespace();
    PodSpec spec = job.template().spec();
    PodSet ps = new PodSet(PodSet.MAIN, Math.min(job.parallelism(), job.completions()), PodRequests.of(spec), spec,
        TopologyRequest.fromAnnotations(job.template().annotations().map()).request());
    io.gpufleet.queue.api.Workload wl = new io.gpufleet.queue.api.Workload(ns, job.meta().name(), queue.get(),
        List.of(ps), priority(job.meta().labels(), spec), api.now().plusNanos(created++),
        Labels.of(NAMESPACE_NAME_LABEL, ns));
    workloads.put(key, wl);
    jobs.put(wl.key(), key);
    original.put(key, job.template());
    suspended.add(key);
    // jobframework's reconciler: "Created Workload: <ns>/<name>" (the twin names it after the Job).
    event(wl.key(), "CreatedWorkload", "Created Workload: " + wl.key());
    api.requestWorkloadSync();
  }

  /**
   * A JobSet's Job was created: with Kueue running and the JobSet naming a queue (carried on its Jobs'
   * annotations, see the scenario reader), it is created suspended and joins its JobSet, whose Workload
   * the reconciler makes once all its Jobs exist. Kueue's Job integration leaves a Job a JobSet owns to
   * the JobSet integration (jobframework's IsOwnerManagedByKueue, jobset_controller.go isJobSet); with
   * that integration off, the JobSet runs unmanaged, warned about once.
   */
  private void jobSetJobCreated(ObjectRef key, Workload.Job job, ObjectRef set) {
    Optional<String> queue = job.meta().annotations().get(QUEUE_LABEL);
    if (!active() || queue.isEmpty()) {
      return;
    }
    if (!objects.configuration().manages(JobSetWorkload.FRAMEWORK)) {
      if (unmanagedJobSets.add(set)) {
        api.log(RunRecord.Kind.KUEUE_EVENT, set.toString(), "names LocalQueue \"" + queue.get() + "\", but Kueue's "
            + "Configuration does not enable the \"" + JobSetWorkload.FRAMEWORK + "\" integration "
            + "(integrations.frameworks): Kueue does not manage this JobSet, which runs without a Workload");
      }
      return;
    }
    jobSets.computeIfAbsent(set, k -> new ArrayList<>()).add(key);
    jobSetOf.put(key, set);
    original.put(key, job.template());
    suspended.add(key);
    api.requestWorkloadSync();
  }

  /**
   * The jobset reconciler for every JobSet without a Workload: once all its Jobs exist (its global
   * replicas), one Workload of its replicated jobs' pod sets ({@link JobSetWorkload#podSets}), its
   * queue and priority the JobSet's. A JobSet none of whose Jobs exists any more is forgotten.
   */
  private void composeJobSets() {
    for (ObjectRef key : List.copyOf(jobSets.keySet())) {
      List<ObjectRef> children = jobSets.get(key);
      List<Workload.Job> jobsNow = children.stream().map(k -> api.state().workloads().get(k))
          .filter(java.util.Objects::nonNull).map(w -> (Workload.Job) w.workload()).toList();
      if (jobsNow.isEmpty()) {
        forgetJobSet(key);
        continue;
      }
      Workload.Job first = jobsNow.getFirst();
      int global = first.meta().labels().get(JobSet.GLOBAL_REPLICAS).map(Integer::parseInt).orElse(0);
      if (workloads.containsKey(key) || children.size() < global) {
        continue;
      }
      Map<String, JobSet.ReplicatedJob> replicated = new LinkedHashMap<>();
      for (ObjectRef child : children) {
        WorkloadState w = api.state().workloads().get(child);
        Workload.Job j = ((Workload.Job) w.workload()).withTemplate(original.get(child));
        String name = j.meta().labels().get(JobSet.REPLICATED_JOB_NAME).orElseThrow();
        int replicas = j.meta().labels().get(JobSet.REPLICATED_JOB_REPLICAS).map(Integer::parseInt).orElse(1);
        replicated.putIfAbsent(name, new JobSet.ReplicatedJob(name, replicas, j));
      }
      String ns = key.namespace();
      JobSet js = new JobSet(new ObjectMeta(key.name(), ns, Labels.EMPTY, Labels.EMPTY,
          Optional.empty()), List.copyOf(replicated.values()), false);
      jobSetSpecs.put(key, js);
      io.gpufleet.queue.api.Workload wl = new io.gpufleet.queue.api.Workload(ns, key.name(),
          first.meta().annotations().get(QUEUE_LABEL).orElseThrow(), JobSetWorkload.podSets(js),
          priority(first.meta().annotations(), first.template().spec()), api.now().plusNanos(created++),
          Labels.of(NAMESPACE_NAME_LABEL, ns));
      workloads.put(key, wl);
      jobs.put(wl.key(), key);
      event(wl.key(), "CreatedWorkload", "Created Workload: " + wl.key());
    }
  }

  private void forgetJobSet(ObjectRef key) {
    for (ObjectRef child : jobSets.getOrDefault(key, List.of())) {
      jobSetOf.remove(child);
      original.remove(child);
      suspended.remove(child);
    }
    jobSets.remove(key);
    jobSetSpecs.remove(key);
  }

  private boolean jobSet(ObjectRef key) {
    return key.kind().equals(JobSet.KIND);
  }

  /** The JobSet's Jobs that still exist. */
  private List<ObjectRef> jobSetJobs(ObjectRef key) {
    return jobSets.getOrDefault(key, List.of()).stream().filter(k -> api.state().workloads().get(k) != null)
        .toList();
  }

  /**
   * {@code PodsReady} of a JobSet ({@link JobSetWorkload#podsReady}): each of its Jobs counted ready as
   * Kueue's Job integration counts a Job PodsReady ({@link JobPodsReady}), a completed one (deleted by
   * the twin) as succeeded.
   */
  private boolean jobSetPodsReady(ObjectRef key) {
    JobSet js = jobSetSpecs.get(key);
    if (js == null) {
      return false;
    }
    Map<String, int[]> counts = new LinkedHashMap<>();
    for (ObjectRef child : jobSets.getOrDefault(key, List.of())) {
      WorkloadState w = api.state().workloads().get(child);
      String rj = child.name().substring(0, child.name().lastIndexOf('-'));
      int[] c = counts.computeIfAbsent(rj, k -> new int[2]);
      if (w == null) {
        c[1]++;
        continue;
      }
      Workload.Job j = (Workload.Job) w.workload();
      int ready = (int) api.state().podsOf(child).stream().filter(PodState::isReady).count();
      if (JobPodsReady.ready(j.parallelism(), Optional.of(j.completions()), ready, w.succeeded())) {
        c[0]++;
      }
    }
    List<JobSetWorkload.ReplicatedJobStatus> status = new ArrayList<>();
    counts.forEach((n, c) -> status.add(new JobSetWorkload.ReplicatedJobStatus(n, c[0], c[1])));
    return JobSetWorkload.podsReady(js, status);
  }

  /**
   * Kueue's pod webhook on a pod being created (no owner, labelled with a queue, the "pod" integration
   * enabled): gated with {@code kueue.x-k8s.io/admission} until its Workload is admitted
   * ({@code pod_webhook.go} Default). The twin's scenario reader has already refused pods whose
   * group metadata the webhook's validation refuses.
   */
  Pod admitPod(Pod pod) {
    if (!managed(pod)) {
      return pod;
    }
    List<String> gates = new ArrayList<>(pod.spec().schedulingGates());
    if (!gates.contains(PodGroupWebhook.SCHEDULING_GATE)) {
      gates.add(PodGroupWebhook.SCHEDULING_GATE);
    }
    return pod.withSpec(pod.spec().withSchedulingGates(gates));
  }

  /** A pod was created: a managed one joins its group (or is a group of its own); the reconciler runs next sync. */
  void podCreated(Pod pod) {
    if (!managed(pod)) {
      return;
    }
    ObjectRef key = PodGroupWebhook.groupName(pod.meta()).map(g -> new ObjectRef(POD_GROUP, pod.meta().namespace(), g))
        .orElse(new ObjectRef(POD, pod.meta().namespace(), pod.name()));
    podGroups.computeIfAbsent(key, k -> new ArrayList<>()).add(pod.key());
    api.requestWorkloadSync();
  }

  private boolean managed(Pod pod) {
    return active() && objects.configuration().manages(KueueConfiguration.POD_FRAMEWORK)
        && pod.meta().owner().isEmpty() && pod.meta().labels().get(QUEUE_LABEL).isPresent();
  }

  private static boolean podGroup(ObjectRef key) {
    return key.kind().equals(POD_GROUP) || key.kind().equals(POD);
  }

  /** The group's pods that still exist, in creation order. */
  private List<PodState> groupPods(ObjectRef key) {
    return podGroups.getOrDefault(key, List.of()).stream().map(k -> api.state().pods().get(k))
        .filter(java.util.Objects::nonNull).toList();
  }

  /** The pods of a Job, of a pod group, or of a JobSet's Jobs. */
  private List<PodState> podsOf(ObjectRef key) {
    if (jobSet(key)) {
      return jobSetJobs(key).stream().flatMap(k -> api.state().podsOf(k).stream()).toList();
    }
    return podGroup(key) ? groupPods(key) : api.state().podsOf(key);
  }

  private static PodGroup.Member member(PodState p) {
    return new PodGroup.Member(p.pod(), p.pod().meta().labels().get(QUEUE_LABEL).orElse(""),
        !p.isFailed() && !p.isTerminating(), p.isFailed(), p.isReady());
  }

  /**
   * The pod reconciler for every group without a Workload: composed once all its pods exist
   * ({@link PodGroup#compose}), the excess pods deleted; until then its ErrWorkloadCompose message,
   * recorded once per change. A group none of whose pods exists any more is forgotten.
   */
  private void composePodGroups() {
    for (ObjectRef key : List.copyOf(podGroups.keySet())) {
      List<PodState> pods = groupPods(key);
      if (pods.isEmpty()) {
        podGroups.remove(key);
        composeErrors.remove(key);
        continue;
      }
      if (workloads.containsKey(key)) {
        continue;
      }
      switch (PodGroup.compose(pods.stream().map(KueueController::member).toList())) {
        case PodGroup.NotComposed n -> {
          if (!n.message().equals(composeErrors.put(key, n.message()))) {
            api.log(RunRecord.Kind.KUEUE_EVENT, pods.getFirst().key(), "ErrWorkloadCompose: " + n.message());
          }
        }
        case PodGroup.Workload w -> {
          composeErrors.remove(key);
          for (Pod excess : w.excess()) {
            // removeExcessPods: "Excess pod deleted" on each.
            api.deletePod(excess.key(), RunRecord.Kind.POD_DELETED, "ExcessPodDeleted: Excess pod deleted");
          }
          Pod first = pods.getFirst().pod();
          String ns = key.namespace();
          io.gpufleet.queue.api.Workload wl = new io.gpufleet.queue.api.Workload(ns, key.name(),
              first.meta().labels().get(QUEUE_LABEL).orElseThrow(), w.podSets(), priority(first.meta().labels(),
              first.spec()),
              api.now().plusNanos(created++), Labels.of(NAMESPACE_NAME_LABEL, ns));
          workloads.put(key, wl);
          jobs.put(wl.key(), key);
          event(wl.key(), "CreatedWorkload", "Created Workload: " + wl.key());
        }
      }
    }
  }

  /**
   * A Workload's priority: the value of the WorkloadPriorityClass its Job or pod names
   * ({@code kueue.x-k8s.io/priority-class}, {@code pkg/workloadpriority}), else its pods' priority.
   */
  private int priority(Labels labels, PodSpec spec) {
    return labels.get(PRIORITY_CLASS_LABEL).map(objects.workloadPriorityClasses()::get).orElse(spec.priority());
  }

  @Override
  public boolean suspended(ObjectRef job) {
    return suspended.contains(job);
  }

  @Override
  public void finished(ObjectRef job) {
    if (jobSetOf.containsKey(job)) {
      // One of a JobSet's Jobs completed: its Workload finishes with the last of them (reconcile).
      suspended.remove(job);
      api.requestWorkloadSync();
      return;
    }
    if (workloads.remove(job) != null) {
      if (jobSet(job)) {
        forgetJobSet(job);
      }
      suspended.remove(job);
      evicting.remove(job);
      original.remove(job);
      queuedSince.remove(job);
      podsReady.forget(job);
      requeueAll();
    }
  }

  /** Quota may have been freed: every Workload set aside is tried again, at the next sync. */
  private void requeueAll() {
    setAside.clear();
    api.requestWorkloadSync();
  }

  /** Runs the scheduler's cycles until they decide nothing new, and applies their decisions. */
  void reconcile() {
    if (!active()) {
      return;
    }
    for (ObjectRef key : List.copyOf(workloads.keySet())) {
      boolean gone = jobSet(key) ? jobSetJobs(key).isEmpty()
          : podGroup(key) ? groupPods(key).isEmpty() : api.state().workloads().get(key) == null;
      if (gone) {
        // The Job was deleted; or the group's pods are all gone (finished, deleted or stopped: nothing
        // makes plain pods again, and the twin ends the Workload with them).
        finished(key);
      }
    }
    composePodGroups();
    composeJobSets();
    for (ObjectRef key : List.copyOf(evicting)) {
      if (podsOf(key).stream().allMatch(PodState::isFailed)) {
        evicting.remove(key);
        io.gpufleet.queue.api.Workload wl = workloads.get(key);
        workloads.put(key, new io.gpufleet.queue.api.Workload(wl.namespace(), wl.name(), wl.queueName(),
            wl.podSets(), wl.priority(), wl.creationTime(), wl.namespaceLabels()));
        setAside.clear();
      }
    }
    Map<ObjectRef, String> names = new HashMap<>();
    workloads.forEach((k, wl) -> names.put(k, wl.key()));
    if (podsReady.backoffsEnded(names)) {
      setAside.clear();
    }
    podsReady.sync(this::stopTimedOut, key -> jobSet(key) ? Optional.of(jobSetPodsReady(key)) : podGroup(key)
        ? Optional.of(PodGroup.podsReady(groupPods(key).stream().map(KueueController::member).toList()))
        : Optional.empty());
    for (int round = 0; round <= workloads.size(); round++) {
      // Backing off or deactivated: out of the queue (waitForPodsReady).
      List<io.gpufleet.queue.api.Workload> queued = new ArrayList<>();
      workloads.forEach((k, wl) -> {
        if (!podsReady.heldBack(k)) {
          queued.add(podsReady.queueOrderTime(k).map(t -> new io.gpufleet.queue.api.Workload(wl.namespace(),
              wl.name(), wl.queueName(), wl.podSets(), wl.priority(), t, wl.namespaceLabels(), wl.admission(),
              wl.quotaReservedAt())).orElse(wl));
        }
      });
      KueueState state = objects.withWorkloads(queued);
      boolean progress = false;
      for (Decision d : Scheduler.cycle(state, api.now(), wl -> setAside.contains(wl.key()), topologyNodes())) {
        if (d instanceof Decision.Admitted a && admissionBlocked(a)) {
          break; // the scheduler waits here (scheduler.go waitForPodsReadyIfNeeded)
        }
        progress |= apply(d);
      }
      if (!progress) {
        return;
      }
    }
  }

  /** Applies one decision; whether it changed what the next cycle sees. */
  private boolean apply(Decision d) {
    ObjectRef key = jobs.get(d.workload());
    io.gpufleet.queue.api.Workload wl = workloads.get(key);
    return switch (d) {
      case Decision.Admitted a -> {
        workloads.put(key, wl.admitted(a.admission(), api.now()));
        lastPending.remove(wl.key());
        String cq = a.admission().clusterQueue();
        // Since it was queued: created, or last evicted; printed "%.0fs" (scheduler.go), so rounded.
        long waited = Math.round(Duration.between(queuedSince.getOrDefault(key, wl.creationTime()), api.now())
            .toMillis() / 1000.0);
        event(wl.key(), "QuotaReserved", "Quota reserved in ClusterQueue " + cq + ", wait time since queued was "
            + waited + "s");
        event(wl.key(), "Admitted", "Admitted by ClusterQueue " + cq + ", wait time since reservation was 0s");
        start(key, a.admission());
        podsReady.admitted(key, wl.key());
        yield true;
      }
      case Decision.Pending p -> {
        if (!p.message().equals(lastPending.put(wl.key(), p.message()))) {
          event(wl.key(), "Pending", p.message());
        }
        yield p.inadmissible() && setAside.add(wl.key());
      }
      case Decision.Preempting p -> {
        for (Decision.Eviction e : p.targets()) {
          ObjectRef victim = jobs.get(e.workload());
          if (victim == null || evicting.contains(victim)) {
            continue;
          }
          event(e.workload(), "Preempted", e.message());
          stop(victim, "Kueue preempted its Workload (" + e.reason() + ")");
        }
        if (!p.message().equals(lastPending.put(wl.key(), p.message()))) {
          event(wl.key(), "Pending", p.message());
        }
        yield setAside.add(wl.key());
      }
      case Decision.NotConsidered n -> false;
    };
  }

  /**
   * Stops an admitted Job whose Workload was evicted: suspended, its pod template restored
   * ({@code podset.RestorePodSpec}) and its pods deleted; its quota stays held until they are gone,
   * then the Workload is requeued, its wait counted from now.
   */
  private void stop(ObjectRef victim, String why) {
    evicting.add(victim);
    podsReady.released(victim);
    queuedSince.put(victim, api.now());
    if (podGroup(victim)) {
      // pod_controller.go Stop: a plain pod cannot be suspended; each of the group's pods is deleted.
      for (PodState pod : groupPods(victim)) {
        if (!pod.isTerminating() && !pod.isFailed()) {
          api.deletePod(pod.key(), RunRecord.Kind.POD_DELETED, "Kueue stopped its pod group: " + why);
        }
      }
      return;
    }
    if (jobSet(victim)) {
      // The JobSet suspended: the JobSet controller suspends each of its Jobs.
      jobSetJobs(victim).forEach(j -> suspend(j, why));
      return;
    }
    suspend(victim, why);
  }

  /** Suspends a Job: its pod template restored ({@code podset.RestorePodSpec}), its pods deleted. */
  private void suspend(ObjectRef job, String why) {
    suspended.add(job);
    WorkloadState vw = api.state().workloads().get(job);
    if (vw != null) {
      api.putWorkload(vw.withWorkload(vw.workload().withTemplate(original.get(job))));
    }
    for (PodState pod : api.state().podsOf(job)) {
      if (!pod.isTerminating() && !pod.isFailed()) {
        api.deletePod(pod.key(), RunRecord.Kind.POD_DELETED, "its Job was suspended: " + why);
      }
    }
  }

  /** The waitForPodsReady timeout evicted the Workload (PodsReadyTimeout, or deactivated past its requeue limit). */
  private void stopTimedOut(ObjectRef job, String message) {
    if (!evicting.contains(job)) {
      stop(job, "Kueue evicted its Workload (" + message + ")");
    }
  }

  /**
   * With blockAdmission, whether the admission of {@code a} waits because a Workload holding quota is
   * not PodsReady; the hold is recorded once as its QuotaReserved condition.
   */
  private boolean admissionBlocked(Decision.Admitted a) {
    List<ObjectRef> holders = new ArrayList<>();
    workloads.forEach((k, wl) -> {
      if (wl.admission().isPresent()) {
        holders.add(k);
      }
    });
    Optional<WorkloadCondition> held = podsReady.blocked(holders);
    if (held.isPresent() && !held.get().message().equals(lastPending.put(a.workload(), held.get().message()))) {
      event(a.workload(), held.get().reason(), held.get().message());
    }
    return held.isPresent();
  }

  /**
   * Unsuspends an admitted Job, or ungates a pod group's pods: each assigned flavor's node labels and
   * tolerations merged into its pod template (or each pod) as {@code podset.FromAssignment} and
   * {@code podset.Merge} do (a node selector key the template already sets to another value is a
   * conflict, and the Job stays suspended, the pod gated).
   */
  private void start(ObjectRef key, Admission admission) {
    if (jobSet(key)) {
      // RunWithPodSetsInfo: each replicated job's template gets its own pod set's flavors; the JobSet
      // controller carries them into its Jobs and resumes them.
      for (ObjectRef child : jobSetJobs(key)) {
        String rj = api.state().workloads().get(child).workload().meta().labels().get(JobSet.REPLICATED_JOB_NAME)
            .orElseThrow();
        resume(child, key, injection(admission.podSetAssignments().stream().filter(ps -> ps.name().equals(rj))
            .toList()));
      }
      return;
    }
    Injection inj = injection(admission.podSetAssignments());
    if (podGroup(key)) {
      for (PodState p : groupPods(key)) {
        if (!p.isPending() || !p.pod().spec().schedulingGates().contains(PodGroupWebhook.SCHEDULING_GATE)) {
          continue;
        }
        Optional<PodSpec> merged = merge(p.pod().spec(), inj.selector(), inj.tolerations(), key);
        if (merged.isPresent()) {
          PodSpec spec = merged.get();
          // prepare: podset.Merge, then Ungate(kueue.x-k8s.io/admission); the pod's "Started" event.
          spec = spec.withSchedulingGates(spec.schedulingGates().stream()
              .filter(g -> !g.equals(PodGroupWebhook.SCHEDULING_GATE)).toList());
          api.updatePendingPod(p.key(), p.pod().withSpec(spec));
          api.log(RunRecord.Kind.KUEUE_EVENT, p.key(), "Started: Admitted by clusterQueue "
              + admission.clusterQueue());
        }
      }
      return;
    }
    resume(key, key, inj);
  }

  /** The node labels and tolerations of the flavors assigned to some pod sets ({@code podset.FromAssignment}). */
  private record Injection(Labels selector, List<Toleration> tolerations) {}

  private Injection injection(List<Admission.PodSetAssignment> assignments) {
    Labels selector = Labels.EMPTY;
    List<Toleration> tolerations = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    for (Admission.PodSetAssignment ps : assignments) {
      for (String flavor : ps.flavors().values()) {
        if (!seen.add(flavor)) {
          continue;
        }
        Optional<ResourceFlavor> rf = objects.flavors().stream().filter(f -> f.name().equals(flavor)).findFirst();
        if (rf.isPresent()) {
          for (var e : rf.get().nodeLabels().map().entrySet()) {
            if (!selector.has(e.getKey())) {
              selector = selector.with(e.getKey(), e.getValue()); // MergeKeepFirst
            }
          }
          tolerations.addAll(rf.get().tolerations());
        }
      }
    }
    return new Injection(selector, tolerations);
  }

  /** Resumes a suspended Job with its pod template as created and the flavors' injection merged in. */
  private void resume(ObjectRef job, ObjectRef workload, Injection inj) {
    WorkloadState w = api.state().workloads().get(job);
    PodTemplate t = original.get(job);
    Optional<PodSpec> injected = merge(t.spec(), inj.selector(), inj.tolerations(), workload);
    if (injected.isPresent()) {
      suspended.remove(job);
      api.putWorkload(w.withWorkload(w.workload().withTemplate(new PodTemplate(t.labels(), t.annotations(),
          injected.get()))));
    }
  }

  /** {@code podset.Merge} of the flavors' selector and tolerations into {@code spec}; empty on a conflict (recorded). */
  private Optional<PodSpec> merge(PodSpec spec, Labels selector, List<Toleration> tolerations, ObjectRef key) {
    for (var e : selector.map().entrySet()) {
      Optional<String> mine = spec.nodeSelector().get(e.getKey());
      if (mine.isPresent() && !mine.get().equals(e.getValue())) {
        event(workloads.get(key).key(), "FailedToStart", "conflict for nodeSelector: conflict for key="
            + e.getKey() + ", value1=" + mine.get() + ", value2=" + e.getValue());
        return Optional.empty();
      }
    }
    List<Toleration> merged = new ArrayList<>(spec.tolerations());
    for (Toleration tol : tolerations) {
      if (!merged.contains(tol)) {
        merged.add(tol);
      }
    }
    return Optional.of(spec.withNodeSelector(spec.nodeSelector().withAll(selector)).withTolerations(merged));
  }

  /**
   * TAS's view of the nodes (only when some flavor is a TAS flavor): each node, Ready or not, and the
   * requests of the live pods bound to it that TAS did not place (pods of Jobs admitted without a
   * topology assignment, DaemonSets, anything else), with one {@code pods} each.
   */
  private List<TopologyNode> topologyNodes() {
    if (objects.flavors().stream().noneMatch(f -> f.topologyName().isPresent())) {
      return List.of();
    }
    Map<String, SortedMap<ResourceName, Long>> usage = new HashMap<>();
    for (PodState p : api.state().pods().values()) {
      if (p.node().isEmpty() || p.isFailed() || p.workload().map(this::places).orElse(false)) {
        continue;
      }
      SortedMap<ResourceName, Long> u = usage.computeIfAbsent(p.node().get(), k -> new TreeMap<>());
      TasFlavorSnapshot.units(PodRequests.of(p.pod().spec()).quantities()).forEach((r, v) -> u.merge(r, v, Long::sum));
      u.merge(ResourceName.PODS, 1L, Long::sum);
    }
    List<TopologyNode> out = new ArrayList<>();
    for (NodeState n : api.state().nodes().values()) {
      out.add(new TopologyNode(n.node(), n.ready(), usage.getOrDefault(n.name(), new TreeMap<>())));
    }
    return out;
  }

  /** Only a Job whose Workload (or whose JobSet's) was admitted with a topology assignment has its pods placed. */
  @Override
  public boolean places(ObjectRef job) {
    io.gpufleet.queue.api.Workload wl = workloads.get(jobSetOf.getOrDefault(job, job));
    return wl != null && wl.admission().stream().flatMap(a -> a.podSetAssignments().stream())
        .anyMatch(ps -> ps.topologyAssignment().isPresent());
  }

  /** A TAS-admitted Job's new pod gets its domain's node selector ({@link TopologyUngater}). */
  @Override
  public Pod place(ObjectRef job, Pod pod) {
    ObjectRef set = jobSetOf.get(job);
    io.gpufleet.queue.api.Workload wl = workloads.get(set == null ? job : set);
    // A JobSet's Job is placed by its replicated job's pod set, beside that replicated job's other pods.
    Optional<String> rj = set == null ? Optional.empty() : pod.meta().labels().get(JobSet.REPLICATED_JOB_NAME);
    Optional<TopologyAssignment> ta = wl == null ? Optional.empty() : wl.admission().stream()
        .flatMap(a -> a.podSetAssignments().stream()).filter(ps -> rj.map(ps.name()::equals).orElse(true))
        .flatMap(ps -> ps.topologyAssignment().stream()).findFirst();
    if (ta.isEmpty()) {
      return pod;
    }
    List<ObjectRef> owners = set == null ? List.of(job) : jobSetJobs(set).stream()
        .filter(k -> api.state().workloads().get(k).workload().meta().labels().get(JobSet.REPLICATED_JOB_NAME)
            .equals(rj)).toList();
    List<Labels> siblings = owners.stream().flatMap(k -> api.state().podsOf(k).stream())
        .filter(p -> !p.isTerminating() && !p.isFailed()).map(p -> p.pod().spec().nodeSelector()).toList();
    return TopologyUngater.place(pod, ta.get(), siblings);
  }

  private void event(String workload, String reason, String message) {
    api.log(RunRecord.Kind.KUEUE_EVENT, workload, reason + ": " + message);
  }
}
