package io.gpufleet.cli;

import io.gpufleet.cli.RealWorldSuiteTest.Check;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The suite's expectation vocabulary (examples/real-world/cases.yaml's header) checked against each
 * command that shows it, and the agreement between commands. Each check names the command, whether
 * it passed, and what was expected and found.
 */
final class RealWorldExpectations {

  private RealWorldExpectations() {}

  static List<Check> check(Map<String, Object> expectation, RealWorldViews v) {
    if (expectation.size() != 1) {
      throw new IllegalArgumentException("an expectation has one key, found " + expectation.keySet());
    }
    String kind = expectation.keySet().iterator().next();
    @SuppressWarnings("unchecked")
    Map<String, Object> a = expectation.get(kind) instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    List<Check> out = new ArrayList<>();
    switch (kind) {
      case "advertises" -> {
        String node = s(a, "node");
        String res = s(a, "resource");
        String count = s(a, "count");
        String what = kind + " " + node + " " + res + "=" + count;
        if (v.describe().run().ok()) {
          RealWorldViews.NodeView n = v.describe().nodes().get(node);
          String found = n == null ? "no such node" : n.allocatable().getOrDefault(res, "none");
          out.add(check("node describe", count.equals(found), what, found));
        }
        if (v.simulate().run().ok()) {
          RealWorldViews.SimNode n = v.simulate().nodes().get(node);
          String found = n == null ? "no such node" : n.gpuAllocatable().getOrDefault(res, "none");
          out.add(check("simulate -f", count.equals(found), what, found));
        }
      }
      case "gpus" -> {
        String node = s(a, "node");
        int count = Integer.parseInt(s(a, "count"));
        String what = kind + " " + node + " " + count;
        if (v.describe().run().ok()) {
          RealWorldViews.NodeView n = v.describe().nodes().get(node);
          String found = n == null ? "no such node" : n.gpus().map(String::valueOf).orElse("none");
          out.add(check("node describe", String.valueOf(count).equals(found), what, found));
        }
        if (v.smi().run().ok()) {
          Integer found = v.smi().cards().get(node);
          out.add(check("smi", Objects.equals(found, count), what, String.valueOf(found)));
        }
      }
      case "label", "labelEndsWith" -> {
        String node = s(a, "node");
        String key = s(a, "key");
        String want = kind.equals("label") ? s(a, "value") : s(a, "suffix");
        if (v.describe().run().ok()) {
          RealWorldViews.NodeView n = v.describe().nodes().get(node);
          String found = n == null ? null : n.labels().get(key);
          boolean pass = found != null && (kind.equals("label") ? found.equals(want) : found.endsWith(want));
          out.add(check("node describe", pass, kind + " " + key + " " + want, String.valueOf(found)));
        }
      }
      case "placement" -> {
        String pod = s(a, "pod");
        String node = s(a, "node");
        String what = "placement " + pod + " on " + node;
        if (v.schedule().run().ok()) {
          RealWorldViews.PodState p = v.schedule().pods().get(pod);
          String found = p == null ? "no such pod" : p.node().orElse(p.phase() + ": " + p.message());
          out.add(check("schedule", node.equals(found), what, found));
        }
        if (v.smi().run().ok()) {
          String found = v.smi().placements().getOrDefault(pod, v.smi().withoutGpu().getOrDefault(pod, "not shown"));
          out.add(check("smi", node.equals(found), what, found));
        }
        if (v.simulate().run().ok()) {
          RealWorldViews.SimPod p = v.simulate().pods().get(pod);
          String found = p == null ? "no such pod" : p.status().equals("Pending") ? "Pending" : p.node();
          out.add(check("simulate -f", node.equals(found), what, found));
        }
      }
      case "placedCount" -> {
        String prefix = s(a, "prefix");
        String node = s(a, "node");
        int count = Integer.parseInt(s(a, "count"));
        String what = "placedCount " + prefix + "* on " + node + " " + count;
        if (v.schedule().run().ok()) {
          long n = v.schedule().pods().entrySet().stream()
              .filter(e -> e.getKey().startsWith(prefix) && e.getValue().node().equals(java.util.Optional.of(node))).count();
          out.add(check("schedule", n == count, what, String.valueOf(n)));
        }
        if (v.smi().run().ok()) {
          long n = v.smi().placements().entrySet().stream()
              .filter(e -> e.getKey().startsWith(prefix) && e.getValue().equals(node)).count();
          out.add(check("smi", n == count, what, String.valueOf(n)));
        }
        if (v.simulate().run().ok()) {
          long n = v.simulate().pods().entrySet().stream().filter(e -> e.getKey().startsWith(prefix)
              && !e.getValue().status().equals("Pending") && e.getValue().node().equals(node)).count();
          out.add(check("simulate -f", n == count, what, String.valueOf(n)));
        }
      }
      case "pending" -> {
        String pod = s(a, "pod");
        String message = a.containsKey("messageContains") ? s(a, "messageContains") : "";
        String what = "pending " + pod + (message.isEmpty() ? "" : " with \"" + message + "\"");
        if (v.schedule().run().ok()) {
          RealWorldViews.PodState p = v.schedule().pods().get(pod);
          boolean pass = p != null && p.phase().equals("Pending") && p.node().isEmpty() && p.message().contains(message);
          out.add(check("schedule", pass, what, p == null ? "no such pod" : p.phase() + " " + p.node().orElse("") + " " + p.message()));
        }
        if (v.smi().run().ok()) {
          String m = v.smi().withoutGpu().get(pod);
          out.add(check("smi", m != null && m.contains(message), what,
              m != null ? m : v.smi().placements().getOrDefault(pod, "not shown")));
        }
        if (v.simulate().run().ok()) {
          RealWorldViews.SimPod p = v.simulate().pods().get(pod);
          boolean pass = p != null && p.status().equals("Pending")
              && (message.isEmpty() || v.simulate().events().contains(message));
          out.add(check("simulate -f", pass, what, p == null ? "no such pod" : p.status() + " " + p.node()));
        }
      }
      case "pendingCount" -> {
        String prefix = s(a, "prefix");
        int count = Integer.parseInt(s(a, "count"));
        String what = "pendingCount " + prefix + "* " + count;
        if (v.schedule().run().ok()) {
          long n = v.schedule().pods().entrySet().stream()
              .filter(e -> e.getKey().startsWith(prefix) && e.getValue().phase().equals("Pending")).count();
          out.add(check("schedule", n == count, what, String.valueOf(n)));
        }
        if (v.smi().run().ok()) {
          long n = v.smi().withoutGpu().keySet().stream().filter(k -> k.startsWith(prefix)).count();
          out.add(check("smi", n == count, what, String.valueOf(n)));
        }
        if (v.simulate().run().ok()) {
          long n = v.simulate().pods().entrySet().stream()
              .filter(e -> e.getKey().startsWith(prefix) && e.getValue().status().equals("Pending")).count();
          out.add(check("simulate -f", n == count, what, String.valueOf(n)));
        }
      }
      case "failed" -> {
        String pod = s(a, "pod");
        String reason = s(a, "reasonContains");
        String what = "failed " + pod + " " + reason;
        if (v.schedule().run().ok()) {
          RealWorldViews.PodState p = v.schedule().pods().get(pod);
          boolean pass = p != null && p.phase().equals("Failed") && (p.reason() + " " + p.message()).contains(reason);
          out.add(check("schedule", pass, what, p == null ? "no such pod" : p.phase() + " " + p.reason()));
        }
        if (v.simulate().run().ok()) {
          boolean pass = v.simulate().events().lines()
              .anyMatch(l -> l.contains("PodFailed") && l.contains(pod) && l.contains(reason));
          out.add(check("simulate -f", pass, what, pass ? "PodFailed" : "no PodFailed event naming it"));
        }
      }
      case "runs" -> {
        if (v.simulate().run().ok()) {
          RealWorldViews.SimPod p = v.simulate().pods().get(s(a, "pod"));
          out.add(check("simulate -f", p != null && p.status().equals("Running"), "runs " + s(a, "pod"),
              p == null ? "no such pod" : p.status()));
        }
      }
      case "launches", "launchesFamily", "noLaunch", "launchedAdvertises" -> {
        if (v.simulate().run().ok()) {
          List<RealWorldViews.SimNode> launched = v.simulate().nodes().values().stream()
              .filter(n -> !n.nodePool().equals("<none>")).toList();
          String found = launched.stream().map(n -> n.instanceType() + " " + n.gpuAllocatable()).toList().toString();
          boolean pass = switch (kind) {
            case "launches" -> launched.stream().anyMatch(n -> n.instanceType().equals(s(a, "instanceType")));
            case "launchesFamily" -> launched.stream().anyMatch(n -> n.instanceType().startsWith(s(a, "family") + "."));
            case "noLaunch" -> launched.isEmpty();
            default -> launched.stream().anyMatch(n -> s(a, "count").equals(n.gpuAllocatable().get(s(a, "resource"))));
          };
          out.add(check("simulate -f", pass, kind + " " + a, found));
        }
      }
      case "accepted" -> {
        if (v.lint().run().ok()) {
          List<String> rejected = v.lint().findings().stream().filter(f -> f.rule().equals("manifest-rejected"))
              .map(RealWorldViews.Finding::message).toList();
          out.add(check("lint", rejected.isEmpty(), "accepted (no manifest-rejected)", rejected.toString()));
        }
      }
      case "lintNoFinding" -> {
        if (v.lint().run().ok()) {
          List<String> found = v.lint().findings().stream().filter(f -> f.rule().equals(s(a, "rule")))
              .map(RealWorldViews.Finding::message).toList();
          out.add(check("lint", found.isEmpty(), "no " + s(a, "rule") + " finding", found.toString()));
        }
      }
      default -> throw new IllegalArgumentException("unknown expectation " + kind);
    }
    return out;
  }

