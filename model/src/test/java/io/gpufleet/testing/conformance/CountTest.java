package io.gpufleet.testing.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CountTest {

  private static final Runnable FAILS = () -> {
    throw new AssertionError("disagrees");
  };

  @Test
  void theCounterRunsEachCheck() {
    // An unmarked case whose check fails, or throws on upstream's input, is not counted as passing;
    // a marked one never is, whether or not its check passes.
    Runnable throwsOnInput = () -> {
      throw new IllegalStateException("the twin refused upstream's input");
    };
    List<UpstreamCase> cases = List.of(UpstreamCase.of("a", "pkg/x_test.go", "passes", () -> {}),
        UpstreamCase.of("a", "pkg/x_test.go", "fails", FAILS),
        UpstreamCase.of("a", "pkg/x_test.go", "throws", throwsOnInput),
        UpstreamCase.of("b", "pkg/x_test.go", "marked", FAILS).differs("a reason"),
        UpstreamCase.of("b", "pkg/x_test.go", "marked but passing", () -> {}).differs("fixed"));
    Map<String, Count> counts = Count.perArea(cases);
    assertThat(counts).containsExactly(Map.entry("a", new Count(3, 1)), Map.entry("b", new Count(2, 0)));
    assertThat(Count.total(counts.values())).isEqualTo(new Count(5, 1));
    assertThat(Count.perAreaAndTotal(cases, "total")).containsExactly(Map.entry("a", new Count(3, 1)),
        Map.entry("b", new Count(2, 0)), Map.entry("total", new Count(5, 1)));
    assertThat(Cases.differences(cases)).containsExactly("marked", "marked but passing");
    assertThat(Cases.differencesThatPass(cases)).containsExactly("marked but passing");
  }

  @Test
  void aRepeatedSourceAndTestIsFound() {
    List<UpstreamCase> cases = List.of(UpstreamCase.of("a", "f", "t", () -> {}), UpstreamCase.of("b", "f", "u", () -> {}),
        UpstreamCase.of("c", "f", "t", FAILS));
    assertThat(Cases.repeated(cases)).containsExactly("f#t");
  }
}
