package io.gpufleet.web.view;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The Find-nodes words, as the page's help and docs/commands.md describe them. */
class NodeFilterTest {

  private static boolean matches(String filter) {
    return NodeFilter.of(filter).matches("ip-10-0-7-12.ec2.internal", "gpu-inference", "g5.12xlarge", "spot",
        "initialized");
  }

  @Test
  void everyWordMustMatchIgnoringCase() {
    assertThat(matches("")).isTrue();
    assertThat(NodeFilter.of("  ").isEmpty()).isTrue();
    assertThat(matches("10-0-7")).isTrue();
    assertThat(matches("G5.12X")).isTrue(); // part of the instance type, any case
    assertThat(matches("inference spot")).isTrue();
    assertThat(matches("inference on-demand")).isFalse();
  }

  @Test
  void aFieldAndAValueMatchThatFieldExactly() {
    assertThat(matches("pool:gpu-inference")).isTrue();
    assertThat(matches("pool:gpu")).isFalse(); // exact, not a part
    assertThat(matches("type:g5.12xlarge capacity:spot state:initialized")).isTrue();
    assertThat(matches("state:draining")).isFalse();
    // an unknown field is a word like any other: part of a name or label
    assertThat(matches("zone:a")).isFalse();
  }

  @Test
  void aLaneIsKeptByItsNameAndKey() {
    assertThat(NodeFilter.of("ip-10 nodeclaim-x").allIn("ip-10-0-7-12.ec2.internal nodeclaim-xyz")).isTrue();
    assertThat(NodeFilter.of("ip-11").allIn("ip-10-0-7-12.ec2.internal nodeclaim-xyz")).isFalse();
  }
}
