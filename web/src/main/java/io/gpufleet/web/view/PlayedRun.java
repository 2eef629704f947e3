package io.gpufleet.web.view;

import io.gpufleet.report.timeline.Frame;
import io.gpufleet.report.timeline.FrameLog;
import io.gpufleet.scenario.ScenarioFile;
import io.gpufleet.scenario.Step;
import io.gpufleet.sim.ProgressListener;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.scenario.Scenario;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A finished run with everything the dashboard shows of it: the result, the cluster image after
 * every change (bounded by {@link FrameLog}) and where each of the scenario's steps lies among them.
 *
 * @param label what the user calls this run ("lab", "what-if 1: consolidation WhenEmpty")
 * @param thinned whether frames were dropped to keep the run within {@code maxFrames}
 * @param images the cluster images the run handed out, of which {@code frames} keeps some when thinned
 */
public record PlayedRun(String label, String description, SimulationResult result, List<Frame> frames,
    List<StepMark> steps, boolean thinned, long images) {

  public PlayedRun {
    frames = List.copyOf(frames);
    steps = List.copyOf(steps);
    if (frames.isEmpty()) {
      throw new IllegalArgumentException("a run has at least its first image");
    }
  }

  /** Plays {@code scenario} (the file's own, or a what-if variant of it) with the file's steps. */
  public static PlayedRun play(String label, ScenarioFile file, Scenario scenario, int maxFrames) {
    FrameLog log = new FrameLog(maxFrames);
    SimulationResult result = Simulation.run(scenario, ProgressListener.NONE, log);
    List<Frame> frames = log.frames(result.checkpoints());
    return new PlayedRun(label, file.description(), result, frames, marks(file.steps(), frames), log.thinned(),
        log.offered());
  }

  /**
   * Each step owns its {@link Step#checkpoints()} checkpoints in order; a step the run never
   * finished (it hit its horizon) and the steps after it get no mark.
   */
  static List<StepMark> marks(List<Step> steps, List<Frame> frames) {
    List<Integer> checkpointFrames = new ArrayList<>();
    for (int i = 0; i < frames.size(); i++) {
      if (frames.get(i).checkpoint().isPresent()) {
        checkpointFrames.add(i);
      }
    }
    List<StepMark> out = new ArrayList<>();
    int next = 0;
    int start = 0;
    for (Step s : steps) {
      if (next + s.checkpoints() > checkpointFrames.size()) {
        break;
      }
      next += s.checkpoints();
      int end = checkpointFrames.get(next - 1);
      out.add(new StepMark(s.id(), s.title(), s.description(), start, end));
      start = end;
    }
    return out;
  }

  /** The last frame at or before {@code seconds} from the start (the first frame before it). */
  public int frameAt(long seconds) {
    Instant t = result.start().plusSeconds(seconds);
    int lo = 0;
    int hi = frames.size() - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (frames.get(mid).time().isAfter(t)) {
        hi = mid - 1;
      } else {
        lo = mid;
      }
    }
    return lo;
  }
}
