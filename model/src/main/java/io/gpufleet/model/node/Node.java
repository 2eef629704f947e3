package io.gpufleet.model.node;

import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.Taint;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A node as the scheduler sees it: labels, taints, whether it is cordoned, its capacity and
 * allocatable resources, and the images it holds. Allocatable defaults to capacity when a manifest
 * gives only capacity.
 */
public record Node(
    ObjectMeta meta,
    List<Taint> taints,
    boolean unschedulable,
    ResourceList capacity,
    ResourceList allocatable,
    Optional<String> providerId,
    List<ContainerImage> images) {

  public Node {
    Objects.requireNonNull(meta, "meta");
    taints = List.copyOf(taints);
    capacity = capacity == null ? ResourceList.EMPTY : capacity;
    allocatable = allocatable == null ? capacity : allocatable;
    providerId = providerId == null ? Optional.empty() : providerId;
    images = images == null ? List.of() : List.copyOf(images);
  }

  public static Node of(String name, Labels labels, List<Taint> taints, ResourceList allocatable) {
    return new Node(ObjectMeta.clusterScoped(name, labels, Labels.EMPTY), taints, false, allocatable, allocatable,
        Optional.empty(), List.of());
  }

  public String name() {
    return meta.name();
  }

  public Labels labels() {
    return meta.labels();
  }

  public Node withLabels(Labels labels) {
    return new Node(meta.withLabels(labels), taints, unschedulable, capacity, allocatable, providerId, images);
  }

  public Node withTaints(List<Taint> newTaints) {
    return new Node(meta, newTaints, unschedulable, capacity, allocatable, providerId, images);
  }

  public Node withUnschedulable(boolean cordoned) {
    return new Node(meta, taints, cordoned, capacity, allocatable, providerId, images);
  }

  public Node withResources(ResourceList newCapacity, ResourceList newAllocatable) {
    return new Node(meta, taints, unschedulable, newCapacity, newAllocatable, providerId, images);
  }

  public Node withImages(List<ContainerImage> newImages) {
    return new Node(meta, taints, unschedulable, capacity, allocatable, providerId, newImages);
  }

  /** The image this node holds under {@code name}, if any. */
  public Optional<ContainerImage> image(String name) {
    for (ContainerImage i : images) {
      if (i.hasName(name)) {
        return Optional.of(i);
      }
    }
    return Optional.empty();
  }
}
