package io.gpufleet.sim.controller;

import io.gpufleet.engine.workload.PodFactory;
import io.gpufleet.model.workload.Workload;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Each Deployment value's ReplicaSet name ({@link PodFactory#revision}), kept by the value's
 * identity: hashing a template's text is not free, and the workload controllers and kube-scheduler's
 * spread selectors ask for every Deployment again after each change to any workload. Owned by one
 * controller; emptied when large.
 */
final class Revisions {
  private static final int LIMIT = 10_000;
  private final Map<Workload.Deployment, String> names = new IdentityHashMap<>();

  String of(Workload.Deployment d) {
    if (names.size() > LIMIT) {
      names.clear();
    }
    return names.computeIfAbsent(d, PodFactory::revision);
  }
}
