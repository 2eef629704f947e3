package io.gpufleet.engine.perf;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.gpu.GpuCatalog;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The open-loop runs of the H200 measurement were kept aside to be predicted, not fitted: these
 * are the model's predictions for them (printed for the README), with the checks that hold for any
 * sensible answer.
 */
class OpenLoopPredictionTest {

  private final MeasurementReplay replay =
      new MeasurementReplay(new SharingModel(Calibration.H200_2026_11_30), GpuCatalog.builtIn());

  @Test
  void bigAtSixtyPerSecondPerTenant() {
    var predictions = replay.openLoop();
    for (var p : predictions) {
      System.out.printf(Locale.ROOT, "%-13s N=%d  p50 %7.2f  p99 %7.2f  load %.2f%n", p.mode(), p.tenants(), p.p50Ms(),
          p.p99Ms(), p.load());
    }
    assertThat(predictions).hasSize(6);
    // Alone, both modes are the same card: a lone request takes 3.70 ms; Poisson arrivals at 60/s queue a little.
    assertThat(predictions.get(0).p50Ms()).isCloseTo(3.70, org.assertj.core.data.Offset.offset(0.05));
    assertThat(predictions.get(0).p99Ms()).isBetween(3.70, 3.70 * 4);
    // Time-slicing: 4 × 60 req/s is 96% of what time-slicing can serve (249.7 req/s); p99 explodes.
    var ts4 = predictions.get(2);
    var mps4 = predictions.get(5);
    assertThat(ts4.load()).isBetween(0.9, 1.0);
    assertThat(mps4.p99Ms()).isLessThan(ts4.p99Ms());
    for (int i = 0; i < 2; i++) {
      assertThat(predictions.get(i + 1).p99Ms()).isGreaterThanOrEqualTo(predictions.get(i).p99Ms());
      assertThat(predictions.get(i + 4).p99Ms()).isGreaterThanOrEqualTo(predictions.get(i + 3).p99Ms());
    }
  }
}
