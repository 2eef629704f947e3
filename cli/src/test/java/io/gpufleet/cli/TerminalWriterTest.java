package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Control characters in a user's input never reach the terminal as bytes, whichever command echoes them. */
class TerminalWriterTest {

  @TempDir Path dir;

  private static final String HOSTILE = """
      apiVersion: v1
      kind: Node
      metadata:
        name: gpu-1
        labels:
          "evil\\e]0;pwned\\a": "x\\e[2J"
          nvidia.com/gpu.product: NVIDIA-A10G
      status:
        capacity: {cpu: "4", memory: 16Gi, pods: "110", nvidia.com/gpu: "1"}
        allocatable: {cpu: "4", memory: 16Gi, pods: "110", nvidia.com/gpu: "1"}
      ---
      apiVersion: v1
      kind: Pod
      metadata:
        name: "p"
        annotations: {note: "bell\\a here\\rover"}
      spec:
        nodeSelector: {"evil\\e]0;pwned\\a": "x\\e[2J"}
        containers:
        - name: c
          image: busybox
          resources: {limits: {nvidia.com/gpu: 1}}
      """;

  private static String[] outAndErr(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Main.run(out, err, args);
    return new String[] {out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
  }

  @Test
  void lintAndScheduleEscapeEscAndBelFromLabels() throws IOException {
    Path file = Files.writeString(dir.resolve("hostile.yaml"), HOSTILE);
    for (String[] args : new String[][] {{"lint", "-f", file.toString()}, {"schedule", "-f", file.toString()},
        {"node", "describe", "-f", file.toString()}}) {
      String[] printed = outAndErr(args);
      String all = printed[0] + printed[1];
      assertThat(all).as(String.join(" ", args)).isNotBlank().doesNotContain("\u001b", "\u0007", "\r");
    }
    String[] schedule = outAndErr("lint", "-f", file.toString());
    assertThat(schedule[0] + schedule[1]).contains("\\x1b");
  }

  @Test
  void linesAndTabsPassAndTheProgressBarsOwnCarriageReturnsToo() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    TerminalWriter w = TerminalWriter.over(bytes);
    w.print("a\tb\nc\u001bd\u0085e\u202ef\r");
    w.printControl("\r[###]");
    w.flush();
    assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo("a\tb\nc\\x1bd\\u0085e\\u202ef\\r\r[###]");
  }
}
