package io.gpufleet.engine.scheduler;

import io.gpufleet.engine.scheduler.plugin.NodeAffinity;
import io.gpufleet.engine.scheduler.plugin.NodeResourcesFit;
import io.gpufleet.model.pod.Pod;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.random.RandomGenerator;

/**
 * Places a set of pods on a snapshot the way a freshly started scheduler would drain its queue.
 * Pods that already name a node are bound first, as the cluster state the scheduler starts from
 * (they skip the scheduler and meet only the kubelet's admission check); the rest go highest
 * priority first, then in the given order. A pod that preemption nominates stays Pending with its
 * nominated node; its victims become Preempted. Returns every outcome, in that order, and the final image.
 */
public final class BatchPlacement {
  private BatchPlacement() {}

  /** What became of one pod. */
  public sealed interface Outcome {
    Pod pod();

    /**
     * Which permitted record this is, for switches on the CLI's start path: a switch over an enum is
     * checked for exhaustiveness by javac like a pattern switch but compiles to a table, where each
     * pattern switch makes a class at run time on first use.
     */
    Variant variant();

    /** One constant per permitted record, each returned by that record alone (SealedBranchesTest). */
    enum Variant { BOUND, PENDING, PREEMPTED, ORPHANED, REJECTED, UNCLAIMED, GATED, UNPREPARED }

    /** Bound to {@code node}; {@code byScheduler} is false for pods that named their node. */
    record Bound(Pod pod, String node, boolean byScheduler, ScheduleResult.Scheduled decision) implements Outcome {
      @Override
      public Variant variant() {
        return Variant.BOUND;
      }
    }

    /**
     * Still Pending: the scheduler's FailedScheduling message; {@code nominatedNode} when preemption
     * made room there (the pod's request is held on that node for the pods queued after it).
     */
    record Pending(Pod pod, FitError error, Optional<String> nominatedNode) implements Outcome {
      public Pending(Pod pod, FitError error) {
        this(pod, error, Optional.empty());
      }

      @Override
      public Variant variant() {
        return Variant.PENDING;
      }
    }

    /** Evicted by preemption in favour of {@code preemptor}: Terminating, its room given to the preemptor. */
    record Preempted(Pod pod, String node, Pod preemptor) implements Outcome {
      @Override
      public Variant variant() {
        return Variant.PREEMPTED;
      }
    }

    /**
     * Named a node that does not exist: it stays Pending with no event, since kube-scheduler never
     * sees a pod whose {@code spec.nodeName} is set and no kubelet runs it.
     */
    record Orphaned(Pod pod, String node) implements Outcome {
      @Override
      public Variant variant() {
        return Variant.ORPHANED;
      }
    }

    /**
     * Named a node whose kubelet admitted it but cannot prepare its ResourceClaims (none is reserved for
     * it: no scheduler allocated them): it stays Pending on the node (ContainerCreating), holding its
     * requests there, with the kubelet's {@code FailedPrepareDynamicResources} warning {@code message}.
     */
    record Unprepared(Pod pod, String node, String message) implements Outcome {
      /** The kubelet's event reason (pkg/kubelet/events/event.go). */
      public static final String REASON = "FailedPrepareDynamicResources";

      @Override
      public Variant variant() {
        return Variant.UNPREPARED;
      }
    }

    /** Named a node whose kubelet refused it: phase Failed with a reason such as {@code OutOfnvidia.com/gpu}. */
    record Rejected(Pod pod, String node, String reason, String message) implements Outcome {
      @Override
      public Variant variant() {
        return Variant.REJECTED;
      }
    }

    /**
     * Names a {@code schedulerName} no profile has: it stays Pending with no event, since no
     * scheduler picks it up (kube-scheduler skips pods of other schedulers, {@code responsibleForPod}).
     */
    record Unclaimed(Pod pod, String schedulerName) implements Outcome {
      @Override
      public Variant variant() {
        return Variant.UNCLAIMED;
      }
    }

    /**
     * Held back from the queue by a PreEnqueue plugin (SchedulingGates: the pod has
     * {@code spec.schedulingGates}): Pending, never tried and never bound, with no event; {@code
     * message} is the plugin's ({@code waiting for scheduling gates: [a b]}).
     */
    record Gated(Pod pod, String plugin, String message) implements Outcome {
      @Override
      public Variant variant() {
        return Variant.GATED;
      }
    }
  }

  public record Result(List<Outcome> outcomes, ClusterSnapshot snapshot) {
    public Result {
      outcomes = List.copyOf(outcomes);
    }
  }

  /** Priority order of the scheduling queue (PrioritySort); stable, so ties keep the given order. */
  public static List<Pod> queueOrder(List<Pod> pods) {
    List<Pod> sorted = new ArrayList<>(pods);
    // Written out rather than Comparator.comparingInt(..).reversed(), whose lambda inside java.util the
    // AOT cache does not hold, so that the CLI's start makes no class for it at run time.
    sorted.sort((a, b) -> Integer.compare(b.spec().priority(), a.spec().priority()));
    return sorted;
  }

  public static Result place(
      List<Pod> pods, ClusterSnapshot snapshot, Scheduler scheduler, RandomGenerator random, boolean explain) {
    return place(pods, snapshot, List.of(scheduler), random, explain);
  }

