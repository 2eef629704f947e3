package io.gpufleet.model.workload;

import io.gpufleet.model.label.Labels;
import io.gpufleet.model.pod.PodSpec;

/** The pod template of a workload: labels and annotations of the pods, and their spec. */
public record PodTemplate(Labels labels, Labels annotations, PodSpec spec) {}
