/**
 * Decodes core Kubernetes objects (Node, Pod, workloads, PDB, ConfigMap, PriorityClass,
 * KubeSchedulerConfiguration) from located YAML into model values, checking what the API server
 * would. Problems go to the shared diagnostics, never as exceptions mid-read.
 */
package io.gpufleet.manifest.kube;
