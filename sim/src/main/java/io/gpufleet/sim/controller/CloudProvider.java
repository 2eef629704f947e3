package io.gpufleet.sim.controller;

import io.gpufleet.model.cloud.Money;
import io.gpufleet.autoscaler.interruption.InterruptionMessage;
import io.gpufleet.sim.scenario.InterruptionNotice;
import io.gpufleet.engine.dra.NvidiaDraDriver;
import io.gpufleet.model.cloud.CapacityType;
import io.gpufleet.model.cloud.InstanceLabels;
import io.gpufleet.model.karpenter.KarpenterLabels;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodeClassRef;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.label.Labels;
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
import java.util.List;
import java.util.Map;
import java.util.Optional;

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

  /**
   * The error CreateFleet returns for the claim's offering now, if the scenario took its capacity
   * away: EC2's {@code InsufficientInstanceCapacity}, worded as the AWS provider passes it on
   * ({@code A:pkg/providers/instance/instance.go} "creating instance, insufficient capacity, with
   * fleet error(s)").
   */
  Optional<String> insufficientCapacity(NodeClaim c) {
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
    String slice = new NvidiaDraDriver(api.devicePlugin().operator().catalog())
        .slice(joined.node(), joined.migLayout())
        .map(s -> "; NVIDIA's DRA driver publishes ResourceSlice " + s.name() + " (" + s.devices().size()
            + (s.devices().size() == 1 ? " device)" : " devices)"))
        .orElse("");
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
