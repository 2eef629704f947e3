package io.gpufleet.nvml.bench;

import io.gpufleet.model.advise.ClosedLoopRow;
import io.gpufleet.model.advise.H200Measurement;
import io.gpufleet.model.advise.MeasuredSharing;
import io.gpufleet.model.advise.OpenLoopRow;
import io.gpufleet.model.advise.RequestDemand;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A {@code bench-sharing} result as a file: the card, the settings, the two workloads' demands and
 * the rows. Its {@code closedLoop} rows carry the fields of {@link ClosedLoopRow} under the same names
 * ({@code workload}, {@code mode}, {@code tenants}, {@code throughput}, {@code p50Ms}, {@code p99Ms}),
 * the form the performance model's calibration reads; open-loop rows go to {@code openLoop}, as the
 * H200 measurement kept them aside to check predictions. A {@code mps-capped-solo} row is one client
 * alone under the cap of {@code tenants} ({@code threadPercentage} = 100/N); files from before that
 * mode have none and load as they did (the model then says what rests on their absence).
 */
public record SharingMeasurement(Card card, SharingBench.Plan plan, List<SharingRow> rows) {

  public static final String FORMAT = "gpufleet-sharing-measurement/1";
  private static final ObjectMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

  public SharingMeasurement {
    rows = List.copyOf(rows);
  }

  /** The card measured, as NVML named it, and the catalogue entry that answers to that name. */
  public record Card(String name, Optional<String> catalogId, long memoryMiB, String computeCapability,
      String driverVersion) {}

  public String toJson() {
    ObjectNode root = JSON.createObjectNode();
    root.put("format", FORMAT);
    ObjectNode c = root.putObject("card");
    c.put("name", card.name());
    card.catalogId().ifPresent(id -> c.put("catalogId", id));
    c.put("memoryMiB", card.memoryMiB());
    c.put("computeCapability", card.computeCapability());
    c.put("driverVersion", card.driverVersion());
    ObjectNode s = root.putObject("settings");
    s.put("seconds", plan.settings().seconds());
    s.put("ratePerSecond", plan.settings().ratePerSecond());
    s.put("seed", plan.settings().seed());
    ArrayNode tenants = s.putArray("tenants");
    plan.tenantCounts().forEach(tenants::add);
    ArrayNode modes = s.putArray("modes");
    plan.modes().forEach(m -> modes.add(m.label()));
    ArrayNode workloads = root.putArray("workloads");
    for (TenantKernel k : plan.kernels()) {
      ObjectNode w = workloads.addObject();
      w.put("name", k.name());
      w.put("boundness", k.boundness());
      w.put("bytesPerRequest", k.bytesPerRequest());
      w.put("kernelsPerRequest", k.kernelsPerRequest());
    }
    ArrayNode closed = root.putArray("closedLoop");
    ArrayNode open = root.putArray("openLoop");
    for (SharingRow r : rows) {
      ObjectNode o = (r.closedLoop() ? closed : open).addObject();
      o.put("workload", r.workload());
      o.put("mode", r.mode());
      o.put("tenants", r.tenants());
      r.threadPercentage().ifPresent(p -> o.put("threadPercentage", p));
      if (!r.closedLoop()) {
        o.put("ratePerSecond", r.ratePerSecond());
      }
      o.put("throughput", round(r.throughput(), 10));
      o.put("p50Ms", round(r.p50Ms(), 100));
      o.put("p99Ms", round(r.p99Ms(), 100));
      o.put("requests", r.requests());
      o.put("gpuMsPerRequest", round(r.gpuMsPerRequest(), 1000));
    }
    return JSON.writeValueAsString(root) + "\n";
  }

  private static double round(double v, int scale) {
    return Math.round(v * scale) / (double) scale;
  }

  /**
   * The closed-loop rows of a file in this format. Problems name the file and the field
   * ({@code closedLoop[3].p99Ms}) with what was expected and found.
   */
  public static List<ClosedLoopRow> closedLoopRows(String file, String json) {
    return closedLoopRows(file, parse(file, json));
  }

