/**
 * {@code kubectl describe node}-style text for a registered node, with what gpufleet knows about
 * its GPUs and device plugin. Rendering only.
 */
package io.gpufleet.report.node;
