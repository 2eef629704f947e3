package io.gpufleet.cli;

import io.gpufleet.report.sim.RunOutputs;
import io.gpufleet.report.sim.RunSummary;
import io.gpufleet.report.sim.StepText;
import io.gpufleet.report.sim.StepView;
import io.gpufleet.report.timeline.Frame;
import io.gpufleet.report.timeline.FrameLog;
import io.gpufleet.scenario.ScenarioFile;
import io.gpufleet.scenario.Step;
import io.gpufleet.sim.Checkpoint;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.scenario.Scenario;
import io.gpufleet.sim.scenario.ScenarioAction;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Runs a scenario file for {@code lab} and {@code simulate}: wiring between reader, simulator and reports. */
record ScenarioRun(ScenarioFile file, SimulationResult result, List<StepView> steps, List<Frame> frames) {

  /** Cluster images kept for the report's lifecycle lanes and advertised GPUs: enough for any lane, bounded. */
  static final int REPORT_FRAMES = 4_000;

  /**
   * Runs the scenario, stopping after the step with id {@code stopAfter} if given, with a progress
   * bar on a terminal. {@code explain}: the disruption controller's decisions are explained too (each
   * node it left and why), which costs a simulation per node at each decision.
   */
  static ScenarioRun run(ScenarioFile file, Optional<String> stopAfter, boolean explain, PrintWriter err) {
    try (TerminalProgress bar = TerminalProgress.forTerminal(err)) {
      return run(file, stopAfter, explain, bar);
    }
  }

  /** As {@link #run(ScenarioFile, Optional, boolean, PrintWriter)}, drawing on {@code bar} (a batch's runs draw none). */
  static ScenarioRun run(ScenarioFile file, Optional<String> stopAfter, boolean explain, TerminalProgress bar) {
    List<Step> steps = file.steps();
    Scenario scenario = file.scenario();
    if (explain) {
      scenario = scenario.withSettings(scenario.settings().withExplainDecisions(true));
    }
    if (stopAfter.isPresent()) {
      int last = -1;
      for (int i = 0; i < steps.size(); i++) {
        if (steps.get(i).id().equals(stopAfter.get())) {
          last = i;
        }
      }
      if (last < 0) {
        throw new UserError("--step: expected one of " + String.join(", ", steps.stream().map(Step::id)
            .filter(id -> !id.isEmpty()).toList()) + ", found \"" + stopAfter.get() + "\"");
      }
      Step end = steps.get(last);
      List<ScenarioAction> timeline = scenario.timeline().subList(0, end.firstAction() + end.actionCount());
      scenario = scenario.withTimeline(timeline);
      steps = steps.subList(0, last + 1);
    }
    SimulationResult result;
    FrameLog images = new FrameLog(REPORT_FRAMES);
    result = Simulation.run(scenario, p -> bar.update(p.step(), p.steps(), "step " + p.step() + "/" + p.steps()
        + ", " + p.events() + " events"), images);
    bar.close();
    List<StepView> views = new ArrayList<>();
    List<Checkpoint> checkpoints = result.checkpoints();
    int from = 0;
    int next = 0;
    for (Step s : steps) {
      if (next + s.checkpoints() > checkpoints.size()) {
        break; // the run ended early (its horizon): later steps never happened
      }
      List<Checkpoint> own = checkpoints.subList(next, next + s.checkpoints());
      views.add(new StepView(s.heading(), s.description(), s.explanation(), own, from));
      next += s.checkpoints();
      from = own.getLast().recordEntries();
    }
    return new ScenarioRun(file, result, views, images.frames(result.checkpoints()));
  }

  void printSteps(PrintWriter out, boolean explain, int width) {
    for (StepView s : steps) {
      out.print(StepText.render(s, result, explain, Integer.MAX_VALUE, width));
    }
  }

  /** Whether a step's views showed GPU devices (an nvidia-smi section): their ids are the twin's. */
  boolean showedDevices() {
    return result.checkpoints().stream().anyMatch(c -> c.state().nodes().values().stream()
        .anyMatch(n -> n.devices().isPresent()));
  }

  void printSummary(PrintWriter out, int width) {
    out.print(RunSummary.render(result, width));
  }

  /** Writes the HTML report to {@code html}, and the run record it summarises, events.jsonl, beside it. */
  Path writeHtml(Path html, boolean explain) {
    Path name = html.getFileName();
    if (name == null) {
      throw new UserError("cannot write " + html + ": not a file name");
    }
    Path parent = html.getParent();
    return OutputFiles.in(parent == null ? Path.of("") : parent).addMade(name.toString(), () -> html(explain))
        .add("events.jsonl", out -> RunOutputs.eventsJsonl(result, out)).write().getFirst();
  }

  /** Writes result.json, timeseries.csv, pods.csv, report.html and events.jsonl into {@code dir}, all or none. */
  List<Path> writeAll(Path dir, boolean explain) {
    // Each file is made while it is written, the files side by side (OutputFiles.write).
    return OutputFiles.in(dir)
        .addMade("result.json", () -> RunOutputs.json(result, file.scenario().seed()))
        .addMade("timeseries.csv", () -> RunOutputs.timeSeriesCsv(result))
        .addMade("pods.csv", () -> RunOutputs.podsCsv(result))
        .addMade("report.html", () -> html(explain))
        .add("events.jsonl", out -> RunOutputs.eventsJsonl(result, out))
        .write();
  }

  private String html(boolean explain) {
    return RunOutputs.html(file.description(), steps, result, explain, file.scenario().seed(), frames);
  }
}
