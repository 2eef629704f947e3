package io.gpufleet.model.node;

import java.util.List;

/**
 * An image a node holds, as its status reports it ({@code status.images[]}): the names it goes by
 * and its size, which kube-scheduler's ImageLocality weighs.
 */
public record ContainerImage(List<String> names, long sizeBytes) {

  public ContainerImage {
    names = List.copyOf(names);
    if (sizeBytes < 0) {
      throw new IllegalArgumentException("sizeBytes must not be negative, found " + sizeBytes);
    }
  }

  public boolean hasName(String name) {
    return names.contains(name);
  }

  /**
   * The name the container runtime reports for an image reference: {@code :latest} appended when
   * the reference has no tag or digest. Source: kubernetes/kubernetes {@code
   * pkg/scheduler/framework/plugins/imagelocality/image_locality.go} ({@code normalizedImageName}).
   */
  public static String normalizedName(String reference) {
    if (reference.lastIndexOf(':') <= reference.lastIndexOf('/')) {
      return reference + ":latest";
    }
    return reference;
  }
}
