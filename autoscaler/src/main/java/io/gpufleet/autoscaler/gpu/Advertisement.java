package io.gpufleet.autoscaler.gpu;

import io.gpufleet.model.label.Labels;
import io.gpufleet.model.resource.ResourceList;

/** Extended resources a device plugin registers on a node, and the labels published with them. */
public record Advertisement(ResourceList resources, Labels labels) {

  public static final Advertisement NOTHING = new Advertisement(ResourceList.EMPTY, Labels.EMPTY);
}
