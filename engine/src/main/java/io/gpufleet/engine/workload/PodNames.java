package io.gpufleet.engine.workload;

import java.util.random.RandomGenerator;

/**
 * Pod names as the controllers make them: {@code <deployment>-<template-hash>-<suffix>},
 * {@code <job>-<suffix>}, {@code <statefulset>-<ordinal>}; suffixes drawn from the apimachinery
 * alphabet (no vowels, no 0/1/3) with the caller's seeded generator, so runs are reproducible.
 */
public final class PodNames {
  private PodNames() {}

  /** The characters of {@code utilrand.String} and {@code SafeEncodeString}. */
  static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

  public static String suffix(RandomGenerator random, int length) {
    char[] c = new char[length];
    for (int i = 0; i < length; i++) {
      c[i] = ALPHABET.charAt(random.nextInt(ALPHABET.length()));
    }
    return new String(c);
  }

  /** A stable 10-character hash of a template's text, in the safe alphabet (like pod-template-hash). */
  public static String templateHash(String templateText) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < templateText.length(); i++) {
      h ^= templateText.charAt(i);
      h *= 0x100000001b3L;
    }
    char[] c = new char[10];
    for (int i = 0; i < c.length; i++) {
      c[i] = ALPHABET.charAt((int) Long.remainderUnsigned(h, ALPHABET.length()));
      h = Long.divideUnsigned(h, ALPHABET.length()) ^ (h << 7);
    }
    return new String(c);
  }
}
