package io.gpufleet.engine.scheduler.plugin;

/** A resource and its weight in a scoring strategy. */
public record ResourceWeight(String name, long weight) {
  public ResourceWeight {
    if (weight < 1 || weight > 100) {
      throw new IllegalArgumentException("resource weight of " + name + " must be in 1..100, found " + weight);
    }
  }
}
