package io.gpufleet.web.server;

import io.gpufleet.model.text.Printable;
import io.gpufleet.report.json.JsonText;
import io.gpufleet.report.when.ForecastView;
import io.gpufleet.scenario.ScenarioFile;
import io.gpufleet.web.view.ClusterView;
import io.gpufleet.web.view.Knobs;
import io.gpufleet.web.view.NodeFilter;
import io.gpufleet.web.view.PlayedRun;
import io.gpufleet.web.view.RunComparison;
import io.gpufleet.web.view.RunOverview;
import io.javalin.Javalin;
import io.javalin.http.Context;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The web server of {@code gpufleet serve}: the page and its assets (a fixed list from the jar),
 * and a JSON API over the scenario's run and its what-ifs. Every parameter is checked; a bad one
 * gets a 4xx with a message saying what was expected; nothing a request carries is executed or used
 * as a path.
 *
 * <pre>
 * GET  /                               the page
 * GET  /assets/{name}                  index.html, app.js, app.css, echarts.min.js
 * GET  /api/runs                       the runs held: id, label, knobs, summary
 * POST /api/runs                       a what-if: a JSON object of knobs (see Knobs), played now;
 *                                      "nodePool" names the NodePool the NodePool knobs change
 * GET  /api/runs/{id}                  one run, light: steps, frames' times, series, markers, summary
 * GET  /api/runs/{id}/cluster?frame=N  the cluster at frame N (or ?seconds=S: the last frame by then):
 *                                      the overview of all its nodes and a page of cards,
 *                                      &amp;offset=O&amp;limit=L (100; at most 1,000) &amp;filter=WORDS
 * GET  /api/runs/{id}/lanes?frame=N    a page of lifecycle lanes, &amp;offset, &amp;limit, &amp;filter as above
 * GET  /api/runs/{id}/events?frame=N   the newest events up to frame N, &amp;limit=L (60; at most 1,000)
 * GET  /api/runs/{id}/heatmap          GPUs allocated of advertised, by node or group and time
 * GET  /api/compare?a=ID&amp;b=ID          two runs side by side, with their differences
 * GET  /api/when                       whether there is a when view (serve was given manifests) and what
 *                                      it asks against: the cluster, the default horizon and seeds
 * POST /api/when                       a job's manifest, {"job": YAML, "within": "24h", "seeds": "1..5"}:
 *                                      gpufleet when's answer, its -o json document
 * </pre>
 */
public final class Dashboard implements AutoCloseable {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String JSON_TYPE = "application/json; charset=utf-8";
  /** Only the page's own files; the charts set inline styles on their elements. */
  private static final String CSP = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
      + "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

  /** Marks a request already answered with an error of ours, which the 404 page must not replace. */
  private static final String ANSWERED = "gpufleet.error";

  /** Cards, lanes or events one request may ask for at most. */
  private static final int MAX_LIMIT = 1_000;
  /** The furthest page start taken: beyond any fleet the twin plays. */
  private static final int MAX_OFFSET = 1_000_000;
  private static final String NO_WHEN = "no when view: serve was started with a scenario; start it with the "
      + "cluster's manifests (-f FILE or --kubeconfig FILE) to ask when a job would run";
  /** How much of a refusal's message (the job's YAML errors, which quote it) is sent back. */
  private static final int MESSAGE_CHARS = 400;
  /** Event-log rows the page shows up to its moment. */
  private static final int EVENTS = 60;

  private final Javalin app;
  private final RunStore runs;

  private Dashboard(Javalin app, RunStore runs) {
    this.app = app;
    this.runs = runs;
  }

  /** Plays the scenario, then serves it on {@code address:port} (port 0: any free port). */
  public static Dashboard start(ScenarioFile file, String address, int port, Limits limits) {
    return start(file, address, port, limits, PlayedRun::play, Optional.empty());
  }

  /** As {@link #start(ScenarioFile, String, int, Limits)}, with a when view that asks {@code when}. */
  public static Dashboard start(ScenarioFile file, String address, int port, Limits limits, Forecaster when) {
    return start(file, address, port, limits, PlayedRun::play, Optional.of(when));
  }

  /** As {@link #start(ScenarioFile, String, int, Limits)}, with the runs played by {@code player}. */
  static Dashboard start(ScenarioFile file, String address, int port, Limits limits, RunStore.Player player) {
    return start(file, address, port, limits, player, Optional.empty());
  }

