package io.gpufleet.bench.load;

import io.gpufleet.scenario.ScenarioFile;
import io.gpufleet.scenario.ScenarioReader;
import io.gpufleet.scenario.ScenarioSources;
import io.gpufleet.web.server.Dashboard;
import io.gpufleet.web.server.Limits;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A bounded load test of {@code gpufleet serve} on loopback, not a unit test: starts the dashboard
 * on a scenario (default: the lab), runs {@code clients} concurrent clients for {@code seconds},
 * each asking in a loop what the page asks (the page, the script, the run's overview, the cluster
 * at a seeded random frame), and prints the latency percentiles, the requests answered and the
 * errors (any status but 200, or a failed request), with the machine's load average beside them.
 *
 * <pre>scripts/load-dashboard [clients] [seconds] [scenario.yaml]</pre>
 */
public final class DashboardLoad {
  private DashboardLoad() {}

  public static void main(String[] args) throws Exception {
    int clients = args.length > 0 ? Integer.parseInt(args[0]) : 50;
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    Path scenarioPath = Path.of(args.length > 2 ? args[2] : "examples/lab/lab.yaml").toAbsolutePath();
    if (clients < 1 || clients > 1_000 || seconds < 1 || seconds > 600) {
      throw new IllegalArgumentException("clients 1..1000 and seconds 1..600, found " + clients + " and " + seconds);
    }
    ScenarioFile file = ScenarioReader.read(scenarioPath.toString(), Files.readString(scenarioPath),
        ScenarioSources.directory(scenarioPath.getParent()));
    try (Dashboard dashboard = Dashboard.start(file, "127.0.0.1", 0, Limits.DEFAULTS)) {
      int frames = dashboard.runs().getFirst().frames().size();
      String base = "http://127.0.0.1:" + dashboard.port();
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
          .executor(Executors.newVirtualThreadPerTaskExecutor()).build();
      double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
      long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
      List<Future<Client>> running = new ArrayList<>();
      try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
        for (int c = 0; c < clients; c++) {
          long seed = c;
          running.add(pool.submit(() -> client(http, base, frames, deadline, new SplittableRandom(seed))));
        }
      }
      double loadAfter = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
      long[] all = running.stream().map(DashboardLoad::get).flatMapToLong(c -> Arrays.stream(c.latenciesNanos()))
          .sorted().toArray();
      long errors = running.stream().map(DashboardLoad::get).mapToLong(Client::errors).sum();
      System.out.printf(Locale.ROOT, "dashboard load: %d clients, %d s, scenario %s, %d frames%n", clients, seconds,
          file.scenario().name(), frames);
      System.out.printf(Locale.ROOT, "requests %d (%.0f/s), errors %d%n", all.length, all.length / (double) seconds,
          errors);
      System.out.printf(Locale.ROOT, "latency p50 %.1f ms, p99 %.1f ms, max %.1f ms%n", ms(all, 0.50), ms(all, 0.99),
          all.length == 0 ? 0 : all[all.length - 1] / 1e6);
      System.out.printf(Locale.ROOT, "load average %.2f before, %.2f after, on %d cores (a shared machine)%n",
          loadBefore, loadAfter, Runtime.getRuntime().availableProcessors());
    }
  }

  /** One client's latencies and errors. */
  record Client(long[] latenciesNanos, long errors) {}

  private static Client client(HttpClient http, String base, int frames, long deadline, SplittableRandom random) {
    long[] lat = new long[1024];
    int n = 0;
    long errors = 0;
    String[] fixed = {"/", "/assets/app.js", "/api/runs/0"};
    int i = 0;
    while (System.nanoTime() < deadline) {
      String path = i % 4 < 3 ? fixed[i % 4] : "/api/runs/0/cluster?frame=" + random.nextInt(frames);
      i++;
      long t0 = System.nanoTime();
      try {
        HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create(base + path))
            .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofByteArray());
        if (r.statusCode() != 200) {
          errors++;
        }
      } catch (IOException e) {
        errors++;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      if (n == lat.length) {
        lat = Arrays.copyOf(lat, n * 2);
      }
      lat[n++] = System.nanoTime() - t0;
    }
    return new Client(Arrays.copyOf(lat, n), errors);
  }

  private static Client get(Future<Client> f) {
    try {
      return f.get();
    } catch (Exception e) {
      throw new IllegalStateException("a load client failed", e);
    }
  }

  /** Nearest-rank percentile of sorted nanoseconds, in milliseconds. */
  private static double ms(long[] sorted, double q) {
    if (sorted.length == 0) {
      return 0;
    }
    int rank = Math.max(1, (int) Math.ceil(q * sorted.length));
    return sorted[rank - 1] / 1e6;
  }
}