  /** Each node's first twin in name order (itself where it has none), from node describe. */
  private static Map<String, String> twins(RealWorldViews v) {
    Map<String, String> out = new TreeMap<>();
    if (!v.describe().run().ok()) {
      return out;
    }
    Map<List<Object>, String> first = new java.util.HashMap<>();
    new TreeMap<>(v.describe().nodes()).forEach((name, n) -> {
      Map<String, String> labels = new TreeMap<>(n.labels());
      labels.remove("kubernetes.io/hostname");
      out.put(name, first.computeIfAbsent(List.of(labels, n.allocatable()), k -> name));
    });
    return out;
  }

  /** The commands agree on each pod's node and on each node's advertised devices. */
  static List<Check> agreement(RealWorldViews v) {
    List<Check> out = new ArrayList<>();
    Set<String> inputNodes = new TreeSet<>();
    if (v.describe().run().ok()) {
      inputNodes.addAll(v.describe().nodes().keySet());
    }
    // Twins (the same labels but the hostname, the same allocatable) tie in every score, and
    // kube-scheduler picks at random among tied nodes (schedule_one.go selectHost); schedule and
    // simulate draw from streams of their own, so a pod may land on either twin: a twin counts as one.
    Map<String, String> twin = twins(v);
    if (v.schedule().run().ok() && v.simulate().run().ok()) {
      Map<String, String> schedule = new TreeMap<>();
      // simulate -f runs on past the pass schedule prints: victims have gone, preemptors have bound.
      v.schedule().pods().forEach((k, p) -> p.settled().filter(inputNodes::contains)
          .ifPresent(n -> schedule.put(k, twin.getOrDefault(n, n))));
      Map<String, String> simulate = new TreeMap<>();
      v.simulate().pods().forEach((k, p) -> {
        if (!p.status().equals("Pending") && inputNodes.contains(p.node())) {
          simulate.put(k, twin.getOrDefault(p.node(), p.node()));
        }
      });
      // Both name the pods the controllers make from the seed's names stream (SeededStreams.NAMES).
      Set<String> unnamed = new TreeSet<>();
      v.schedule().pods().forEach((k, p) -> {
        if (p.settled().isPresent() && !v.simulate().pods().containsKey(k)) {
          unnamed.add(k);
        }
      });
      out.add(check("agree", unnamed.isEmpty(), "simulate -f has every pod schedule places, by name",
          "missing from simulate: " + unnamed));
      Set<String> exact = new TreeSet<>(v.schedule().pods().keySet());
      exact.retainAll(v.simulate().pods().keySet());
      var a = RealWorldSuiteTest.byGroup(schedule, exact);
      var b = RealWorldSuiteTest.byGroup(simulate, exact);
      out.add(check("agree", a.equals(b), "schedule and simulate -f place the same pods on the same nodes",
          "schedule " + a + ", simulate " + b));
    }
    if (v.schedule().run().ok() && v.smi().run().ok()) {
      Set<String> exact = new TreeSet<>(v.schedule().pods().keySet());
      exact.retainAll(v.smi().placements().keySet());
      Map<String, String> schedule = new TreeMap<>();
      v.schedule().pods().forEach((k, p) -> p.node().ifPresent(n -> schedule.put(k, n)));
      var smi = RealWorldSuiteTest.byGroup(v.smi().placements(), exact);
      var sched = RealWorldSuiteTest.byGroup(schedule, exact);
      sched.keySet().retainAll(smi.keySet());
      out.add(check("agree", smi.equals(sched), "smi shows each GPU pod on schedule's node",
          "smi " + smi + ", schedule " + sched));
    }
    if (v.describe().run().ok()) {
      Predicate<String> device = r -> r.contains("/") && !r.startsWith("hugepages");
      for (var e : v.describe().nodes().entrySet()) {
        Map<String, String> described = new TreeMap<>(e.getValue().allocatable());
        described.keySet().removeIf(device.negate());
        if (v.simulate().run().ok() && v.simulate().nodes().containsKey(e.getKey())) {
          Map<String, String> simulated = v.simulate().nodes().get(e.getKey()).gpuAllocatable();
          out.add(check("agree", described.equals(simulated), "node describe and simulate -f advertise the same on "
              + e.getKey(), "describe " + described + ", simulate " + simulated));
        }
        if (v.smi().run().ok() && e.getValue().gpus().isPresent()) {
          Integer cards = v.smi().cards().get(e.getKey());
          out.add(check("agree", Objects.equals(cards, e.getValue().gpus().get()),
              "node describe and smi show the same cards on " + e.getKey(),
              "describe " + e.getValue().gpus().get() + ", smi " + cards));
        }
      }
    }
    return out;
  }

  private static Check check(String command, boolean pass, String what, String found) {
    return new Check(command, pass, what + (pass ? "" : "; found " + found));
  }

  private static String s(Map<String, Object> a, String key) {
    Object o = a.get(key);
    if (o == null) {
      throw new IllegalArgumentException("expectation field " + key + " missing in " + a);
    }
    return o.toString();
  }
}