  /**
   * As one kube-scheduler with several profiles: one queue, each pod scheduled by the profile its
   * {@code schedulerName} names; a pod no profile names is left {@link Outcome.Unclaimed}.
   */
  public static Result place(List<Pod> pods, ClusterSnapshot snapshot, List<Scheduler> profiles,
      RandomGenerator random, boolean explain) {
    Map<String, Scheduler> byName = new HashMap<>();
    for (Scheduler s : profiles) {
      if (byName.putIfAbsent(s.profile().name(), s) != null) {
        throw new IllegalArgumentException("two profiles named " + s.profile().name());
      }
    }
    List<Outcome> outcomes = new ArrayList<>();
    for (Pod pod : pods) {
      if (pod.spec().nodeName().isPresent()) {
        PodInfo info = PodInfo.of(pod);
        String node = pod.spec().nodeName().get();
        Outcome o = admit(info, node, snapshot);
        if (o instanceof Outcome.Bound) {
          snapshot = snapshot.bind(info, node);
        }
        outcomes.add(o);
      }
    }
    int start = 0;
    for (Pod pod : queueOrder(pods)) {
      if (pod.spec().nodeName().isPresent()) {
        continue;
      }
      Scheduler scheduler = byName.get(pod.spec().schedulerName());
      if (scheduler == null) {
        outcomes.add(new Outcome.Unclaimed(pod, pod.spec().schedulerName()));
        continue;
      }
      Optional<Status> held = scheduler.profile().preEnqueue(pod);
      if (held.isPresent()) {
        outcomes.add(new Outcome.Gated(pod, held.get().plugin(), held.get().reasons().getFirst()));
        continue;
      }
      PodInfo info = PodInfo.of(pod);
      ScheduleResult r = scheduler.schedule(info, snapshot, random, start, explain);
      if (snapshot.size() > 0) {
        start = (start + r.evaluatedNodes()) % snapshot.size();
      }
      // instanceof, not a pattern switch, which would make a class at run time on first use; the
      // two records are all ScheduleResult permits (SealedBranchesTest).
      if (r instanceof ScheduleResult.Scheduled s) {
        snapshot = snapshot.bind(info, s.node());
        outcomes.add(new Outcome.Bound(pod, s.node(), true, s));
      } else {
        ScheduleResult.Unschedulable u = (ScheduleResult.Unschedulable) r;
        if (u.nominatedNode().isPresent()) {
          String node = u.nominatedNode().get();
          for (String victim : u.victims()) {
            for (int i = 0; i < outcomes.size(); i++) {
              if (outcomes.get(i) instanceof Outcome.Bound b && b.pod().key().equals(victim)) {
                outcomes.set(i, new Outcome.Preempted(b.pod(), node, pod));
              }
            }
            snapshot = snapshot.unbind(victim, node);
          }
          // Accounting as once the victims are gone: the nominated pod holds its request there.
          snapshot = snapshot.bind(info, node);
          outcomes.add(new Outcome.Pending(pod, u.error(), u.nominatedNode()));
        } else {
          outcomes.add(new Outcome.Pending(pod, u.error()));
        }
      }
    }
    return new Result(outcomes, snapshot);
  }

  /**
   * The kubelet's start of each pod bound by name: one whose claims {@code refusal} says it cannot
   * prepare becomes {@link Outcome.Unprepared} with that message; it stays bound in the snapshot.
   */
  public static Result preparingClaims(Result result, Function<Pod, Optional<String>> refusal) {
    List<Outcome> outcomes = new ArrayList<>();
    for (Outcome o : result.outcomes()) {
      if (o instanceof Outcome.Bound b && !b.byScheduler()) {
        Optional<String> why = refusal.apply(b.pod());
        outcomes.add(why.<Outcome>map(m -> new Outcome.Unprepared(b.pod(), b.node(), m)).orElse(b));
      } else {
        outcomes.add(o);
      }
    }
    return new Result(outcomes, result.snapshot());
  }

  /**
   * The kubelet's admission of a pod bound by name: the node must exist, match and have room. The
   * first shortfall is reported, as {@code pkg/kubelet/lifecycle/predicate.go} does.
   */
  public static Outcome admit(PodInfo pod, String nodeName, ClusterSnapshot snapshot) {
    var node = snapshot.node(nodeName);
    if (node.isEmpty()) {
      return new Outcome.Orphaned(pod.pod(), nodeName);
    }
    if (!NodeAffinity.matches(pod.pod().spec(), node.get())) {
      return new Outcome.Rejected(pod.pod(), nodeName, "NodeAffinity",
          "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector");
    }
    List<NodeResourcesFit.InsufficientResource> shortfalls = NodeResourcesFit.insufficient(pod.requests(), node.get());
    if (!shortfalls.isEmpty()) {
      NodeResourcesFit.InsufficientResource first = shortfalls.getFirst();
      return new Outcome.Rejected(pod.pod(), nodeName, "OutOf" + first.resourceName(),
          "Pod was rejected: " + first.kubeletMessage());
    }
    return new Outcome.Bound(pod.pod(), nodeName, false, null);
  }
}
