/**
 * The located-YAML layer every decoder reads through: a streaming YAML reader, nodes that
 * remember line and column, typed cursors with field paths, Go durations, and diagnostics that
 * collect every problem. Nothing here knows a Kubernetes kind.
 */
package io.gpufleet.manifest.yaml;
