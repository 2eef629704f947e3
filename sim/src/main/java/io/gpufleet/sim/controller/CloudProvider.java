package io.gpufleet.sim.controller;

import io.gpufleet.model.cloud.Money;
import io.gpufleet.autoscaler.interruption.InterruptionMessage;
import io.gpufleet.sim.scenario.InterruptionNotice;
import io.gpufleet.engine.dra.NvidiaDraDriver;
import io.gpufleet.model.cloud.CapacityReservation;
import io.gpufleet.engine.mig.MigManager;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.cloud.InstanceLabels;
import io.gpufleet.model.cloud.NetworkTopologyLabels;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodeClassRef;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.dra.ResourceSlice;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.time.KubeDuration;
import io.gpufleet.sim.kernel.Event;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.state.NodeState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The simulated cloud: launches a NodeClaim's instance (its node registers after the configured
 * boot time, with {@code karpenter.sh/unregistered} and not-ready taints and {@code nvidia.com/gpu: 0}
 * until the device plugin registers, as the kubelet zeroes extended resources at start), draws spot
 * interruptions from the configured rate, warns two minutes ahead and then takes the instance back.
 */
final class CloudProvider {

  private final ApiServer api;
  private final RandomStreams random;
  private final Kubelet kubelet;
  /** Where the scenario took EC2's capacity away, and until when (empty: to the end of the run). */
  private final List<CapacityGap> gaps = new ArrayList<>();
  /** EC2's capacity reservations by id, as they stand (an ExpireReservation moves one's end). */
  private final TreeMap<String, CapacityReservation> reservations = new TreeMap<>();

  private record CapacityGap(String instanceType, Optional<String> zone, Optional<CapacityType> capacityType,
      Optional<Instant> until) {}

  CloudProvider(ApiServer api, RandomStreams random, Kubelet kubelet) {
    this.api = api;
    this.kubelet = kubelet;
    this.random = random;
  }

  /** From now on, EC2 has no capacity for the matching offerings, for {@code window} or to the end of the run. */
  void removeCapacity(String instanceType, Optional<String> zone, Optional<CapacityType> capacityType,
      Optional<Duration> window) {
    gaps.add(new CapacityGap(instanceType, zone, capacityType, window.map(api.now()::plus)));
  }

  /** EC2 holds these reservations from the start of the run; their starts and ends are scheduled. */
  void reserve(List<CapacityReservation> rs) {
    for (CapacityReservation r : rs) {
      reservations.put(r.id(), r);
      scheduleBoundaries(r);
    }
  }

  /** EC2's reservations, in id order. */
  Collection<CapacityReservation> reservations() {
    return reservations.values();
  }

  /** Whether EC2 has this reservation (in any state). */
  boolean hasReservation(String id) {
    return reservations.containsKey(id);
  }

  /** EC2 ends the reservation at {@code when}: its boundaries from there on are scheduled. */
  void endReservation(String id, Instant when) {
    CapacityReservation r = reservations.get(id).endingAt(when);
    reservations.put(id, r);
    scheduleBoundaries(r);
  }

  /**
   * When the reservation changes for Karpenter and EC2: its start, and for one with an end, the
   * capacity block's expiring (40 minutes before) and EC2's reclaim (30 minutes before), and the end.
   * A time already past is taken as now; each handling looks at the state then, so a repeat is harmless.
   */
  private void scheduleBoundaries(CapacityReservation r) {
    List<Instant> times = new ArrayList<>();
    r.start().ifPresent(times::add);
    r.end().ifPresent(end -> {
      if (r.type() == CapacityReservation.Type.CAPACITY_BLOCK) {
        times.add(end.minus(CapacityReservation.EXPIRATION_PERIOD));
        times.add(end.minus(CapacityReservation.EC2_RECLAIM_BEFORE_END));
      }
      times.add(end);
    });
    for (Instant t : times) {
      api.schedule(t.isBefore(api.now()) ? api.now() : t, new Event.ReservationBoundary(r.id()));
    }
  }

  /** Instances EC2 runs in each reservation now: the claims launched into it whose instance is not gone. */
  Map<String, Integer> runningInReservations() {
    Map<String, Integer> out = new TreeMap<>();
    for (NodeClaim c : api.state().claims().values()) {
      c.offering().reservationId().ifPresent(id -> out.merge(id, 1, Integer::sum));
    }
    return out;
  }

