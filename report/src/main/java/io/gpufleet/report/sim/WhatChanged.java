package io.gpufleet.report.sim;

import io.gpufleet.model.time.KubeDuration;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.metrics.ServiceMetrics;
import io.gpufleet.sim.scenario.ExpectationOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * What two runs of one scenario (a run and its what-if) differ in beyond the totals, for the CLI's
 * comparison and the dashboard's: each service's time with none Ready, requests lost where its
 * traffic was modelled, and pods killed while serving; and each expectation whose result changed,
 * by name. One computation for both, so they say the same.
 */
public record WhatChanged(List<Service> services, List<Expectation> expectations) {

  public WhatChanged {
    services = List.copyOf(services);
    expectations = List.copyOf(expectations);
  }

  /**
   * One service in both runs (absent in one: empty there). {@code lost} is empty where no traffic was
   * modelled.
   */
  public record Service(String workload, Optional<ServiceMetrics> a, Optional<ServiceMetrics> b) {

    /** {@code 30s with none Ready}, or {@code not run}. */
    public static String outage(Optional<ServiceMetrics> s) {
      return s.map(m -> !m.everReady() ? "never Ready"
          : KubeDuration.format(Duration.ofMillis(Math.round(m.outageSeconds() * 1000))) + " with none Ready")
          .orElse("not run");
    }

    /** Requests lost, or {@code not modelled}. */
    public static String lost(Optional<ServiceMetrics> s) {
      return s.map(ServiceMetrics::lostRequests).filter(OptionalDouble::isPresent)
          .map(l -> String.format(Locale.ROOT, "%.0f", l.getAsDouble())).orElse("not modelled");
    }

    public boolean trafficModelled() {
      return a.map(ServiceMetrics::trafficModelled).orElse(false) || b.map(ServiceMetrics::trafficModelled).orElse(false);
    }

    public double outageSecondsA() {
      return a.map(ServiceMetrics::outageSeconds).orElse(0.0);
    }

    public double outageSecondsB() {
      return b.map(ServiceMetrics::outageSeconds).orElse(0.0);
    }
  }

  /**
   * An expectation whose result differs: {@code a} and {@code b} say {@code passed} or {@code FAILED
   * (seen: ...)}, or {@code not in this run} where that run has no such expectation or ended first
   * (only failures are listed then).
   */
  public record Expectation(String description, String a, String b, boolean passedA, boolean passedB) {}

  public static WhatChanged of(SimulationResult a, SimulationResult b) {
    Map<String, ServiceMetrics> sa = services(a);
    Map<String, ServiceMetrics> sb = services(b);
    Set<String> names = new LinkedHashSet<>(sa.keySet());
    names.addAll(sb.keySet());
    List<Service> services = new ArrayList<>();
    for (String n : names) {
      services.add(new Service(n, Optional.ofNullable(sa.get(n)), Optional.ofNullable(sb.get(n))));
    }
    return new WhatChanged(services, expectations(a.expectations(), b.expectations()));
  }

  private static Map<String, ServiceMetrics> services(SimulationResult r) {
    Map<String, ServiceMetrics> out = new java.util.LinkedHashMap<>();
    for (ServiceMetrics s : r.metrics().services().values()) {
      if (s.service()) {
        out.put(s.workload().toString(), s);
      }
    }
    return out;
  }

  /**
   * The expectations of the two runs matched by step and description (the n-th of a kind with the
   * n-th), those whose result differs, in the first run's order; then failures only one run has.
   */
  static List<Expectation> expectations(List<ExpectationOutcome> a, List<ExpectationOutcome> b) {
    Map<String, List<ExpectationOutcome>> inB = new java.util.LinkedHashMap<>();
    for (ExpectationOutcome o : b) {
      inB.computeIfAbsent(key(o), k -> new ArrayList<>()).add(o);
    }
    Map<String, Integer> taken = new HashMap<>();
    List<Expectation> out = new ArrayList<>();
    for (ExpectationOutcome o : a) {
      int i = taken.merge(key(o), 1, Integer::sum) - 1;
      List<ExpectationOutcome> same = inB.getOrDefault(key(o), List.of());
      Optional<ExpectationOutcome> other = i < same.size() ? Optional.of(same.get(i)) : Optional.empty();
      boolean passedB = other.map(ExpectationOutcome::passed).orElse(false);
      // One the other run lacks (another scenario's, or past where it ended) is news only when it failed.
      if (other.isPresent() ? o.passed() != passedB : !o.passed()) {
        out.add(new Expectation(o.description(), result(Optional.of(o)), result(other), o.passed(), passedB));
      }
    }
    // Reached only in the second run: its failures are news too.
    for (Map.Entry<String, List<ExpectationOutcome>> e : inB.entrySet()) {
      int had = taken.getOrDefault(e.getKey(), 0);
      for (ExpectationOutcome o : e.getValue().subList(Math.min(had, e.getValue().size()), e.getValue().size())) {
        if (!o.passed()) {
          out.add(new Expectation(o.description(), result(Optional.empty()), result(Optional.of(o)), false, false));
        }
      }
    }
    return out;
  }

  private static String key(ExpectationOutcome o) {
    return o.step() + "\u0000" + o.description();
  }

  private static String result(Optional<ExpectationOutcome> o) {
    return o.map(x -> x.passed() ? "passed" : "FAILED (seen: " + x.detail() + ")").orElse("not in this run");
  }
}
