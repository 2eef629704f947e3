package io.gpufleet.nvml.bench;

/** One tenant's work: a request runs to completion on the device before {@link #request()} returns. */
public interface Workload extends AutoCloseable {

  void request();

  /** GPU time of every request so far, from device events, in milliseconds. */
  double gpuMillis();

  @Override
  void close();
}