  /**
   * EC2's side of a reservation's time: logged; from 30 minutes before a capacity block's end, EC2
   * takes back the instances still running in it, drained or not ({@code A:pkg/controllers/capacityreservation/
   * expiration/controller.go}: Karpenter acts "10 minutes before EC2 begins reclaiming the instances").
   */
  void onReservationBoundary(Event.ReservationBoundary e) {
    CapacityReservation r = reservations.get(e.reservation());
    Instant now = api.now();
    api.log(RunRecord.Kind.CAPACITY_RESERVATION, r.id(), r.type().wireName() + " " + r.instanceType() + " in "
        + r.zone() + ": " + r.state(now).name().toLowerCase(java.util.Locale.ROOT));
    boolean reclaiming = r.type() == CapacityReservation.Type.CAPACITY_BLOCK && r.end().isPresent()
        && !now.isBefore(r.end().get().minus(CapacityReservation.EC2_RECLAIM_BEFORE_END));
    if (!reclaiming) {
      return;
    }
    for (NodeClaim c : List.copyOf(api.state().claims().values())) {
      if (c.offering().reservationId().map(r.id()::equals).orElse(false) && c.launched().isPresent()) {
        api.log(RunRecord.Kind.CAPACITY_RESERVATION, c.name(), "instance reclaimed by EC2: capacity block " + r.id()
            + " ends at " + r.end().get());
        api.instanceTerminated(c, "capacity block " + r.id() + " ended");
      }
    }
  }

  /**
   * The error CreateFleet returns for the claim's offering now, if the scenario took its capacity
   * away: EC2's {@code InsufficientInstanceCapacity}, worded as the AWS provider passes it on
   * ({@code A:pkg/providers/instance/instance.go} "creating instance, insufficient capacity, with
   * fleet error(s)"); for a reserved offering, {@code ReservationCapacityExceeded} when the
   * reservation is not active or all its instances run ({@code A:pkg/errors/errors.go}).
   */
  Optional<String> insufficientCapacity(NodeClaim c) {
    Optional<String> reservation = c.offering().reservationId();
    if (reservation.isPresent()) {
      CapacityReservation r = reservations.get(reservation.get());
      if (r == null || !r.listed(api.now()) || runningInReservations().getOrDefault(r.id(), 0) >= r.count()) {
        return Optional.of("creating instance, insufficient capacity, with fleet error(s), ReservationCapacityExceeded: "
            + "Insufficient capacity in capacity reservation " + reservation.get() + ".");
      }
    }
    for (CapacityGap g : gaps) {
      if (g.instanceType().equals(c.instanceType().name())
          && g.zone().map(c.offering().zone()::equals).orElse(true)
          && g.capacityType().map(t -> t == c.offering().capacityType()).orElse(true)
          && g.until().map(api.now()::isBefore).orElse(true)) {
        return Optional.of("creating instance, insufficient capacity, with fleet error(s), InsufficientInstanceCapacity: "
            + "We currently do not have sufficient " + c.instanceType().name() + " capacity in the Availability Zone "
            + "you requested (" + c.offering().zone() + ").");
      }
    }
    return Optional.empty();
  }

  /**
   * {@code cloudProvider.Create} succeeded: the claim is Launched and its instance boots, stamped
   * with its EC2NodeClass's static hash and the AMI it booted, for drift
   * ({@code A:pkg/cloudprovider/cloudprovider.go} Create annotates the EC2NodeClass hash; the image
   * is upstream's {@code status.imageID}). A pool whose class was never applied stamps nothing.
   */
  NodeClaim launch(NodeClaim claim) {
    NodeClaim launched = stamped(claim).withLaunched(api.now());
    api.claimLaunched(launched);
    api.log(RunRecord.Kind.NODECLAIM_LAUNCHED, launched.name(), launched.instanceType().name() + " "
        + launched.offering().capacityType() + " in " + launched.offering().zone() + " at "
        + Money.perHour(api.billedPrice(launched)));
    api.scheduleIn(api.settings().launchToRegistration(), new Event.NodeRegisters(claim.name()));
    drawInterruption(launched);
    return launched;
  }

  private NodeClaim stamped(NodeClaim claim) {
    for (NodePool p : api.state().nodePools()) {
      NodeClassRef ref = p.template().nodeClassRef();
      if (p.name().equals(claim.nodePool()) && ref.kind().equals("EC2NodeClass")
          && api.nodeClasses().containsKey(ref.name())) {
        return api.nodeClasses().get(ref.name()).stamp(claim);
      }
    }
    return claim;
  }

