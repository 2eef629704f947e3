package io.gpufleet.nvml.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The daemon's control program replaced by a script that records how it was called. */
class MpsDaemonTest {

  @TempDir Path dir;

  private Path control() throws IOException {
    Path script = dir.resolve("fake-mps-control");
    Files.writeString(script, """
        #!/bin/sh
        log="$(dirname "$0")/calls"
        echo "args=$* pipe=$CUDA_MPS_PIPE_DIRECTORY log=$CUDA_MPS_LOG_DIRECTORY" >> "$log"
        if [ "$1" != "-d" ]; then read line; echo "stdin=$line" >> "$log"; fi
        """);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    return script;
  }

  @Test
  void startsItsOwnDaemonInAPrivatePipeDirectoryAndQuitsIt() throws IOException {
    Path root = dir.resolve("mps");
    MpsDaemon daemon = new MpsDaemon(root, control().toString());
    Map<String, String> env = daemon.start();
    assertThat(env).containsEntry(MpsDaemon.PIPE_DIRECTORY, root.resolve("pipe").toString())
        .containsEntry(MpsDaemon.LOG_DIRECTORY, root.resolve("log").toString());
    assertThat(root.resolve("pipe")).isDirectory();
    daemon.stop();
    assertThat(Files.readAllLines(dir.resolve("calls"))).containsExactly(
        "args=-d pipe=" + root.resolve("pipe") + " log=" + root.resolve("log"),
        "args= pipe=" + root.resolve("pipe") + " log=" + root.resolve("log"),
        "stdin=quit");
  }

  @Test
  void noControlProgramIsOneLineSayingMpsIsNotHere() {
    MpsDaemon daemon = new MpsDaemon(dir.resolve("mps"), dir.resolve("no-such-mps-control").toString());
    assertThatThrownBy(daemon::start).isInstanceOf(BenchFailure.class).hasMessageStartingWith("MPS is not available here");
  }
}
