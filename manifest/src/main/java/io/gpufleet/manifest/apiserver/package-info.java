/**
 * The API server's defaulting and admission of pods, as one chain ({@link io.gpufleet.manifest.apiserver.Admission}):
 * what a manifest's objects become between {@code kubectl apply} and the scheduler, with which
 * admission plugins are on as a setting ({@link io.gpufleet.manifest.apiserver.AdmissionPlugins},
 * EKS's set by default).
 */
package io.gpufleet.manifest.apiserver;
