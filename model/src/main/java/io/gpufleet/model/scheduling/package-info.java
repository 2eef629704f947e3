/**
 * The parts of a KubeSchedulerConfiguration profile that change GPU placement, as a value.
 * Building the scheduler from it is {@code engine.scheduler}'s job; reading it from YAML is
 * {@code manifest.kube}'s.
 */
package io.gpufleet.model.scheduling;
