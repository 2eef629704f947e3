package io.gpufleet.web.view;

import io.gpufleet.model.cloud.Money;
import io.gpufleet.report.sim.WhatChanged;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Two runs side by side: each one's label, knobs and summary, and the differences (second minus
 * first) in cost, pending time, disruptions and evictions; each service's time with none Ready (and
 * requests lost, where modelled), and each expectation whose result changed, by name.
 */
public final class RunComparison {
  private RunComparison() {}

  /** The summary fields the difference is taken of, numbers in both runs. */
  static final List<String> COMPARED = List.of("totalCost", "stillPending", "disruptions", "evictions",
      "gpuHoursIdle");

  public static Map<String, Object> of(String idA, PlayedRun a, Knobs knobsA, String idB, PlayedRun b, Knobs knobsB) {
    Map<String, Object> sa = RunOverview.summary(a.result());
    Map<String, Object> sb = RunOverview.summary(b.result());
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("a", side(idA, a, knobsA, sa));
    out.put("b", side(idB, b, knobsB, sb));
    Map<String, Object> diff = new LinkedHashMap<>();
    for (String k : COMPARED) {
      diff.put(k, RunOverview.round(((Number) sb.get(k)).doubleValue() - ((Number) sa.get(k)).doubleValue()));
    }
    // The page shows money as every output writes it (Money), signed: +$1.20, -$1.20, $0.00.
    double cost = ((Number) diff.get("totalCost")).doubleValue();
    diff.put("totalCostText", (cost > 0 ? "+" : "") + Money.dollars(cost));
    Map<?, ?> pa = (Map<?, ?>) sa.get("pendingSeconds");
    Map<?, ?> pb = (Map<?, ?>) sb.get("pendingSeconds");
    Map<String, Object> pending = new LinkedHashMap<>();
    pa.forEach((q, v) -> pending.put(String.valueOf(q), v == null || pb.get(q) == null ? null
        : ((Number) pb.get(q)).longValue() - ((Number) v).longValue()));
    diff.put("pendingSeconds", pending);
    out.put("difference", diff);
    // What the totals hide, computed once for the CLI's comparison and this one (WhatChanged).
    WhatChanged changed = WhatChanged.of(a.result(), b.result());
    List<Map<String, Object>> services = new ArrayList<>();
    for (WhatChanged.Service s : changed.services()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("workload", s.workload());
      m.put("aText", WhatChanged.Service.outage(s.a()));
      m.put("bText", WhatChanged.Service.outage(s.b()));
      m.put("outageSeconds", RunOverview.round(s.outageSecondsB() - s.outageSecondsA()));
      if (s.trafficModelled()) {
        m.put("aLost", WhatChanged.Service.lost(s.a()));
        m.put("bLost", WhatChanged.Service.lost(s.b()));
      }
      services.add(m);
    }
    out.put("services", services);
    List<Map<String, Object>> expectations = new ArrayList<>();
    for (WhatChanged.Expectation e : changed.expectations()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("description", e.description());
      m.put("a", e.a());
      m.put("b", e.b());
      m.put("passedA", e.passedA());
      m.put("passedB", e.passedB());
      expectations.add(m);
    }
    out.put("expectationsChanged", expectations);
    return out;
  }

  private static Map<String, Object> side(String id, PlayedRun run, Knobs knobs, Map<String, Object> summary) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", id);
    m.put("label", run.label());
    m.put("knobs", knobs.describe());
    m.put("summary", summary);
    return m;
  }
}
