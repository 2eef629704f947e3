/**
 * Reads {@code WorkloadProfile} documents and the equivalent command-line values into the
 * model's workload profiles, applying and reporting gpufleet's defaults. Every problem names
 * file, line, column and field; the advice itself is computed in {@code engine.advise}.
 */
package io.gpufleet.manifest.advise;
