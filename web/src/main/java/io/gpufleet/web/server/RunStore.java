package io.gpufleet.web.server;

import io.gpufleet.report.json.JsonText;
import io.gpufleet.scenario.ScenarioFile;
import io.gpufleet.sim.scenario.Scenario;
import io.gpufleet.report.timeline.LifecycleLane;
import io.gpufleet.web.view.Heatmap;
import io.gpufleet.web.view.Knobs;
import io.gpufleet.web.view.PlayedRun;
import io.gpufleet.web.view.RunOverview;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The runs a dashboard holds: the scenario's own (id 0) and the what-ifs played from it, at most
 * {@code maxRuns} (the oldest what-if goes first), with at most {@code maxConcurrent} what-ifs
 * playing at once; a request beyond that waits briefly, then is refused.
 */
final class RunStore {

  /** A run, its overview and heatmap written once, and its lifecycle lanes, served a page at a time. */
  record Stored(int id, PlayedRun run, Knobs knobs, String overviewJson, List<LifecycleLane> lanes,
      String heatmapJson) {}

  /** How a run is played: {@link PlayedRun#play} in the dashboard; a test holds one open to fill the bound. */
  @FunctionalInterface
  interface Player {
    PlayedRun play(String label, ScenarioFile file, Scenario scenario, int maxFrames);
  }

  private final ScenarioFile file;
  private final Limits limits;
  private final Player player;
  private final Semaphore playing;
  private final LinkedHashMap<Integer, Stored> runs = new LinkedHashMap<>();
  private int nextId;

  RunStore(ScenarioFile file, Limits limits, Player player) {
    this.file = file;
    this.limits = limits;
    this.player = player;
    this.playing = new Semaphore(limits.concurrentRuns());
    add(player.play(file.scenario().name(), file, file.scenario(), limits.maxFrames()), Knobs.NONE);
  }

  private synchronized Stored add(PlayedRun run, Knobs knobs) {
    int id = nextId++;
    List<LifecycleLane> lanes = RunOverview.lanesOf(run);
    Stored s = new Stored(id, run, knobs, JsonText.write(RunOverview.of(Integer.toString(id), run, lanes)), lanes,
        JsonText.write(Heatmap.of(run)));
    runs.put(id, s);
    while (runs.size() > limits.maxRuns()) {
      Integer oldest = runs.keySet().stream().filter(k -> k != 0).findFirst().orElseThrow();
      runs.remove(oldest);
    }
    return s;
  }

  synchronized Optional<Stored> get(int id) {
    return Optional.ofNullable(runs.get(id));
  }

  synchronized List<Stored> all() {
    return new ArrayList<>(runs.values());
  }

  /** The NodePools a what-if may name. */
  List<String> nodePools() {
    return Knobs.nodePools(file.scenario());
  }

  /** Plays the scenario with the knobs turned; refuses when too many are playing. */
  Stored whatIf(Knobs knobs) {
    // Checked before taking a slot: a knob that does not fit the scenario is refused at once.
    Scenario turned = knobs.apply(file.scenario());
    Map<String, String> changed = knobs.describe();
    String label = changed.isEmpty() ? "re-run" : String.join(", ", changed.entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue()).toList());
    return inTurn(() -> add(player.play(label, file, turned, limits.maxFrames()), knobs));
  }

  /**
   * Runs {@code work} (a what-if, a when forecast: both count as what-if runs) in one of the playing
   * slots; refuses when all are taken for longer than the limits' wait.
   */
  <T> T inTurn(Supplier<T> work) {
    boolean admitted;
    try {
      admitted = playing.tryAcquire(limits.queueWait().toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BadRequest(503, "the server is stopping");
    }
    if (!admitted) {
      throw new BadRequest(429, "already playing " + limits.concurrentRuns() + " what-if run(s); try again shortly");
    }
    try {
      return work.get();
    } finally {
      playing.release();
    }
  }
}
