package io.gpufleet.engine.random;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * A run's random stream for one purpose: the seed mixed with the purpose's name, so that a draw for one
 * purpose never shifts another's. {@code simulate} draws its pods' names from {@link #NAMES} and its
 * scheduling ties from {@link #TIE_BREAKS}, and {@code schedule} and {@code smi} draw from the same two, so
 * the same file and seed give the pods the same names in each.
 */
public final class SeededStreams {
  private SeededStreams() {}

  /** Pod name suffixes (the workload controllers' generateName). */
  public static final String NAMES = "names";
  /** kube-scheduler's choice among equally scored nodes. */
  public static final String TIE_BREAKS = "tie-breaks";

  /** The seed mixed with a 64-bit FNV-1a hash of the purpose (stable across JVMs, unlike identity hashes). */
  public static SplittableRandom stream(long seed, String purpose) {
    long h = 0xcbf29ce484222325L;
    for (byte b : purpose.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    // One draw through SplittableRandom's mixer spreads seeds that differ in few bits.
    return new SplittableRandom(new SplittableRandom(seed ^ h).nextLong());
  }
}