  private static Dashboard start(ScenarioFile file, String address, int port, Limits limits, RunStore.Player player,
      Optional<Forecaster> when) {
    RunStore runs = new RunStore(file, limits, player);
    Assets assets = Assets.load();
    Javalin app = Javalin.create(config -> {
      config.startup.showJavalinBanner = false;
      config.startup.showOldJavalinVersionWarning = false;
      config.http.maxRequestSize = limits.maxBodyBytes();
      config.jetty.host = address;
      config.jetty.port = port;
      config.routes.before(ctx -> {
        ctx.header("Content-Security-Policy", CSP);
        ctx.header("X-Content-Type-Options", "nosniff");
        ctx.header("Referrer-Policy", "no-referrer");
        ctx.header("Cache-Control", "no-store");
      });
      config.routes.get("/", ctx -> {
        onlyParams(ctx);
        asset(ctx, assets, "index.html");
      });
      config.routes.get("/assets/{name}", ctx -> {
        onlyParams(ctx);
        asset(ctx, assets, ctx.pathParam("name"));
      });
      config.routes.get("/api/runs", ctx -> {
        onlyParams(ctx);
        List<Map<String, Object>> out = new ArrayList<>();
        for (RunStore.Stored s : runs.all()) {
          out.add(listed(s, runs));
        }
        json(ctx, 200, JsonText.write(out));
      });
      config.routes.post("/api/runs", ctx -> {
        onlyParams(ctx);
        Knobs knobs = knobs(ctx);
        json(ctx, 201, JsonText.write(listed(runs.whatIf(knobs), runs)));
      });
      config.routes.get("/api/runs/{id}", ctx -> {
        onlyParams(ctx);
        json(ctx, 200, run(runs, ctx.pathParam("id")).overviewJson());
      });
      config.routes.get("/api/runs/{id}/cluster", ctx -> {
        onlyParams(ctx, "frame", "seconds", "offset", "limit", "filter");
        PlayedRun run = run(runs, ctx.pathParam("id")).run();
        json(ctx, 200, JsonText.write(ClusterView.of(run, frame(ctx, run), filter(ctx), offset(ctx),
            limit(ctx, ClusterView.PAGE))));
      });
      config.routes.get("/api/runs/{id}/lanes", ctx -> {
        onlyParams(ctx, "frame", "seconds", "offset", "limit", "filter");
        RunStore.Stored s = run(runs, ctx.pathParam("id"));
        json(ctx, 200, JsonText.write(RunOverview.lanes(s.lanes(), s.run(), frame(ctx, s.run()), filter(ctx),
            offset(ctx), limit(ctx, ClusterView.PAGE))));
      });
      config.routes.get("/api/runs/{id}/events", ctx -> {
        onlyParams(ctx, "frame", "seconds", "limit");
        PlayedRun run = run(runs, ctx.pathParam("id")).run();
        json(ctx, 200, JsonText.write(RunOverview.events(run, frame(ctx, run), limit(ctx, EVENTS))));
      });
      config.routes.get("/api/runs/{id}/heatmap", ctx -> {
        onlyParams(ctx);
        json(ctx, 200, run(runs, ctx.pathParam("id")).heatmapJson());
      });
      config.routes.get("/api/compare", ctx -> {
        onlyParams(ctx, "a", "b");
        RunStore.Stored a = run(runs, required(ctx, "a"));
        RunStore.Stored b = run(runs, required(ctx, "b"));
        json(ctx, 200, JsonText.write(RunComparison.of(Integer.toString(a.id()), a.run(), a.knobs(),
            Integer.toString(b.id()), b.run(), b.knobs())));
      });
      config.routes.get("/api/when", ctx -> {
        onlyParams(ctx);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("available", when.isPresent());
        when.ifPresentOrElse(f -> {
          m.put("cluster", f.cluster());
          m.put("within", f.within());
          m.put("seeds", f.seeds());
        }, () -> m.put("why", NO_WHEN));
        json(ctx, 200, JsonText.write(m));
      });
      config.routes.post("/api/when", ctx -> {
        onlyParams(ctx);
        Forecaster f = forecaster(when);
        Map<String, String> ask = strings(ctx, Set.of("job", "within", "seeds"),
            "such as {\"job\": \"apiVersion: batch/v1\\nkind: Job ...\", \"within\": \"24h\", \"seeds\": \"1..5\"}");
        String job = ask.get("job");
        if (job == null || job.isBlank()) {
          throw new BadRequest(400, "job: expected the job's manifest (a Job, Deployment, StatefulSet, ReplicaSet or "
              + "Pod, as YAML), found " + (job == null ? "none" : "nothing"));
        }
        Forecaster.Answer answer = runs.inTurn(() -> f.forecast(job, ask.getOrDefault("within", f.within()),
            ask.getOrDefault("seeds", f.seeds())));
        switch (answer) {
          case Forecaster.Answer.Forecast a -> json(ctx, 200, ForecastView.json(a.forecast()));
          case Forecaster.Answer.Refused r -> error(ctx, 400, Printable.cut(r.message(), MESSAGE_CHARS));
        }
      });
      config.routes.exception(BadRequest.class, (e, ctx) -> error(ctx, e.status(), e.getMessage()));
      config.routes.exception(Knobs.BadKnob.class, (e, ctx) -> error(ctx, 400, e.getMessage()));
      config.routes.exception(Exception.class, (e, ctx) -> error(ctx, 500,
          "internal error (a bug in gpufleet): " + e.getClass().getSimpleName()));
      // Javalin answers an unknown address in plain text; answer it as every other error.
      config.routes.error(404, ctx -> {
        if (ctx.attribute(ANSWERED) == null) {
          error(ctx, 404, "no such page: " + printable(ctx.path()));
        }
      });
      // Javalin refuses a body over maxRequestSize before a route reads it; say so as every other error.
      config.routes.error(413, ctx -> {
        if (ctx.attribute(ANSWERED) == null) {
          error(ctx, 413, "the body is over the limit of " + limits.maxBodyBytes() + " bytes");
        }
      });
      config.routes.error(405, ctx -> error(ctx, 405, ctx.method() + " is not allowed on " + printable(ctx.path())));
    });
    app.start();
    return new Dashboard(app, runs);
  }

