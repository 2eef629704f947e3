package io.gpufleet.scenario;

import java.util.List;

/**
 * A named step of a scenario's timeline, as the lab presents it: a title, what it does, why (for
 * {@code --explain}), the slice of the simulator's timeline it owns, and the labels of the views
 * it asks to be shown part-way ({@code show} actions).
 */
public record Step(String id, String title, String description, String explanation, int firstAction,
    int actionCount, List<String> shows) {

  public Step {
    shows = List.copyOf(shows);
  }

  /** How many checkpoints the step leaves: one per {@code show} action, and one at its end. */
  public int checkpoints() {
    return shows.size() + 1;
  }

  /** {@code 3.2 Time-slice the lab node}, or the title alone when the step has no id. */
  public String heading() {
    return id.isEmpty() ? title : id + " " + title;
  }
}
