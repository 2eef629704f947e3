/**
 * Live clusters in: a read-only import of a cluster's state through the Kubernetes API (fabric8
 * kubernetes-client over the JDK's HTTP client), written as one deterministic {@code kind: List}
 * snapshot that the manifest reader reads like any file. Nothing here decides anything about the
 * cluster: it only lists objects, drops noise and sorts.
 */
package io.gpufleet.k8s;
