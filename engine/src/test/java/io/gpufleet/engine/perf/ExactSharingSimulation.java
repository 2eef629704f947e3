package io.gpufleet.engine.perf;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A reference for {@link SharingModel#openLoop}: an event-by-event simulation of the very mechanics
 * the model approximates — memory-bound tenants, Poisson arrivals, each tenant serving its requests
 * one at a time, co-tenant bursts sharing the device by {@link Contention#burstStretch}. It drops the
 * model's two approximations (independent co-tenants, the exponential-tail wait), so the gap between
 * the two is the approximation's error, not the model's. Seeded: the same run every time.
 */
final class ExactSharingSimulation {

  record Result(double p50Ms, double p99Ms, double meanMs) {}

  private ExactSharingSimulation() {}

  static Result run(Contention contention, double gpuMs, int tenants, double ratePerMs, int requestsPerTenant, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    double[][] arrivals = new double[tenants][requestsPerTenant];
    for (int i = 0; i < tenants; i++) {
      double t = 0;
      for (int r = 0; r < requestsPerTenant; r++) {
        t += -Math.log(1 - random.nextDouble()) / ratePerMs;
        arrivals[i][r] = t;
      }
    }
    int[] next = new int[tenants];
    List<ArrayDeque<Double>> queued = new ArrayList<>();
    for (int i = 0; i < tenants; i++) {
      queued.add(new ArrayDeque<>());
    }
    double[] remaining = new double[tenants];
    double[] arrivedAt = new double[tenants];
    Arrays.fill(remaining, -1);
    List<Double> latencies = new ArrayList<>();
    double now = 0;
    while (true) {
      int busy = 0;
      for (double r : remaining) {
        if (r >= 0) {
          busy++;
        }
      }
      double speed = busy == 0 ? 0 : 1.0 / contention.burstStretch(busy - 1);
      int done = -1;
      double toDone = Double.POSITIVE_INFINITY;
      for (int i = 0; i < tenants; i++) {
        if (remaining[i] >= 0 && remaining[i] / speed < toDone) {
          toDone = remaining[i] / speed;
          done = i;
        }
      }
      int arriving = -1;
      double toArrival = Double.POSITIVE_INFINITY;
      for (int i = 0; i < tenants; i++) {
        if (next[i] < requestsPerTenant && arrivals[i][next[i]] - now < toArrival) {
          toArrival = arrivals[i][next[i]] - now;
          arriving = i;
        }
      }
      if (done < 0 && arriving < 0) {
        break;
      }
      double dt = Math.min(toDone, toArrival);
      for (int i = 0; i < tenants; i++) {
        if (remaining[i] >= 0) {
          remaining[i] = Math.max(0, remaining[i] - dt * speed);
        }
      }
      now += dt;
      if (toDone <= toArrival) {
        latencies.add(now - arrivedAt[done]);
        remaining[done] = -1;
        Double waiting = queued.get(done).poll();
        if (waiting != null) {
          arrivedAt[done] = waiting;
          remaining[done] = gpuMs;
        }
      } else {
        double at = arrivals[arriving][next[arriving]++];
        if (remaining[arriving] < 0) {
          arrivedAt[arriving] = at;
          remaining[arriving] = gpuMs;
        } else {
          queued.get(arriving).add(at);
        }
      }
    }
    double[] sorted = latencies.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    double mean = Arrays.stream(sorted).average().orElse(0);
    return new Result(sorted[sorted.length / 2], sorted[(int) (0.99 * sorted.length)], mean);
  }
}
