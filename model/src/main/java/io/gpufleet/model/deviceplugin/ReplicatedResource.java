package io.gpufleet.model.deviceplugin;

import java.util.Objects;

/**
 * One {@code sharing.*.resources[]} entry: the resource to share ({@code nvidia.com/gpu} or, in the
 * mixed MIG strategy, {@code nvidia.com/mig-1g.10gb}) and how many replicas each device becomes.
 * {@code devices} is kept as written; the plugin honours only {@code all} (k8s-gpu-semantics §2.1).
 */
public record ReplicatedResource(String name, int replicas, String devices) {

  public ReplicatedResource {
    Objects.requireNonNull(name, "name");
    devices = devices == null || devices.isEmpty() ? "all" : devices;
  }

  public static ReplicatedResource of(String name, int replicas) {
    return new ReplicatedResource(name, replicas, "all");
  }
}
