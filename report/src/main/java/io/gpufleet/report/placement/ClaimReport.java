package io.gpufleet.report.placement;

import io.gpufleet.engine.dra.Allocation;
import io.gpufleet.engine.dra.DraState;
import io.gpufleet.engine.dra.ExtendedResourceClaims;
import io.gpufleet.engine.dra.PodClaims;
import io.gpufleet.engine.scheduler.BatchPlacement;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.report.table.Table;
import io.gpufleet.report.table.Wrap;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The ResourceClaims after a placement, as {@code kubectl get resourceclaims} states them
 * ({@code allocated,reserved} or {@code pending}), with what the allocation recorded: the node and
 * each device as {@code <request>: <driver>/<pool>/<device>}, and the pods it is reserved for. The
 * same claims go into {@code schedule -o json} as its {@code claims} list.
 */
public final class ClaimReport {
  private ClaimReport() {}

  private static final List<String> HEADERS = List.of("NAMESPACE", "NAME", "STATE", "NODE", "DEVICES", "RESERVED FOR");

  /** One claim: written, or made from a template for a pod; its allocation and the pods it is reserved for. */
  record Claim(String namespace, String name, Optional<Allocation> allocation, List<String> reservedFor) {
    String state() {
      return allocation.isPresent() ? "allocated,reserved" : "pending";
    }
  }

  /**
   * The written claims, then those made for the pods, in queue order (with the claim the scheduler
   * made for a bound pod's DRA-backed extended resources); none when no pod has claims.
   */
  static List<Claim> claims(BatchPlacement.Result result, DraObjects dra, DraState state) {
    Map<String, Claim> rows = new LinkedHashMap<>();
    for (ResourceClaim c : dra.claims()) {
      rows.put(c.key(), claim(c, state));
    }
    for (BatchPlacement.Outcome o : result.outcomes()) {
      if (PodClaims.resolve(o.pod(), dra) instanceof PodClaims.Resolution.Claims claims) {
        for (ResourceClaim c : claims.claims()) {
          rows.putIfAbsent(c.key(), claim(c, state));
        }
      }
      // The claim the scheduler made, at binding, for the pod's DRA-backed extended resources.
      String special = ObjectMeta.key(o.pod().meta().namespace(), ExtendedResourceClaims.baseName(o.pod()));
      if (state.allocations().containsKey(special)) {
        rows.putIfAbsent(special, new Claim(o.pod().meta().namespace(), ExtendedResourceClaims.baseName(o.pod()),
            Optional.of(state.allocations().get(special)), state.reservedFor().getOrDefault(special, List.of())));
      }
    }
    return new ArrayList<>(rows.values());
  }

  private static Claim claim(ResourceClaim c, DraState state) {
    return new Claim(c.namespace(), c.name(), Optional.ofNullable(state.allocations().get(c.key())),
        state.reservedFor().getOrDefault(c.key(), List.of()));
  }

  /** Nothing when no pod has claims and no claim was written. */
  public static void text(BatchPlacement.Result result, DraObjects dra, DraState state, Appendable out) {
    text(result, dra, state, out, Wrap.UNLIMITED);
  }

  /** As {@link #text(BatchPlacement.Result, DraObjects, DraState, Appendable)}, the table in at most {@code width} columns. */
  public static void text(BatchPlacement.Result result, DraObjects dra, DraState state, Appendable out, int width) {
    List<Claim> claims = claims(result, dra, state);
    if (claims.isEmpty()) {
      return;
    }
    List<List<String>> rows = new ArrayList<>();
    for (Claim c : claims) {
      rows.add(row(c));
    }
    try {
      out.append('\n');
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Table.write(HEADERS, rows, out, width);
  }

  private static List<String> row(Claim c) {
    if (c.allocation().isEmpty()) {
      return List.of(c.namespace(), c.name(), c.state(), "<none>", "<none>", "<none>");
    }
    Allocation a = c.allocation().get();
    String devices = a.results().stream().map(r -> r.request() + ": " + r.driver() + "/" + r.pool() + "/" + r.device())
        .collect(Collectors.joining(", "));
    String pods = String.join(",", c.reservedFor().stream().map(ClaimReport::podName).toList());
    return List.of(c.namespace(), c.name(), c.state(), a.node(), devices.isEmpty() ? "<none>" : devices, pods);
  }

  /**
   * The claims as {@code schedule -o json}'s {@code claims} entries, in the API's words where it has
   * them: {@code status.allocation.devices.results} ({@code request}, {@code driver}, {@code pool},
   * {@code device}) and {@code status.reservedFor} ({@code resource: pods}, {@code name}); the node
   * the allocation is on, and the state the text table shows.
   */
  public static List<Map<String, Object>> json(BatchPlacement.Result result, DraObjects dra, DraState state) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Claim c : claims(result, dra, state)) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("namespace", c.namespace());
      m.put("name", c.name());
      m.put("state", c.state());
      m.put("node", c.allocation().map(Allocation::node).orElse(null));
      List<Map<String, Object>> results = new ArrayList<>();
      c.allocation().ifPresent(a -> a.results().forEach(r -> {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("request", r.request());
        d.put("driver", r.driver());
        d.put("pool", r.pool());
        d.put("device", r.device());
        results.add(d);
      }));
      m.put("results", results);
      List<Map<String, Object>> reserved = new ArrayList<>();
      for (String p : c.reservedFor()) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("resource", "pods");
        r.put("name", podName(p));
        reserved.add(r);
      }
      m.put("reservedFor", reserved);
      out.add(m);
    }
    return out;
  }

  private static String podName(String key) {
    return key.substring(key.indexOf('/') + 1);
  }
}
