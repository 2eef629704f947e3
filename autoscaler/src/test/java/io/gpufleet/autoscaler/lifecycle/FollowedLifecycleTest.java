package io.gpufleet.autoscaler.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.autoscaler.action.Action;
import io.gpufleet.autoscaler.provisioning.Launcher;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.OfferingAvailability;
import io.gpufleet.autoscaler.state.PdbIndex;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.collect.PMap;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * One lifecycle controller that follows the claims' state nodes by their diffs answers as a new one
 * that walks every claim does, reconcile after reconcile, while claims come, go and move through
 * their lifecycle (launch, registration, initialisation, deletion, drift, expiry), their nodes gain
 * and lose taints, state nodes are replaced by equal ones, the NodePools and catalogue change (and
 * change back), drift is checked or not, and time moves past the launch, registration,
 * initialisation and expiry deadlines. No action is applied for it, so claims act again and again.
 */
class FollowedLifecycleTest {

  private static final Instant T0 = Instant.parse("2026-01-05T00:00:00Z");
  private static final Taint NOT_READY = Taint.of("node.kubernetes.io/not-ready", "", TaintEffect.NO_SCHEDULE);

  @Test
  void followedAnswersEqualAWalkOverEveryClaim() {
    for (long seed = 1; seed <= 6; seed++) {
      AutoscalerSettings settings = seed % 2 == 0 ? AutoscalerSettings.DEFAULTS
          : AutoscalerSettings.DEFAULTS.withInitializationTimeout(Optional.of(Duration.ofMinutes(15)));
      run(new SplittableRandom(20261206L + seed), settings);
    }
  }

  private void run(SplittableRandom r, AutoscalerSettings settings) {
    InstanceCatalog full = InstanceCatalog.builtIn();
    InstanceCatalog noM5Large = DriftMemoTest.withoutM5Large(full);
    NodePool base = DriftMemoTest.onDemandM5();
    List<List<NodePool>> poolLists = List.of(List.of(base),
        List.of(base.withTemplate(base.template().withLabels(Labels.of("team", "a")))), // another template hash
        List.of(), // no pool: nothing drifts
        List.of(NodePool.of("general", base.template()))); // equal to base, another object
    List<InstanceType> types = List.of(full.require("m5.large"), full.require("m5.xlarge"));
    NodeClaimLifecycle kept = new NodeClaimLifecycle(settings);
    List<StateNode> nodes = new ArrayList<>(); // the view's order
    PMap<String, StateNode> claimNodes = PMap.empty();
    Map<String, Integer> counts = new HashMap<>();
    Instant now = T0;
    int pools = 0;
    InstanceCatalog catalog = full;
    int made = 0;
    int several = 0;
    for (int step = 0; step < 1500; step++) {
      int changes = r.nextInt(4);
      for (int k = 0; k < changes; k++) {
        int what = r.nextInt(10);
        if (what <= 1 || nodes.isEmpty()) { // a new claim, or an unmanaged node
          StateNode n = r.nextInt(6) == 0 ? unmanaged("u" + made++)
              : claimNode(fresh(poolLists.get(r.nextInt(2)).getFirst(), types.get(r.nextInt(2)), made++, now, r),
                  r.nextBoolean());
          nodes.add(r.nextInt(nodes.size() + 1), n);
          if (n.claim().isPresent()) {
            claimNodes = claimNodes.put(n.claim().get().name(), n);
          }
        } else {
          int i = r.nextInt(nodes.size());
          StateNode n = nodes.get(i);
          if (n.claim().isEmpty()) {
            if (what == 2) {
              nodes.remove(i);
            }
            continue;
          }
          String name = n.claim().get().name();
          StateNode next = switch (what) {
            case 2 -> null; // gone
            case 3, 4, 5 -> claimNode(advance(n.claim().get(), now, r), r.nextBoolean());
            case 6 -> claimNode(n.claim().get(), n.node().isEmpty() || r.nextBoolean()); // the node's taint changes
            case 7 -> new StateNode(n.name(), n.claim(), n.node(), n.pods(), n.terminating(), n.lastPodEvent(),
                n.markedForDeletion()); // an equal state node
            default -> claimNode(n.claim().get().withExpiry(Optional.of(Duration.ofMinutes(r.nextInt(20, 400))),
                Optional.empty()), n.node().map(x -> x.taints().isEmpty()).orElse(false));
          };
          if (next == null) {
            nodes.remove(i);
            claimNodes = claimNodes.remove(name);
          } else {
            nodes.set(i, next);
            claimNodes = claimNodes.put(name, next);
          }
        }
      }
      switch (r.nextInt(8)) {
        case 0 -> pools = r.nextInt(poolLists.size());
        case 1 -> catalog = r.nextBoolean() ? full : noM5Large;
        default -> { }
      }
      now = now.plus(Duration.ofSeconds(r.nextInt(0, 900)));
      boolean checkDrift = r.nextInt(3) == 0;
      ClusterView view = new ClusterView(now, poolLists.get(pools), catalog, OfferingAvailability.ALL, nodes,
          List.of(), List.of(), PdbIndex.NONE);
      List<Action> followed = kept.reconcile(view, checkDrift, Map.of(), claimNodes);
      List<Action> walked = new NodeClaimLifecycle(settings).reconcile(view, checkDrift, Map.of());
      assertThat(followed).as("step %d", step).isEqualTo(walked);
      walked.forEach(a -> counts.merge(a.getClass().getSimpleName() + (a instanceof Action.DeleteNodeClaim d
          ? d.reason().toString() : ""), 1, Integer::sum));
      several += walked.stream().map(FollowedLifecycleTest::claimOf).distinct().count() > 1 ? 1 : 0;
      // Most actions are applied, as a runtime does, so most claims settle; some are left to act again.
      for (Action a : walked) {
        StateNode n = claimNodes.get(claimOf(a));
        if (n == null || r.nextInt(5) == 0) {
          continue;
        }
        NodeClaim c = n.claim().get();
        NodeClaim next = switch (a) {
          case Action.MarkRegistered m -> c.isRegistered() ? c : c.withRegistered(now, m.node());
          case Action.MarkInitialized m -> c.isInitialized() ? c : c.withInitialized(now);
          case Action.MarkDrifted m -> c.withDrifted(Optional.of(m.reason()));
          case Action.DeleteNodeClaim d -> c.isDeleting() ? c : c.withDeletionRequested(now);
          default -> c;
        };
        if (next != c) {
          StateNode s = new StateNode(n.name(), Optional.of(next), n.node(), List.of(), Set.of(), T0, false);
          nodes.set(nodes.indexOf(n), s);
          claimNodes = claimNodes.put(next.name(), s);
        }
      }
    }
    // The steps reach every kind of answer, and several claims act at once (their order is the view's).
    assertThat(counts).containsKeys("MarkRegistered", "MarkInitialized", "MarkDrifted", "DeleteNodeClaimExpired",
        "DeleteNodeClaimLaunchTimeout", "DeleteNodeClaimRegistrationTimeout");
    if (settings.initializationTimeout().isPresent()) {
      assertThat(counts).containsKey("DeleteNodeClaimInitializationTimeout");
    }
    assertThat(several).isGreaterThan(50);
  }

