package io.gpufleet.scenario;

/**
 * A named step of a scenario's timeline, as the lab presents it: a title, what it does, why (for
 * {@code --explain}), and the slice of the simulator's timeline it owns.
 */
public record Step(String id, String title, String description, String explanation, int firstAction,
    int actionCount) {

  /** {@code 3.2 Time-slice the lab node}, or the title alone when the step has no id. */
  public String heading() {
    return id.isEmpty() ? title : id + " " + title;
  }
}
