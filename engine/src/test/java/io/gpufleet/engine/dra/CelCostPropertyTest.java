package io.gpufleet.engine.dra;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.dra.AttributeValue;
import io.gpufleet.model.dra.Device;
import io.gpufleet.testing.property.Gen;
import io.gpufleet.testing.property.Property;
import java.time.Duration;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Generated CEL selectors (nested comprehensions, {@code cel.bind}, string and list concatenation,
 * device attributes) always end within the cost limit and in bounded time: with the estimate, a run is
 * either refused before it starts or counts no more than its estimate; without it, the runtime limit
 * stops every run that would pass {@code CELSelectorExpressionMaxCost}.
 */
class CelCostPropertyTest {

  private static final Device GPU = new Device("gpu-0", Map.of("productName", new AttributeValue.Str("NVIDIA H100"),
      "index", new AttributeValue.Int(3)), Map.of("memory", "80Gi"));
  private static final String DRIVER = "gpu.nvidia.com";
  private static final Duration BOUND = Duration.ofSeconds(30);

  /** A random selector of depth at most {@code depth}, made from {@code seed}. */
  static String selector(long seed) {
    return new Maker(new SplittableRandom(seed)).bool(5);
  }

  private record Maker(SplittableRandom r) {
    private static final String[] VARS = {"x", "y", "z"};

    String bool(int d) {
      if (d == 0) {
        return r.nextBoolean() ? "true" : "false";
      }
      return switch (r.nextInt(11)) {
        case 9 -> nestedAll(3 + r.nextInt(6));
        case 10 -> doubling(5 + r.nextInt(26));
        case 0 -> integer(d - 1) + " < " + integer(d - 1);
        case 1 -> string(d - 1) + ".startsWith(" + string(d - 1) + ")";
        case 2 -> list(d - 1) + ".all(" + var() + ", " + bool(d - 1) + ")";
        case 3 -> list(d - 1) + ".exists(" + var() + ", " + bool(d - 1) + ")";
        case 4 -> "cel.bind(s, " + string(d - 1) + ", size(s + s) >= 0 && " + bool(d - 1) + ")";
        case 5 -> bool(d - 1) + " && " + bool(d - 1);
        case 6 -> bool(d - 1) + " || " + bool(d - 1);
        case 7 -> "size(" + list(d - 1) + ") >= " + integer(d - 1);
        default -> "device.attributes[\"gpu.nvidia.com\"].productName == " + string(d - 1);
      };
    }

    String integer(int d) {
      if (d == 0) {
        return Integer.toString(r.nextInt(100));
      }
      return switch (r.nextInt(4)) {
        case 0 -> "size(" + string(d - 1) + ")";
        case 1 -> integer(d - 1) + " + " + integer(d - 1);
        case 2 -> "device.attributes[\"gpu.nvidia.com\"].index";
        default -> Integer.toString(r.nextInt(1000));
      };
    }

    String string(int d) {
      if (d == 0) {
        return "'" + "ab".repeat(r.nextInt(5)) + "'";
      }
      return switch (r.nextInt(4)) {
        case 0 -> string(d - 1) + " + " + string(d - 1);
        case 1 -> "cel.bind(t, " + string(d - 1) + ", t + t + t)";
        case 2 -> "device.driver";
        default -> "'" + "xy".repeat(r.nextInt(20)) + "'";
      };
    }

    String list(int d) {
      if (d == 0) {
        StringBuilder b = new StringBuilder("[");
        int n = r.nextInt(12);
        for (int i = 0; i < n; i++) {
          b.append(i == 0 ? "" : ",").append(r.nextInt(50));
        }
        return b.append("]").toString();
      }
      return switch (r.nextInt(4)) {
        case 0 -> list(d - 1) + " + " + list(d - 1);
        case 1 -> list(d - 1) + ".map(" + var() + ", " + integer(d - 1) + ")";
        case 2 -> list(d - 1) + ".filter(" + var() + ", " + bool(d - 1) + ")";
        default -> list(0);
      };
    }

    /** {@code k} nested {@code all()} over ten elements: 10^k steps. */
    String nestedAll(int k) {
      String e = r.nextBoolean() ? "true" : "a0 >= 0";
      for (int i = k - 1; i >= 0; i--) {
        e = "[0,1,2,3,4,5,6,7,8,9].all(a" + i + ", " + e + ")";
      }
      return e;
    }

    /** A string doubled {@code k} times with {@code cel.bind}. */
    String doubling(int k) {
      String b = "size(d" + k + ") > 0";
      for (int i = k; i >= 1; i--) {
        b = "cel.bind(d" + i + ", d" + (i - 1) + " + d" + (i - 1) + ", " + b + ")";
      }
      return "cel.bind(d0, " + string(1) + ", " + b + ")";
    }

    String var() {
      return VARS[r.nextInt(VARS.length)];
    }
  }

  @Test
  void everyRunEndsWithinItsCostLimitAndInBoundedTime() {
    CelDeviceSelector checked = new CelDeviceSelector();
    CelDeviceSelector unchecked = new CelDeviceSelector(false);
    int[] refused = new int[1];
    int[] stopped = new int[1];
    Property.check(0x33CE1L, 300, Gen.anyLong(), seed -> {
      String e = selector(seed);
      long start = System.nanoTime();
      CelDeviceSelector.Run run = checked.run(e, DRIVER, GPU);
      if (run.outcome().equals(new CelDeviceSelector.Outcome.Failed("too complex, exceeds cost limit"))) {
        refused[0]++;
      } else if (checked.estimatedCost(e).isPresent()) {
        // The estimate bounds what the run counted, and so the run stayed within the limit.
        assertThat(run.cost()).as(e).isLessThanOrEqualTo(checked.estimatedCost(e).getAsLong())
            .isLessThanOrEqualTo(CelDeviceSelector.COST_LIMIT);
      }
      CelDeviceSelector.Run raw = unchecked.run(e, DRIVER, GPU);
      if (raw.outcome().equals(new CelDeviceSelector.Outcome.Failed(
          "CEL runtime error: " + CelDeviceSelector.COST_EXCEEDED))) {
        stopped[0]++;
      } else {
        assertThat(raw.cost()).as(e).isLessThanOrEqualTo(CelDeviceSelector.COST_LIMIT);
      }
      assertThat(Duration.ofNanos(System.nanoTime() - start)).as(e).isLessThan(BOUND);
    });
    // The generator reaches both limits, so the property is about them, not only about cheap selectors.
    assertThat(refused[0]).isPositive();
    assertThat(stopped[0]).isPositive();
  }
}
