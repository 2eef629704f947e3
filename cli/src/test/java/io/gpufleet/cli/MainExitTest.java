package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * A successful call ends by returning from {@code main} (no Runtime.exit and its logger look-up)
 * only when no other live non-daemon thread would keep the JVM running after it.
 */
class MainExitTest {

  @Test
  void onlyLiveNonDaemonThreadsOtherThanMainKeepTheJvmAlive() throws InterruptedException {
    Thread main = Thread.currentThread();
    CountDownLatch release = new CountDownLatch(1);
    Thread worker = started(false, release);
    Thread daemon = started(true, release);
    Thread finished = new Thread(() -> { });
    finished.start();
    finished.join();
    try {
      assertThat(Main.otherThreadKeepsJvmAlive(main, List.of(main))).isFalse();
      assertThat(Main.otherThreadKeepsJvmAlive(main, List.of(main, daemon, finished))).isFalse();
      assertThat(Main.otherThreadKeepsJvmAlive(main, List.of(main, daemon, worker))).isTrue();
    } finally {
      release.countDown();
      worker.join();
      daemon.join();
    }
    assertThat(Main.otherThreadKeepsJvmAlive(main, List.of(main, worker))).as("once it ended").isFalse();
  }

  private static Thread started(boolean daemon, CountDownLatch release) {
    Thread t = new Thread(() -> {
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    t.setDaemon(daemon);
    t.start();
    return t;
  }
}
