package io.gpufleet.autoscaler.gpu;

import io.gpufleet.model.label.Labels;
import io.gpufleet.model.resource.ResourceList;

/** Extended resources a device plugin registers on a node, and the labels GPU Feature Discovery adds. */
public record Advertised(ResourceList resources, Labels labels) {

  public static final Advertised NOTHING = new Advertised(ResourceList.EMPTY, Labels.EMPTY);
}
