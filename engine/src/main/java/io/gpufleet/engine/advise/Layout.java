package io.gpufleet.engine.advise;

import io.gpufleet.model.deviceplugin.SharingMode;
import io.gpufleet.model.gpu.MigProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A placement of replicas: devices of one kind (whole cards, or MIG instances of one profile,
 * {@code devicesPerGpu} of them to a card), each holding the replicas in its list and used as
 * {@code mode} says.
 */
record Layout(SharingMode mode, Optional<MigProfile> slice, int devicesPerGpu, List<List<Replica>> devices) {

  Layout {
    devices = devices.stream().map(List::copyOf).toList();
  }

  int gpus() {
    return (devices.size() + devicesPerGpu - 1) / devicesPerGpu;
  }

  /** The replicas on each physical GPU. */
  List<List<Replica>> perGpu() {
    List<List<Replica>> out = new ArrayList<>();
    for (int g = 0; g < gpus(); g++) {
      List<Replica> on = new ArrayList<>();
      for (int d = g * devicesPerGpu; d < Math.min(devices.size(), (g + 1) * devicesPerGpu); d++) {
        on.addAll(devices.get(d));
      }
      out.add(on);
    }
    return out;
  }

  /** Deals replicas round robin onto {@code n} devices, so mixed workloads spread evenly. */
  static List<List<Replica>> deal(List<Replica> replicas, int n) {
    List<List<Replica>> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(new ArrayList<>());
    }
    for (int i = 0; i < replicas.size(); i++) {
      out.get(i % n).add(replicas.get(i));
    }
    return out;
  }
}
