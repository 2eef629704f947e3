/** How durations read in user text: exactly, as Kubernetes manifests write them, or as kubectl's AGE column rounds them. */
package io.gpufleet.model.time;
