/**
 * {@code gpufleet lint}: rules over a cluster's manifests that catch what GPU platforms learn the
 * hard way (the workshop's scheduling, sharing and Karpenter lessons), each finding pointing at an
 * object, a field and its {@code file:line:column}, saying why it matters and how to fix it.
 * Reads through the manifest module; asks the engine only for facts (which GPUs a node has, which
 * device-plugin config it runs).
 */
package io.gpufleet.lint;
