package io.gpufleet.model.taint;

import io.gpufleet.model.wire.WireEnum;
import java.util.Optional;

/** What a taint does to pods that do not tolerate it. */
public enum TaintEffect implements WireEnum {
  /** New pods are not scheduled; running pods stay. */
  NO_SCHEDULE,
  /** The scheduler avoids the node when it can (a scoring matter only). */
  PREFER_NO_SCHEDULE,
  /** New pods are not scheduled and running pods are evicted (after tolerationSeconds, if tolerated for a while). */
  NO_EXECUTE;

  public static Optional<TaintEffect> fromWire(String s) {
    return WireEnum.fromWire(TaintEffect.class, s);
  }

  /** Effects the scheduler's filter honours. */
  public boolean blocksScheduling() {
    return this != PREFER_NO_SCHEDULE;
  }

  @Override
  public String toString() {
    return wireName();
  }
}
