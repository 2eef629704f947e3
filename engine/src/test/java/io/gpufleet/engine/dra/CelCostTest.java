package io.gpufleet.engine.dra;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.dra.AttributeValue;
import io.gpufleet.model.dra.Device;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 33's CEL selectors that hung or ran out of memory: the estimated-cost check refuses them
 * before they run ({@code validateCELSelector}: {@code too complex, exceeds cost limit} above
 * {@code CELSelectorExpressionMaxCost} = 1,000,000), and with the estimate skipped the runtime limit
 * stops them quickly with cel-go's {@code operation cancelled: actual cost limit exceeded}.
 */
class CelCostTest {

  private static final Device GPU = new Device("gpu-0", Map.of("productName", new AttributeValue.Str("NVIDIA H100")),
      Map.of("memory", "80Gi"));

  /** Nine nested {@code all()} over ten elements: 10^9 steps. */
  static final String NINE_NESTED_ALL;
  /** {@code cel.bind} doubling a string 40 times: 2^40 characters. */
  static final String BIND_DOUBLING;

  static {
    String ten = "[0,1,2,3,4,5,6,7,8,9]";
    String e = "true";
    for (int i = 8; i >= 0; i--) {
      e = ten + ".all(x" + i + ", " + e + ")";
    }
    NINE_NESTED_ALL = e;
    String b = "size(s40) > 0";
    for (int i = 40; i >= 1; i--) {
      b = "cel.bind(s" + i + ", s" + (i - 1) + " + s" + (i - 1) + ", " + b + ")";
    }
    BIND_DOUBLING = "cel.bind(s0, 'ab', " + b + ")";
  }

  @Test
  void aSimpleSelectorIsCheapAndRuns() {
    CelDeviceSelector cel = new CelDeviceSelector();
    String e = "device.attributes[\"gpu.nvidia.com\"].productName.startsWith(\"NVIDIA\")";
    assertThat(cel.tooComplex(e)).isFalse();
    assertThat(cel.estimatedCost(e).orElseThrow()).isLessThan(100);
    assertThat(cel.evaluate(e, "gpu.nvidia.com", GPU)).isEqualTo(new CelDeviceSelector.Outcome.Match());
  }

  @Test
  void nineNestedAllsAreTooComplexWhenReadAndStopAtTheRuntimeLimitWhenRun() {
    CelDeviceSelector cel = new CelDeviceSelector();
    assertThat(cel.tooComplex(NINE_NESTED_ALL)).isTrue();
    assertThat(cel.evaluate(NINE_NESTED_ALL, "gpu.nvidia.com", GPU))
        .isEqualTo(new CelDeviceSelector.Outcome.Failed("too complex, exceeds cost limit"));
    long start = System.nanoTime();
    CelDeviceSelector.Run run = new CelDeviceSelector(false).run(NINE_NESTED_ALL, "gpu.nvidia.com", GPU);
    assertThat(run.outcome()).isEqualTo(new CelDeviceSelector.Outcome.Failed(
        "CEL runtime error: operation cancelled: actual cost limit exceeded"));
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
  }

  @Test
  void aBindDoublingIsTooComplexWhenReadAndEndsInTheCostErrorNotOutOfMemoryWhenRun() {
    CelDeviceSelector cel = new CelDeviceSelector();
    assertThat(cel.tooComplex(BIND_DOUBLING)).isTrue();
    CelDeviceSelector.Run run = new CelDeviceSelector(false).run(BIND_DOUBLING, "gpu.nvidia.com", GPU);
    assertThat(run.outcome()).isEqualTo(new CelDeviceSelector.Outcome.Failed(
        "CEL runtime error: operation cancelled: actual cost limit exceeded"));
  }

  @Test
  void aComprehensionJustUnderTheLimitRunsAndItsCountStaysUnderTheEstimate() {
    // Three nested all() over ten elements: 10^3 steps, far under the limit.
    String ten = "[0,1,2,3,4,5,6,7,8,9]";
    String e = ten + ".all(a, " + ten + ".all(b, " + ten + ".all(c, a + b + c >= 0)))";
    CelDeviceSelector cel = new CelDeviceSelector();
    assertThat(cel.tooComplex(e)).isFalse();
    CelDeviceSelector.Run run = cel.run(e, "gpu.nvidia.com", GPU);
    assertThat(run.outcome()).isEqualTo(new CelDeviceSelector.Outcome.Match());
    assertThat(run.cost()).isGreaterThan(1000).isLessThanOrEqualTo(cel.estimatedCost(e).orElseThrow());
  }
}
