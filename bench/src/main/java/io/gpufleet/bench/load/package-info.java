/**
 * The load harness of {@code gpufleet serve} ({@code scripts/load-dashboard}): concurrent clients on
 * loopback against a dashboard, latency percentiles and errors printed. Measurement only, never a
 * unit test.
 */
package io.gpufleet.bench.load;
