package io.gpufleet.web.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.web.Lab;
import io.gpufleet.web.view.PlayedRun;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The bound on what-ifs playing at once: with one allowed and one held playing, a further request
 * is refused with 429 and a message, the server keeps answering meanwhile, and once the first ends
 * the next what-if is played.
 */
class DashboardConcurrencyTest {

  @Test
  void aWhatIfOverTheBoundGets429AndTheServerStillAnswers() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicBoolean hold = new AtomicBoolean(false);
    // Plays as the dashboard does; while `hold` is set, a play waits for the test to let it go.
    RunStore.Player held = (label, file, scenario, maxFrames) -> {
      if (hold.getAndSet(false)) {
        entered.countDown();
        try {
          if (!release.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("never released");
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        }
      }
      return PlayedRun.play(label, file, scenario, maxFrames);
    };
    Limits oneAtATime = new Limits(4, 1, Duration.ofMillis(200), 20_000, 2048);
    try (Dashboard dashboard = Dashboard.start(Lab.lab(), "127.0.0.1", 0, oneAtATime, held)) {
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
      String base = "http://127.0.0.1:" + dashboard.port();
      HttpRequest whatIf = HttpRequest.newBuilder(URI.create(base + "/api/runs"))
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString("{\"consolidationPolicy\": \"WhenEmpty\"}")).build();
      hold.set(true);
      CompletableFuture<HttpResponse<String>> first = http.sendAsync(whatIf, HttpResponse.BodyHandlers.ofString());
      assertThat(entered.await(60, TimeUnit.SECONDS)).as("the first what-if started playing").isTrue();

      HttpResponse<String> refused = http.send(whatIf, HttpResponse.BodyHandlers.ofString());
      assertThat(refused.statusCode()).isEqualTo(429);
      assertThat(refused.body()).contains("\"error\"").contains("already playing 1 what-if run(s); try again shortly");
      // The server answers other requests while the bound is taken.
      HttpResponse<String> runs = http.send(HttpRequest.newBuilder(URI.create(base + "/api/runs")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(runs.statusCode()).isEqualTo(200);
      assertThat(first).isNotDone();

      release.countDown();
      assertThat(first.get(120, TimeUnit.SECONDS).statusCode()).isEqualTo(201);
      // The slot is free again: the next what-if plays.
      HttpResponse<String> again = http.send(whatIf, HttpResponse.BodyHandlers.ofString());
      assertThat(again.statusCode()).as(again.body()).isEqualTo(201);
      assertThat(dashboard.runs()).hasSize(3);
    }
  }
}
