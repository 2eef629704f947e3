package io.gpufleet.sim.metrics;

/**
 * What a workload's users saw, after it first became Ready: the fewest Ready pods while it wanted
 * some, the seconds with none Ready, and requests lost (to outages, at its request rate, and
 * in flight on pods killed before they finished draining).
 */
public record ServiceMetrics(String workload, int minReady, double outageSeconds, double lostRequests,
    int podsKilled) {}
