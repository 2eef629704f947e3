/**
 * Renders a batch placement as {@code kubectl get pods -o wide} with FailedScheduling events, or
 * as JSON. Rendering only.
 */
package io.gpufleet.report.placement;