  private static String claimOf(Action a) {
    return switch (a) {
      case Action.DeleteNodeClaim d -> d.claim();
      case Action.MarkRegistered m -> m.claim();
      case Action.MarkInitialized m -> m.claim();
      case Action.MarkDrifted m -> m.claim();
      case Action.RecordEvent e -> e.object();
      default -> a.toString();
    };
  }

  private static NodeClaim fresh(NodePool pool, InstanceType type, int seed, Instant now, SplittableRandom r) {
    NodeClaim c = Launcher.nodeClaim(pool, type, type.offerings().stream()
            .filter(o -> o.capacityType().name().equals("ON_DEMAND")).findFirst().orElseThrow(),
        ResourceList.EMPTY, now.minus(Duration.ofMinutes(r.nextInt(0, 30))), new SplittableRandom(seed));
    for (int i = r.nextInt(4); i > 0; i--) {
      c = advance(c, now, r);
    }
    return c;
  }

  /** The claim one step further on: launched, registered, initialised, then drifted or deleting. */
  private static NodeClaim advance(NodeClaim c, Instant now, SplittableRandom r) {
    if (!c.isLaunched()) {
      return c.withLaunched(now);
    } else if (!c.isRegistered()) {
      return c.withRegistered(now, c.name());
    } else if (!c.isInitialized()) {
      return c.withInitialized(now);
    }
    return r.nextBoolean() ? c.withDrifted(Optional.of("NodePoolDrifted")) : c.withDeletionRequested(now);
  }

  /** The claim's state node: with a node (ready or not) once it launched, if {@code withNode}. */
  private static StateNode claimNode(NodeClaim c, boolean ready) {
    Optional<Node> node = c.isLaunched() ? Optional.of(Node.of(c.nodeName().orElse(c.name()), c.labels(),
        ready ? List.of() : List.of(NOT_READY), c.instanceType().allocatable())) : Optional.empty();
    return new StateNode(c.nodeName().orElse(c.name()), Optional.of(c), c.isRegistered() || ready ? node
        : Optional.empty(), List.of(), Set.of(), T0, false);
  }

  private static StateNode unmanaged(String name) {
    return new StateNode(name, Optional.empty(), Optional.of(Node.of(name, Labels.EMPTY, List.of(),
        ResourceList.EMPTY)), List.of(), Set.of(), T0, false);
  }
}