  /** The port it listens on (the one chosen, where 0 was asked). */
  public int port() {
    return app.port();
  }

  /** The runs held, the scenario's own first, then the what-ifs in the order they were played. */
  public List<PlayedRun> runs() {
    return runs.all().stream().map(RunStore.Stored::run).toList();
  }

  @Override
  public void close() {
    app.stop();
  }

  private static Map<String, Object> listed(RunStore.Stored s, RunStore runs) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", Integer.toString(s.id()));
    m.put("label", s.run().label());
    m.put("knobs", s.knobs().describe());
    m.put("nodePools", runs.nodePools());
    m.put("summary", RunOverview.summary(s.run().result()));
    return m;
  }

  private static void asset(Context ctx, Assets assets, String name) {
    Assets.Asset a = assets.get(name).orElseThrow(() -> new BadRequest(404, "no such asset: " + printable(name)));
    ctx.status(200).contentType(a.contentType()).result(a.bytes());
  }

  /** Refuses query parameters the route does not take, and repeated ones. */
  private static void onlyParams(Context ctx, String... allowed) {
    Set<String> ok = Set.of(allowed);
    for (var e : new TreeMap<>(ctx.queryParamMap()).entrySet()) {
      if (!ok.contains(e.getKey())) {
        throw new BadRequest(400, "unknown query parameter \"" + printable(e.getKey()) + "\""
            + (ok.isEmpty() ? "; this address takes none" : "; expected " + String.join(" or ", new TreeSet<>(ok))));
      }
      if (e.getValue().size() > 1) {
        throw new BadRequest(400, "query parameter \"" + e.getKey() + "\" given " + e.getValue().size() + " times");
      }
    }
  }

  private static String required(Context ctx, String name) {
    String v = ctx.queryParam(name);
    if (v == null) {
      throw new BadRequest(400, "query parameter \"" + name + "\" is required: a run id");
    }
    return v;
  }

  private static RunStore.Stored run(RunStore runs, String id) {
    if (!id.matches("[0-9]{1,6}")) {
      throw new BadRequest(400, "run id: expected a whole number such as 0, found \"" + printable(id) + "\"");
    }
    return runs.get(Integer.parseInt(id)).orElseThrow(() -> new BadRequest(404, "no run " + id
        + " (runs held: " + String.join(", ", runs.all().stream().map(s -> Integer.toString(s.id())).toList()) + ")"));
  }

  private static int frame(Context ctx, PlayedRun run) {
    String frame = ctx.queryParam("frame");
    String seconds = ctx.queryParam("seconds");
    if ((frame == null) == (seconds == null)) {
      throw new BadRequest(400, "give one of frame (0 to " + (run.frames().size() - 1) + ") or seconds (0 to "
          + run.result().simulated().getSeconds() + ")");
    }
    if (frame != null) {
      return (int) number(frame, "frame", run.frames().size() - 1);
    }
    return run.frameAt(number(seconds, "seconds", run.result().simulated().getSeconds()));
  }

  /** Where the page of cards or lanes starts: 0 unless given. */
  private static int offset(Context ctx) {
    String v = ctx.queryParam("offset");
    return v == null ? 0 : (int) number(v, "offset", MAX_OFFSET);
  }

  /** How many cards, lanes or events to send: {@code otherwise} unless given, 1 to {@link #MAX_LIMIT}. */
  private static int limit(Context ctx, int otherwise) {
    String v = ctx.queryParam("limit");
    if (v == null) {
      return otherwise;
    }
    if (!v.matches("[0-9]{1,9}") || Integer.parseInt(v) < 1 || Integer.parseInt(v) > MAX_LIMIT) {
      throw new BadRequest(400, "limit: expected a whole number from 1 to " + MAX_LIMIT + ", found \"" + printable(v)
          + "\"");
    }
    return Integer.parseInt(v);
  }

  /** The Find-nodes words: printable, at most {@link NodeFilter#MAX_CHARS} characters. */
  private static NodeFilter filter(Context ctx) {
    String v = ctx.queryParam("filter");
    if (v == null) {
      return NodeFilter.NONE;
    }
    if (v.length() > NodeFilter.MAX_CHARS || v.chars().anyMatch(Character::isISOControl)) {
      throw new BadRequest(400, "filter: expected at most " + NodeFilter.MAX_CHARS
          + " printable characters (words of a node's name, NodePool, instance type, or pool:, type:, capacity:, "
          + "state: and a value), found " + v.length() + " characters \"" + printable(v) + "\"");
    }
    return NodeFilter.of(v);
  }

  private static long number(String text, String name, long max) {
    if (!text.matches("[0-9]{1,12}") || Long.parseLong(text) > max) {
      throw new BadRequest(400, name + ": expected a whole number from 0 to " + max + ", found \"" + printable(text)
          + "\"");
    }
    return Long.parseLong(text);
  }

  /** A JSON object of knob names to strings or whole numbers, nothing else. */
  private static Knobs knobs(Context ctx) {
    Map<String, String> values = new TreeMap<>();
    for (var e : object(ctx, "of knobs such as {\"consolidationPolicy\": \"WhenEmpty\"}").entrySet()) {
      Object v = e.getValue();
      if (!(v instanceof String || v instanceof Integer || v instanceof Long)) {
        throw new BadRequest(400, printable(String.valueOf(e.getKey())) + ": expected a string or a whole number");
      }
      values.put(String.valueOf(e.getKey()), String.valueOf(v));
    }
    return Knobs.read(values);
  }

  /** A JSON object of the {@code allowed} names to strings, nothing else. */
  private static Map<String, String> strings(Context ctx, Set<String> allowed, String what) {
    Map<String, String> values = new TreeMap<>();
    for (var e : object(ctx, what).entrySet()) {
      String name = String.valueOf(e.getKey());
      if (!allowed.contains(name)) {
        throw new BadRequest(400, "unknown field \"" + printable(name) + "\"; expected "
            + String.join(", ", new TreeSet<>(allowed)));
      }
      if (!(e.getValue() instanceof String v)) {
        throw new BadRequest(400, name + ": expected a string");
      }
      values.put(name, v);
    }
    return values;
  }

  /** The body as a JSON object ({@code what}: what the message says one should be, when it is not). */
  private static Map<?, ?> object(Context ctx, String what) {
    String type = ctx.contentType();
    if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
      throw new BadRequest(415, "expected a JSON body (Content-Type: application/json), found "
          + (type == null ? "none" : "\"" + printable(type) + "\""));
    }
    Object body;
    try {
      body = JSON.readValue(ctx.body(), Object.class);
    } catch (JacksonException e) {
      throw new BadRequest(400, "the body is not JSON: " + printable(e.getOriginalMessage()));
    }
    if (!(body instanceof Map<?, ?> map)) {
      throw new BadRequest(400, "expected a JSON object " + what);
    }
    return map;
  }

  private static Forecaster forecaster(Optional<Forecaster> when) {
    return when.orElseThrow(() -> new BadRequest(404, NO_WHEN));
  }

  private static void json(Context ctx, int status, String body) {
    ctx.status(status).contentType(JSON_TYPE).result(body);
  }

  private static void error(Context ctx, int status, String message) {
    ctx.attribute(ANSWERED, Boolean.TRUE);
    json(ctx, status, JsonText.write(Map.of("error", message, "status", status)));
  }

  /** User text echoed in a message: printable ASCII only, at most 80 characters. */
  static String printable(String s) {
    return Printable.cut(s, 80);
  }

}
