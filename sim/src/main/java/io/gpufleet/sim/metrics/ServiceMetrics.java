package io.gpufleet.sim.metrics;

/**
 * What a workload's users saw: the fewest Ready pods once it had first had all it wanted (so the
 * start-up does not count), the seconds with none Ready after it first served, and requests lost
 * (to outages, at its request rate, and in flight on pods killed before they finished draining).
 */
public record ServiceMetrics(String workload, int minReady, double outageSeconds, double lostRequests,
    int podsKilled) {}
