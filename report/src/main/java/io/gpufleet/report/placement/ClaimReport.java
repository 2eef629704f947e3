package io.gpufleet.report.placement;

import io.gpufleet.engine.dra.Allocation;
import io.gpufleet.engine.dra.DraState;
import io.gpufleet.engine.dra.PodClaims;
import io.gpufleet.engine.scheduler.BatchPlacement;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.report.table.Table;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The ResourceClaims after a placement, as {@code kubectl get resourceclaims} states them
 * ({@code allocated,reserved} or {@code pending}), with what the allocation recorded: the node and
 * each device as {@code <request>: <driver>/<pool>/<device>}, and the pods it is reserved for.
 */
public final class ClaimReport {
  private ClaimReport() {}

  private static final List<String> HEADERS = List.of("NAMESPACE", "NAME", "STATE", "NODE", "DEVICES", "RESERVED FOR");

  /** Nothing when no pod has claims and no claim was written. */
  public static void text(BatchPlacement.Result result, DraObjects dra, DraState state, Appendable out) {
    Map<String, List<String>> rows = new LinkedHashMap<>();
    for (ResourceClaim c : dra.claims()) {
      rows.put(c.key(), row(c.namespace(), c.name(), state));
    }
    for (BatchPlacement.Outcome o : result.outcomes()) {
      if (PodClaims.resolve(o.pod(), dra) instanceof PodClaims.Resolution.Claims claims) {
        for (ResourceClaim c : claims.claims()) {
          rows.putIfAbsent(c.key(), row(c.namespace(), c.name(), state));
        }
      }
    }
    if (rows.isEmpty()) {
      return;
    }
    try {
      out.append('\n');
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    Table.write(HEADERS, new ArrayList<>(rows.values()), out);
  }

  private static List<String> row(String namespace, String name, DraState state) {
    String key = namespace + "/" + name;
    Allocation a = state.allocations().get(key);
    if (a == null) {
      return List.of(namespace, name, "pending", "<none>", "<none>", "<none>");
    }
    String devices = a.results().stream().map(r -> r.request() + ": " + r.driver() + "/" + r.pool() + "/" + r.device())
        .collect(Collectors.joining(", "));
    String pods = String.join(",", state.reservedFor().getOrDefault(key, List.of()).stream()
        .map(p -> p.substring(p.indexOf('/') + 1)).toList());
    return List.of(namespace, name, "allocated,reserved", a.node(), devices.isEmpty() ? "<none>" : devices, pods);
  }
}