  /**
   * A file in this format as what calibrates the performance model: the catalogue id of the card,
   * the two workloads ({@code big} memory-bound, {@code small} launch-bound) and the closed-loop
   * rows. The memory-bound workload is taken as the weights it reads per request, in one step.
   */
  public static MeasuredSharing calibration(String file, String json) {
    return calibration(new LinkedHashMap<>(Map.of(file, json)));
  }

  /**
   * Several files in this format, of one card, as one calibration: their closed-loop rows together
   * (a run and the runs its coverage notes name, such as {@code mps-capped-solo}), each workload's
   * demand from the first file that ran it. A file of another card is refused, naming both.
   *
   * @param files each file's name and text, in the order given
   */
  public static MeasuredSharing calibration(LinkedHashMap<String, String> files) {
    if (files.isEmpty()) {
      throw new IllegalArgumentException("no calibration file");
    }
    List<ClosedLoopRow> rows = new ArrayList<>();
    List<OpenLoopRow> lone = new ArrayList<>();
    String gpu = null;
    String name = "";
    String first = null;
    RequestDemand.ModelWeights big = null;
    RequestDemand.KernelStream small = null;
    for (Map.Entry<String, String> f : files.entrySet()) {
      String file = f.getKey();
      JsonNode root = parse(file, f.getValue());
      // A lone tenant's open-loop run (bench-sharing --tenants 1 --rate R) calibrates idle arrivals;
      // open-loop rows of more tenants are points to check, not inputs.
      List<OpenLoopRow> mine = openLoopRows(file, root).stream().filter(r -> r.tenants() == 1).toList();
      lone.addAll(mine);
      if (mine.isEmpty() || root.path("closedLoop").isArray() && !root.path("closedLoop").isEmpty()) {
        rows.addAll(closedLoopRows(file, root));
      }
      String id = text(root.path("card"), "catalogId", file + ": card.");
      if (gpu == null) {
        gpu = id;
        first = file;
        name = root.path("card").path("name").asString("");
      } else if (!gpu.equals(id)) {
        throw new IllegalArgumentException(file + ": card.catalogId: expected \"" + gpu + "\", the card of " + first
            + ", found \"" + id + "\"");
      }
      JsonNode workloads = root.path("workloads");
      if (!workloads.isArray()) {
        throw new IllegalArgumentException(file + ": workloads: expected an array of the workloads that ran");
      }
      boolean any = false;
      for (int i = 0; i < workloads.size(); i++) {
        JsonNode w = workloads.get(i);
        String at = file + ": workloads[" + i + "].";
        switch (text(w, "name", at)) {
          case "big" -> {
            RequestDemand.ModelWeights b = new RequestDemand.ModelWeights(positive(w, "bytesPerRequest", at) / 2, 2, 1);
            big = big == null ? b : big;
            any = true;
          }
          case "small" -> {
            RequestDemand.KernelStream k = new RequestDemand.KernelStream((int) positive(w, "kernelsPerRequest", at));
            small = small == null ? k : small;
            any = true;
          }
          default -> { } // a workload the calibration does not use
        }
      }
      if (!any) {
        throw new IllegalArgumentException(file + ": workloads: expected a \"big\" (memory-bound) or a \"small\" "
            + "(launch-bound) workload, found neither");
      }
    }
    // A run of one workload: the other is bench-sharing's own, the same on every card, and has no rows
    // to fit (the fit says which constants then rest on the built-in defaults).
    big = big == null ? H200Measurement.BIG : big;
    small = small == null ? H200Measurement.SMALL : small;
    if (rows.isEmpty()) {
      throw new IllegalArgumentException(String.join(", ", files.keySet()) + ": closedLoop: expected closed-loop rows "
          + "in one file at least; found only lone open-loop rows");
    }
    return new MeasuredSharing(String.join(" + ", files.keySet()) + " (" + (name.isEmpty() ? gpu : name) + ", "
        + rows.size() + " closed-loop rows" + (lone.isEmpty() ? "" : ", " + lone.size() + " lone open-loop rows") + ")",
        gpu, big, small, rows, lone);
  }

