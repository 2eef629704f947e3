package io.gpufleet.model.advise;

/**
 * A latency objective: the 99th percentile of request latency, measured from the request's
 * arrival (as the H200 measurement measures it: queueing included).
 */
public record LatencySlo(double p99Ms) {

  public LatencySlo {
    if (!(p99Ms > 0 && Double.isFinite(p99Ms))) {
      throw new IllegalArgumentException("an SLO's p99 must be a positive duration, found " + p99Ms + " ms");
    }
  }
}
