package io.gpufleet.sim.record;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a run of the same cluster did for pods a static placement left Pending, read from its record:
 * Karpenter launched a NodeClaim they bound to, they bound to a node already there, or Karpenter
 * recorded its {@code FailedScheduling} for them. The run is the twin's own simulation (its
 * provisioning round, launch and registration), so {@code schedule --explain} asks it rather than
 * a second model of Karpenter.
 */
public final class PendingFates {
  private PendingFates() {}

  /** What became of one pod. */
  public enum Kind {
    /** Karpenter launched {@code claim} ({@code launch} says what) and the pod bound to its node. */
    LAUNCHED,
    /** The pod bound to {@code node}, a node that was there before the run: no launch needed. */
    EXISTING_NODE,
    /** Karpenter recorded {@code message}, its {@code FailedScheduling}, and launched nothing for it. */
    REFUSED,
    /** Nothing bound it and Karpenter said nothing of it before the run ended. */
    STILL_PENDING
  }

  /**
   * One pod's fate: {@code runPod} the run's pod it was matched with; {@code at} since the run's start
   * when it bound or Karpenter refused; {@code node} where it bound; {@code nodePool} and {@code launch}
   * (instance type, capacity type, zone, price) of the NodeClaim launched for it; {@code message}
   * Karpenter's words.
   */
  public record Fate(Kind kind, String runPod, Duration at, String node, String nodePool, String launch,
      String message) {}

  /**
   * Each of {@code pendingKeys} (namespace/name) with its fate in {@code record}, which began at
   * {@code start}. A pod the run made under another generated name is matched by its name's prefix
   * (a workload's pods share it: {@code <deployment>-<template hash>-}), the run's pods taken in the
   * order they were made, those not bound at the start first. A pod with no counterpart is left out.
   */
  public static Map<String, Fate> of(RunRecord record, Instant start, List<String> pendingKeys) {
    List<String> created = new ArrayList<>();
    Map<String, RunRecord.Entry> bound = new HashMap<>();
    Map<String, RunRecord.Entry> refused = new HashMap<>();
    Map<String, RunRecord.Entry> launched = new HashMap<>();
    for (RunRecord.Entry e : record.entries()) {
      switch (e.kind()) {
        case POD_CREATED -> created.add(e.subject());
        case POD_SCHEDULED -> bound.putIfAbsent(e.subject(), e);
        case NODECLAIM_LAUNCHED -> launched.putIfAbsent(e.subject(), e);
        // Karpenter's RecordEvent for a pod: "FailedScheduling: Failed to schedule pod, ..."
        case KARPENTER_EVENT -> {
          if (e.message().startsWith(FAILED_SCHEDULING)) {
            refused.putIfAbsent(e.subject(), e);
          }
        }
        default -> { }
      }
    }
    Set<String> used = new HashSet<>();
    Map<String, Fate> out = new LinkedHashMap<>();
    for (String key : pendingKeys) {
      Optional<String> runPod = counterpart(key, created, used, bound, start);
      if (runPod.isEmpty()) {
        continue;
      }
      used.add(runPod.get());
      out.put(key, fate(runPod.get(), bound.get(runPod.get()), refused.get(runPod.get()), launched, start));
    }
    return out;
  }

  private static final String FAILED_SCHEDULING = "FailedScheduling: ";
  private static final String BOUND_TO = "bound to ";

  private static Optional<String> counterpart(String key, List<String> created, Set<String> used,
      Map<String, RunRecord.Entry> bound, Instant start) {
    if (created.contains(key) && !used.contains(key)) {
      return Optional.of(key);
    }
    int dash = key.lastIndexOf('-');
    if (dash < 0) {
      return Optional.empty();
    }
    String prefix = key.substring(0, dash + 1);
    Optional<String> any = Optional.empty();
    for (String c : created) {
      if (used.contains(c) || !c.startsWith(prefix) || c.indexOf('-', prefix.length()) >= 0) {
        continue;
      }
      RunRecord.Entry b = bound.get(c);
      if (b == null || b.time().isAfter(start)) {
        return Optional.of(c);
      }
      if (any.isEmpty()) {
        any = Optional.of(c);
      }
    }
    return any;
  }

  private static Fate fate(String runPod, RunRecord.Entry bound, RunRecord.Entry refused,
      Map<String, RunRecord.Entry> launched, Instant start) {
    if (bound != null) {
      String node = node(bound);
      Duration at = Duration.between(start, bound.time());
      // The twin names a launched node after its NodeClaim, and Karpenter a NodeClaim <nodepool>-<suffix>.
      RunRecord.Entry launch = launched.get(node);
      if (launch != null) {
        int dash = node.lastIndexOf('-');
        return new Fate(Kind.LAUNCHED, runPod, at, node, dash < 0 ? "" : node.substring(0, dash), launch.message(), "");
      }
      return new Fate(Kind.EXISTING_NODE, runPod, at, node, "", "", "");
    }
    if (refused != null) {
      return new Fate(Kind.REFUSED, runPod, Duration.between(start, refused.time()), "", "", "",
          refused.message().substring(FAILED_SCHEDULING.length()));
    }
    return new Fate(Kind.STILL_PENDING, runPod, Duration.ZERO, "", "", "", "");
  }

  /** The node of a {@code PodScheduled} entry: "bound to NODE" or "bound to NODE (why)". */
  private static String node(RunRecord.Entry e) {
    String m = e.message().startsWith(BOUND_TO) ? e.message().substring(BOUND_TO.length()) : e.message();
    int space = m.indexOf(' ');
    return space < 0 ? m : m.substring(0, space);
  }
}