  /**
   * The open-loop rows of a file in this format (possibly none). Problems name the file and the field
   * ({@code openLoop[3].ratePerSecond}) with what was expected and found.
   */
  public static List<OpenLoopRow> openLoopRows(String file, String json) {
    return openLoopRows(file, parse(file, json));
  }

  private static List<OpenLoopRow> openLoopRows(String file, JsonNode root) {
    JsonNode rows = root.path("openLoop");
    if (rows.isMissingNode()) {
      return List.of();
    }
    if (!rows.isArray()) {
      throw new IllegalArgumentException(file + ": openLoop: expected an array of rows");
    }
    // The requests that arrived, over the run's length: what was offered (OpenLoopRow.arrived).
    JsonNode seconds = root.path("settings").path("seconds");
    return each(file, "openLoop", rows, (r, at) -> new OpenLoopRow(text(r, "workload", at), text(r, "mode", at),
        (int) number(r, "tenants", at), number(r, "ratePerSecond", at), number(r, "throughput", at),
        number(r, "p50Ms", at), number(r, "p99Ms", at), r.has("requests") && seconds.isNumber() && seconds.asDouble() > 0
            ? java.util.OptionalDouble.of(number(r, "requests", at) / seconds.asDouble())
            : java.util.OptionalDouble.empty()));
  }

  private static JsonNode parse(String file, String json) {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (JacksonException e) {
      var where = e.getLocation();
      String at = where == null ? "" : ":" + where.getLineNr() + ":" + where.getColumnNr();
      throw new IllegalArgumentException(file + at + ": not JSON: " + e.getOriginalMessage());
    }
    String format = root.path("format").asString("");
    if (!FORMAT.equals(format)) {
      throw new IllegalArgumentException(file + ": format: expected \"" + FORMAT + "\", found \"" + format + "\"");
    }
    return root;
  }

  private static List<ClosedLoopRow> closedLoopRows(String file, JsonNode root) {
    JsonNode rows = root.path("closedLoop");
    if (!rows.isArray() || rows.isEmpty()) {
      throw new IllegalArgumentException(file + ": closedLoop: expected a non-empty array of rows");
    }
    return each(file, "closedLoop", rows, (r, at) -> new ClosedLoopRow(text(r, "workload", at), text(r, "mode", at),
        (int) number(r, "tenants", at), number(r, "throughput", at), number(r, "p50Ms", at), number(r, "p99Ms", at)));
  }

  /** Each element of a row array read by {@code read}; a problem names the file, the array and the index. */
  private static <T> List<T> each(String file, String array, JsonNode rows, BiFunction<JsonNode, String, T> read) {
    List<T> out = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      String at = file + ": " + array + "[" + i + "].";
      try {
        out.add(read.apply(rows.get(i), at));
      } catch (IllegalArgumentException e) {
        throw e.getMessage().startsWith(file) ? e : new IllegalArgumentException(at.substring(0, at.length() - 1)
            + ": " + e.getMessage());
      }
    }
    return out;
  }

  private static double positive(JsonNode row, String field, String at) {
    double v = number(row, field, at);
    if (!(v >= 1)) {
      throw new IllegalArgumentException(at + field + ": expected a positive number, found " + row.get(field));
    }
    return v;
  }

  private static String text(JsonNode row, String field, String at) {
    JsonNode v = row.get(field);
    if (v == null || !v.isString()) {
      throw new IllegalArgumentException(at + field + ": expected a string, found " + v);
    }
    return v.asString();
  }

  private static double number(JsonNode row, String field, String at) {
    JsonNode v = row.get(field);
    if (v == null || !v.isNumber()) {
      throw new IllegalArgumentException(at + field + ": expected a number, found " + v);
    }
    return v.asDouble();
  }
}
