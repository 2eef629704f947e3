/**
 * The one cluster assembly: objects read and admitted as the API server admits them (manifest), then
 * each node as it is now, registered through the GPU Operator's stack (MIG manager, device plugin,
 * GFD; NVIDIA's DRA driver for nodes left to it), into one {@link io.gpufleet.cluster.Cluster}. Every
 * command is a view of it: {@code schedule}, {@code smi}, {@code node describe}, {@code lint}, and the
 * scenario's {@code cluster:} (so {@code simulate} and {@code serve}). A node's own report (its status'
 * GPU resources and its labels) is the truth of "now"; the model drives only what changes next.
 */
package io.gpufleet.cluster;
