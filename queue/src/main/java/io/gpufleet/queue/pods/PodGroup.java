package io.gpufleet.queue.pods;

import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodRequests;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.queue.api.PodSet;
import io.gpufleet.queue.api.TopologyRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Workload Kueue's pod reconciler composes for a pod, or for a pod group once all its pods exist
 * ({@code pkg/controller/jobs/pod/pod_controller.go} ConstructComposableWorkload,
 * validatePodGroupMetadata, constructGroupPodSets), and whether they are ready (PodsReady). The
 * members are the group's pods in creation order, the first the one reconciled. A single pod is one
 * pod set {@code main} of count 1 (constructPodSets). A group's pods are grouped into roles by their
 * spec; upstream names each role's pod set by an 8-character hash of the spec's JSON shape
 * ({@code utilpod.GenerateRoleHash}), the twin by its order: {@code role-0}, {@code role-1}, ...
 */
public final class PodGroup {

  private PodGroup() {}

  /**
   * One pod of a group: {@code queue} its {@code kueue.x-k8s.io/queue-name}; {@code active}
   * runnable or succeeded (not failed, not being deleted: {@code isPodRunnableOrSucceeded} as the
   * twin's pods go); {@code failed} its phase is Failed.
   */
  public record Member(Pod pod, String queue, boolean active, boolean failed, boolean ready) {}

  /** What the reconciler makes of the pods. */
  public sealed interface Composed {}

  /** The Workload's pod sets; {@code excess}: active pods past the total count, which Kueue deletes. */
  public record Workload(List<PodSet> podSets, List<Pod> excess) implements Composed {}

  /** No Workload (yet): the reconciler's error, in its words. */
  public record NotComposed(String message) implements Composed {}

  /** Composes the Workload of {@code members} (one pod without a group name, or a group). */
  public static Composed compose(List<Member> members) {
    Member first = members.getFirst();
    Optional<String> group = PodGroupWebhook.groupName(first.pod().meta());
    if (group.isEmpty()) {
      return new Workload(List.of(podSet(PodSet.MAIN, 1, first.pod())), List.of());
    }
    PodGroupWebhook.TotalCount total = totalCount(first.pod());
    if (total.err().isPresent()) {
      return new NotComposed(total.err().get());
    }
    List<Pod> active = members.stream().filter(Member::active).map(Member::pod).toList();
    if (active.size() < total.value()) {
      return new NotComposed("'" + group.get() + "' group has fewer runnable pods than expected");
    }
    for (Member m : members) {
      if (m.failed()) {
        continue;
      }
      if (!m.queue().equals(first.queue())) {
        return new NotComposed("pods '" + first.pod().name() + "' and '" + m.pod().name()
            + "' has different queue names: " + first.queue() + "!=" + m.queue());
      }
      PodGroupWebhook.TotalCount tc = totalCount(m.pod());
      if (tc.err().isPresent()) {
        return new NotComposed("failed to extract '" + PodGroupWebhook.GROUP_TOTAL_COUNT_ANNOTATION
            + "' annotation from the pod '" + m.pod().name() + "': " + tc.err().get());
      }
      if (tc.value() != total.value()) {
        return new NotComposed("pods '" + first.pod().name() + "' and '" + m.pod().name() + "' has different '"
            + PodGroupWebhook.GROUP_TOTAL_COUNT_ANNOTATION + "' values: " + total.value() + "!=" + tc.value());
      }
    }
    // removeExcessPods: the active pods past the total count; the twin keeps the first created.
    List<Pod> kept = active.subList(0, total.value());
    Map<PodSpec, List<Pod>> roles = new LinkedHashMap<>();
    for (Pod p : kept) {
      roles.computeIfAbsent(role(p.spec()), k -> new ArrayList<>()).add(p);
    }
    List<PodSet> podSets = new ArrayList<>();
    int i = 0;
    for (List<Pod> pods : roles.values()) {
      podSets.add(podSet("role-" + i++, pods.size(), pods.getFirst()));
    }
    return new Workload(podSets, List.copyOf(active.subList(total.value(), active.size())));
  }

  /**
   * {@code PodsReady}: a single pod when it is ready; a group when it has at least its total count
   * of pods and every one is ready (false when the count cannot be read).
   */
  public static boolean podsReady(List<Member> members) {
    Member first = members.getFirst();
    if (PodGroupWebhook.groupName(first.pod().meta()).isEmpty()) {
      return first.ready();
    }
    PodGroupWebhook.TotalCount total = totalCount(first.pod());
    return total.err().isEmpty() && members.size() >= total.value() && members.stream().allMatch(Member::ready);
  }

  private static PodGroupWebhook.TotalCount totalCount(Pod p) {
    return p.meta().annotations().get(PodGroupWebhook.GROUP_TOTAL_COUNT_ANNOTATION)
        .map(PodGroupWebhook::parseTotalCount)
        .orElse(new PodGroupWebhook.TotalCount(0, Optional.of("failed to extract '"
            + PodGroupWebhook.GROUP_TOTAL_COUNT_ANNOTATION + "' annotation")));
  }

  /** The spec a role is told by: the pod's without Kueue's scheduling gate, which the webhook added. */
  private static PodSpec role(PodSpec spec) {
    return spec.withSchedulingGates(spec.schedulingGates().stream()
        .filter(g -> !g.equals(PodGroupWebhook.SCHEDULING_GATE)).toList());
  }

  /**
   * {@code constructPodSet}: the pod's spec as it is (with the webhook's gate, as upstream's pod set
   * templates keep it), its requests and its TAS annotations' request.
   */
  private static PodSet podSet(String name, int count, Pod p) {
    PodSpec spec = p.spec();
    return new PodSet(name, count, PodRequests.of(spec), spec,
        TopologyRequest.fromAnnotations(p.meta().annotations().map()).request());
  }
}
