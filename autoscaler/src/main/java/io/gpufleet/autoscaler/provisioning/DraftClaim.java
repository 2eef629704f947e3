package io.gpufleet.autoscaler.provisioning;

import io.gpufleet.autoscaler.requirement.Requirements;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.engine.scheduler.ResourceVector;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodRequests;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A NodeClaim being planned in one provisioning round: the pods placed on it so far, the requirements
 * they and its NodePool leave, and the instance types still able to host them all. Placement is two
 * steps, {@link #tryAdd}, which changes nothing, then {@link #commit}, so the round can re-sort its claims
 * between them, or copy a kept claim ({@link #kept}) to change the copy.
 */
final class DraftClaim {
  final NodePoolTemplate template;
  final int sequence;
  final List<Pod> pods = new ArrayList<>();
  Requirements requirements;
  List<TypeOption> options;
  ResourceVector podRequests = ResourceVector.ZERO;
  Headroom headroom;
  private final OfferingAvailability offerings;
  private final Instant now;
  /** The options the last {@link #tryFirst} kept. */
  private List<TypeOption> firstOptions;
  /** Whether the claim belongs to a kept round state that rounds read: none may change it then. */
  private boolean kept;

  /** A pod's place on the claim as {@link #tryAdd} found it: the requirements, options and requests it leaves. */
  record Staged(Pod pod, Requirements requirements, List<TypeOption> options, ResourceVector requests) {}

  DraftClaim(NodePoolTemplate template, Requirements requirements, List<TypeOption> options, int sequence,
      OfferingAvailability offerings, Instant now) {
    this.offerings = offerings;
    this.now = now;
    this.template = template;
    this.requirements = requirements;
    this.options = options;
    this.sequence = sequence;
  }

  /** The claim as it is now, to go on placing apart from this one (not kept). */
  DraftClaim copy() {
    DraftClaim c = new DraftClaim(template, requirements, options, sequence, offerings, now);
    c.pods.addAll(pods);
    c.podRequests = podRequests;
    c.headroom = headroom;
    return c;
  }

  /** Marks the claim as part of a kept round state ({@link ProvisioningRound#keep}): read, copied, never changed. */
  void keep() {
    kept = true;
  }

  boolean kept() {
    return kept;
  }

  /** The name DRA sizing knows this claim by until it is launched. */
  String draName() {
    return template.name() + "-draft-" + sequence;
  }

  /**
   * Filters every option for the first pod, keeping those {@code dra} accepts (all but for a pod
   * whose DRA claims the twin sizes); returns why none is left, or null.
   */
  String tryFirst(Pod pod, ResourceVector req, Predicate<TypeOption> dra) {
    boolean draRefused = false;
    boolean reqMet = false;
    boolean fits = false;
    boolean offering = false;
    boolean reqFits = false;
    boolean reqOffering = false;
    boolean fitsOffering = false;
    List<TypeOption> kept = new ArrayList<>();
    for (TypeOption o : options) {
      boolean c = o.requirements().intersects(requirements);
      boolean f = o.fits(req, 1);
      boolean h = hasOffering(o, requirements);
      reqMet |= c;
      fits |= f;
      offering |= h;
      reqFits |= c && f && !h;
      reqOffering |= c && h && !f;
      fitsOffering |= f && h && !c;
      if (c && f && h) {
        if (dra.test(o)) {
          kept.add(o);
        } else {
          draRefused = true;
        }
      }
    }
    if (kept.isEmpty() && draRefused) {
      return SchedulingMessages.DRA_UNSATISFIED;
    }
    if (kept.isEmpty()) {
      return SchedulingMessages.failureReason(reqMet, fits, offering, reqFits, reqOffering, fitsOffering);
    }
    List<String> unmet = template.minValues().unmet(kept);
    if (!unmet.isEmpty()) {
      return SchedulingMessages.minValuesNotMet(unmet);
    }
    firstOptions = kept;
    return null;
  }

  /**
   * Whether any option left could still take a pod of this request beside the claim's pods: when not,
   * it cannot later either, the options only narrowing and the pods only growing as pods join.
   */
  boolean admits(ResourceVector req) {
    return headroom.admits(req, pods.size() + 1);
  }

  /** Where the pod would leave this claim if it went here, or null where it cannot; changes nothing. */
  Staged tryAdd(Pod pod, ResourceVector req, Requirements podReqs, Predicate<TypeOption> dra) {
    if (!headroom.admits(req, pods.size() + 1)) {
      return null;
    }
    if (Provisioner.untolerated(template.pool().template().taints(), pod) != null) {
      return null;
    }
    if (requirements.incompatibility(podReqs, template.wellKnown()).isPresent()) {
      return null;
    }
    Requirements merged = requirements.and(podReqs);
    boolean sameReqs = merged.equals(requirements);
    ResourceVector next = podRequests.plus(req);
    List<TypeOption> kept = new ArrayList<>(options.size());
    for (TypeOption o : options) {
      if (o.fits(next, pods.size() + 1)
          && (sameReqs || (o.requirements().intersects(merged) && hasOffering(o, merged))) && dra.test(o)) {
        kept.add(o);
      }
    }
    if (kept.isEmpty() || !template.minValues().satisfiedBy(kept)) {
      return null;
    }
    return new Staged(pod, sameReqs ? requirements : merged, kept, next);
  }

  /** The options the last {@link #tryFirst} kept. */
  List<TypeOption> firstOptions() {
    return firstOptions;
  }

  /** The pod as the first on the claim, with the requirements and options {@link #tryFirst} left. */
  Staged first(Pod pod, Requirements reqs, List<TypeOption> kept, ResourceVector req) {
    return new Staged(pod, reqs, kept, podRequests.plus(req));
  }

  void commit(Staged s) {
    if (kept) {
      throw new IllegalStateException("a kept claim changes only as a copy");
    }
    pods.add(s.pod());
    requirements = s.requirements();
    options = s.options();
    podRequests = s.requests();
    headroom = Headroom.of(options, podRequests);
  }

  private boolean hasOffering(TypeOption o, Requirements reqs) {
    return OfferingFilter.of(reqs).anyAvailable(o.type(), offerings, now);
  }

  /** {@code requests}: each pod spec's requests ({@link PodRequests#of}). */
  PlannedClaim toPlannedClaim(Function<PodSpec, ResourceList> requests) {
    List<TypeOption> sorted = new ArrayList<>(options);
    Map<TypeOption, Double> price = new IdentityHashMap<>(); // equal options have equal prices
    OfferingFilter filter = OfferingFilter.of(requirements);
    for (TypeOption o : sorted) {
      price.put(o, filter.cheapestAvailable(o.type(), offerings, now));
    }
    sorted.sort(Comparator.<TypeOption>comparingDouble(price::get).thenComparing(o -> o.type().name()));
    ResourceList total = ResourceList.EMPTY;
    for (Pod p : pods) {
      total = total.plus(requests.apply(p.spec()));
    }
    return new PlannedClaim(template, pods, requirements, sorted.stream().map(TypeOption::type).toList(), total);
  }
}
