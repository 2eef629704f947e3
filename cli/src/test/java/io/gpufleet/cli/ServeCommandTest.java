package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code gpufleet serve} refuses what it cannot serve in a line, before it listens. */
class ServeCommandTest {

  @Test
  void aPortOutOfRangeIsAUserError() {
    CliRun run = CliRun.of("serve", "--port", "70000");
    assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(run.err()).contains("--port: expected 0 to 65535, found 70000").doesNotContain("\tat ");
  }

  @Test
  void anAddressThatIsNoHostIsAUserError() {
    CliRun run = CliRun.of("serve", "--address", "127.0.0.1; rm -rf /", "--port", "0");
    assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(run.err()).contains("--address: expected a host name or IP address");
  }

  @Test
  void aMissingScenarioIsAUserError() {
    CliRun run = CliRun.of("serve", "no-such-scenario.yaml", "--port", "0");
    assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(run.err()).contains("no-such-scenario.yaml: no such file");
  }
}