  /** The instance booted: its kubelet registers a Node named after the claim. */
  void onRegisters(Event.NodeRegisters e) {
    NodeClaim c = api.state().claims().get(e.claim());
    if (c == null || c.isDeleting() || api.state().nodes().get(c.name()) != null) {
      return;
    }
    String name = c.name();
    Labels labels = c.labels().with(InstanceLabels.HOSTNAME, name);
    if (NetworkTopologyLabels.described(c.instanceType().name())) {
      // The cloud controller manager's DescribeInstanceTopology labels, numbered per zone in registration order.
      String zone = c.offering().zone();
      int ordinal = (int) api.state().nodes().values().stream().filter(n -> n.node().labels().has(
          NetworkTopologyLabels.LAYER_1) && zone.equals(n.node().labels().get(InstanceLabels.ZONE).orElse(""))).count();
      labels = labels.withAll(NetworkTopologyLabels.of(zone, ordinal));
    }
    ResourceList alloc = api.realType(c).allocatable().withoutNvidiaGpus();
    ResourceList cap = api.realType(c).capacity().withoutNvidiaGpus();
    if (c.instanceType().gpuCount() > 0) {
      alloc = alloc.with(ResourceName.NVIDIA_GPU, Quantity.ZERO);
      cap = cap.with(ResourceName.NVIDIA_GPU, Quantity.ZERO);
    }
    List<Taint> taints = List.of(KarpenterLabels.UNREGISTERED, Kubelet.NOT_READY);
    Node node = new Node(ObjectMeta.clusterScoped(name, labels, Labels.EMPTY), taints, false, cap, alloc,
        Optional.of("aws:///" + c.offering().zone() + "/" + name), List.of());
    api.addNode(kubelet.joining(node, Optional.of(c.name()), Optional.of(c.nodePool()), c.instanceType().gpu(), false,
        false));
    NodeState joined = api.state().nodes().get(name);
    // Where its GPUs are left to NVIDIA's DRA driver, the driver's kubelet plugin publishes its slice now.
    List<ResourceSlice> published = new NvidiaDraDriver(api.devicePlugin().operator().catalog(), MigManager.STOCK,
        api.settings().draDriver()).slices(joined.node(), joined.migLayout());
    int devices = published.stream().mapToInt(s -> s.devices().size()).sum();
    String slice = published.isEmpty() ? "" : "; NVIDIA's DRA driver publishes ResourceSlice"
        + (published.size() == 1 ? " " : "s ") + String.join(", ", published.stream().map(ResourceSlice::name).toList())
        + " (" + devices + (devices == 1 ? " device)" : " devices)");
    api.log(RunRecord.Kind.NODE_REGISTERED, name, "kubelet registered (" + c.instanceType().name() + ")" + slice);
    api.scheduleIn(api.settings().registrationToReady(), new Event.NodeReady(name));
  }

  /**
   * Draws when a spot instance gets its interruption warning, if interruptions have a rate, from the
   * claim's own stream: the same claim in another run of the seed is warned at the same time.
   */
  private void drawInterruption(NodeClaim c) {
    double rate = api.settings().spotInterruptionsPerHour();
    if (rate <= 0 || c.offering().capacityType() != CapacityType.SPOT) {
      return;
    }
    double hours = -Math.log(1 - random.interruptions(c.name()).nextDouble()) / rate;
    long seconds = (long) Math.min(hours * 3600, 10L * 365 * 24 * 3600);
    api.scheduleIn(Duration.ofSeconds(seconds), new Event.SpotWarningDrawn(c.name()));
  }

  /** EC2's two-minute warning: the message goes to Karpenter's queue, the reclaim is scheduled. */
  void warn(NodeClaim c) {
    api.log(RunRecord.Kind.SPOT_INTERRUPTION_WARNING, c.name(), "reclaim in "
        + KubeDuration.format(api.settings().spotReclaimAfterWarning()));
    String node = c.nodeName().orElse(c.name());
    api.scheduleIn(api.settings().interruptionNoticeDelay(), new Event.InterruptionArrives(
        new InterruptionMessage(
            InterruptionMessage.Kind.SPOT_INTERRUPTED, node)));
    api.scheduleIn(api.settings().spotReclaimAfterWarning(), new Event.SpotReclaimed(c.name()));
  }

  /**
   * A notice about the instance reaches Karpenter's queue after the notice delay: a spot warning as
   * {@link #warn}; a state change also takes the instance (EC2 sends it as the instance stops or
   * terminates), just after Karpenter has read it; other notices change nothing on the instance.
   */
  void notify(NodeClaim c, InterruptionNotice notice) {
    if (notice == InterruptionNotice.SPOT_INTERRUPTION) {
      warn(c);
      return;
    }
    String node = c.nodeName().orElse(c.name());
    api.scheduleIn(api.settings().interruptionNoticeDelay(), new Event.InterruptionArrives(
        new InterruptionMessage(notice.message(), node)));
    if (notice.instanceGoes()) {
      api.scheduleIn(api.settings().interruptionNoticeDelay(), new Event.InstanceStateChanged(c.name(),
          notice.state().orElseThrow()));
    }
  }

  /** EC2 stopped or terminated the instance: it is gone, drained or not. */
  void onStateChanged(Event.InstanceStateChanged e) {
    NodeClaim c = api.state().claims().get(e.claim());
    if (c != null) {
      api.instanceTerminated(c, "instance " + e.state() + " by EC2");
    }
  }

  void onWarningDrawn(Event.SpotWarningDrawn e) {
    NodeClaim c = api.state().claims().get(e.claim());
    if (c != null && c.offering().capacityType() == CapacityType.SPOT) {
      warn(c);
    }
  }

  /** The instance is taken back, drained or not. */
  void onReclaimed(Event.SpotReclaimed e) {
    NodeClaim c = api.state().claims().get(e.claim());
    if (c == null) {
      return;
    }
    api.log(RunRecord.Kind.SPOT_RECLAIMED, c.name(), "instance terminated by EC2");
    api.instanceTerminated(c, "spot instance reclaimed");
  }
}
