package io.gpufleet.model.taint;

import java.util.Optional;

/** What a taint does to pods that do not tolerate it. */
public enum TaintEffect {
  /** New pods are not scheduled; running pods stay. */
  NO_SCHEDULE("NoSchedule"),
  /** The scheduler avoids the node when it can (a scoring matter only). */
  PREFER_NO_SCHEDULE("PreferNoSchedule"),
  /** New pods are not scheduled and running pods are evicted (after tolerationSeconds, if tolerated for a while). */
  NO_EXECUTE("NoExecute");

  private final String wireName;

  TaintEffect(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }

  public static Optional<TaintEffect> fromWire(String s) {
    for (TaintEffect e : values()) {
      if (e.wireName.equals(s)) {
        return Optional.of(e);
      }
    }
    return Optional.empty();
  }

  /** Effects the scheduler's filter honours. */
  public boolean blocksScheduling() {
    return this != PREFER_NO_SCHEDULE;
  }

  @Override
  public String toString() {
    return wireName;
  }
}
