/**
 * The {@code gpufleet} command line (picocli): one class per command, wiring readers, engine,
 * simulator and reports, and turning user mistakes into one-line errors with exit code 2. No
 * domain logic lives here.
 */
package io.gpufleet.cli;
