package io.gpufleet.sim.controller;

import io.gpufleet.model.cloud.Money;
import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.meta.ObjectRef;
import io.gpufleet.model.resource.ResourceName;
import io.gpufleet.sim.scenario.Condition;
import io.gpufleet.sim.scenario.NodeRef;
import io.gpufleet.sim.state.ClusterState;
import io.gpufleet.sim.state.NodeState;
import io.gpufleet.sim.state.PodState;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Evaluates scenario conditions and resolves node and workload references on an image. */
final class Conditions {
  private Conditions() {}

  /** Whether a condition holds, and what was seen. */
  record Outcome(boolean holds, String seen) {}

  static Outcome evaluate(Condition c, ClusterState s, RunFacts facts) {
    return switch (c) {
      case Condition.PodRunningOn r -> {
        Optional<String> node = resolve(r.node(), s);
        Optional<ObjectRef> w = workload(r.workload(), s);
        if (node.isEmpty() || w.isEmpty()) {
          yield new Outcome(false, node.isEmpty() ? "no " + r.node() : "no workload " + r.workload());
        }
        boolean any = s.podsOf(w.get()).stream().anyMatch(p -> p.phase() == PodState.Phase.RUNNING
            && !p.isTerminating() && p.node().equals(node));
        yield new Outcome(any, any ? "running on " + node.get() : "no pod of " + r.workload() + " running on "
            + node.get());
      }
      case Condition.PodReady r -> {
        String key = r.pod().contains("/") ? r.pod() : ObjectMeta.key(ObjectMeta.DEFAULT_NAMESPACE, r.pod());
        PodState p = s.pods().get(key);
        boolean ready = p != null && p.isReady();
        yield new Outcome(ready, p == null ? "no pod " + key : key + (ready ? " ready" : " not ready (" + p.phase()
            .name().toLowerCase(Locale.ROOT) + ")"));
      }
      case Condition.ReadyPods r -> {
        Optional<ObjectRef> w = workload(r.workload(), s);
        int ready = w.map(k -> (int) s.podsOf(k).stream().filter(PodState::isReady).count()).orElse(0);
        yield new Outcome(r.comparison().test(ready, r.count()), ready + " ready");
      }
      case Condition.NodeCount r -> {
        int n = 0;
        for (NodeState ns : s.nodes().values()) {
          if (r.selector().matches(ns.node().labels())) {
            n++;
          }
        }
        yield new Outcome(r.comparison().test(n, r.count()), n + " nodes");
      }
      case Condition.NodeInitialized r -> {
        Optional<String> node = resolve(r.node(), s);
        if (node.isEmpty()) {
          yield new Outcome(false, "no " + r.node());
        }
        NodeState ns = s.nodes().get(node.get());
        boolean init = ns.claim().map(cl -> s.claims().get(cl)).map(NodeClaim::isInitialized).orElse(ns.ready());
        yield new Outcome(init, node.get() + (init ? " initialized" : " not initialized"));
      }
      case Condition.ResourceAdvertised r -> {
        Optional<String> node = resolve(r.node(), s);
        if (node.isEmpty()) {
          yield new Outcome(false, "no " + r.node());
        }
        long v = s.nodes().get(node.get()).node().allocatable().getOrZero(ResourceName.of(r.resource())).value();
        yield new Outcome(r.comparison().test(v, r.quantity()), node.get() + " advertises " + r.resource() + ": " + v);
      }
      case Condition.PendingPods r -> {
        int n = s.pending().size();
        yield new Outcome(r.comparison().test(n, r.count()), n + " pending");
      }
      case Condition.NodeClaimCount r -> {
        int n = 0;
        for (NodeClaim claim : s.claims().values()) {
          if (r.selector().matches(claim.labels())) {
            n++;
          }
        }
        yield new Outcome(r.comparison().test(n, r.count()), n + " NodeClaims");
      }
      case Condition.Events e -> {
        if (!facts.recording()) {
          yield new Outcome(false, "the run record is off (recordEvents false), so no events are counted");
        }
        int n = facts.events(e);
        yield new Outcome(e.comparison().test(n, e.count()), n + " events");
      }
      case Condition.Disruptions d -> {
        int n = facts.disruptions(d);
        yield new Outcome(d.comparison().test(n, d.count()), n + " NodeClaims disrupted");
      }
      case Condition.Evictions e -> {
        int n = facts.evictions(e);
        yield new Outcome(e.comparison().test(n, e.count()), n + " evictions");
      }
      case Condition.Cost k -> {
        double dollars = facts.cost();
        yield new Outcome(k.comparison().test(dollars, k.dollars()),
            Money.dollars(dollars) + " so far");
      }
      case Condition.All a -> {
        List<String> seen = new ArrayList<>();
        boolean all = true;
        for (Condition x : a.conditions()) {
          Outcome o = evaluate(x, s, facts);
          all &= o.holds();
          seen.add(o.seen());
        }
        yield new Outcome(all, String.join("; ", seen));
      }
      case Condition.Not n -> {
        Outcome o = evaluate(n.condition(), s, facts);
        yield new Outcome(!o.holds(), "not: " + o.seen());
      }
    };
  }

  static Optional<String> resolve(NodeRef ref, ClusterState s) {
    return switch (ref) {
      case NodeRef.Named n -> s.nodes().get(n.name()) != null ? Optional.of(n.name()) : Optional.empty();
      case NodeRef.Selected sel -> {
        List<String> names = new ArrayList<>();
        s.nodes().forEach((k, v) -> {
          if (sel.selector().matches(v.node().labels())) {
            names.add(k);
          }
        });
        names.sort(null);
        yield sel.index() < names.size() ? Optional.of(names.get(sel.index())) : Optional.empty();
      }
      case NodeRef.Hosting h -> {
        Optional<ObjectRef> w = workload(h.workload(), s);
        if (w.isEmpty()) {
          yield Optional.empty();
        }
        List<PodState> bound = s.podsOf(w.get()).stream().filter(p -> p.node().isPresent() && !p.isTerminating())
            .toList();
        yield h.index() < bound.size() ? bound.get(h.index()).node() : Optional.empty();
      }
    };
  }

  /** {@code name}, {@code Kind/name} or {@code Kind/namespace/name} to a workload key. */
  static Optional<ObjectRef> workload(String ref, ClusterState s) {
    String[] parts = ref.split("/");
    // The first match in key order, found in one pass: a scale step per service per hour would
    // otherwise copy and sort every workload key, a cost that grows with the services squared.
    ObjectRef[] first = new ObjectRef[1];
    s.workloads().forEach((k, w) -> {
      var wl = w.workload();
      boolean match = switch (parts.length) {
        case 1 -> wl.name().equals(parts[0]) && wl.meta().namespace().equals("default");
        case 2 -> wl.kind().equals(parts[0]) && wl.name().equals(parts[1]) && wl.meta().namespace().equals("default");
        default -> wl.kind().equals(parts[0]) && wl.meta().namespace().equals(parts[1]) && wl.name().equals(parts[2]);
      };
      if (match && (first[0] == null || k.compareTo(first[0]) < 0)) {
        first[0] = k;
      }
    });
    return Optional.ofNullable(first[0]);
  }
}
