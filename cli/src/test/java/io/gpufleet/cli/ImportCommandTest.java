package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.k8s.MockCluster;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code gpufleet import} against the fabric8 mock API server seeded with a realistic GPU cluster. */
class ImportCommandTest {

  @TempDir Path dir;
  private MockCluster cluster;

  @BeforeEach
  void start() {
    cluster = MockCluster.start().seed(MockCluster.LIVE_CLUSTER);
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  private static String withoutImportTime(String yaml) {
    return yaml.replaceAll("(?m)^(\\s*gpufleet.io/imported-at: ).*$", "$1<time>");
  }

  @Test
  void writesTheSnapshotFileAndSaysWhatItHolds() throws IOException {
    Path snapshot = dir.resolve("snapshot.yaml");
    CliRun run = CliRun.of("import", "--kubeconfig", cluster.kubeconfig(dir).toString(), "-o", snapshot.toString());
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.err()).isEmpty();
    assertThat(run.out()).isEqualTo("imported 22 objects (1 PriorityClass, 2 ConfigMap, 1 EC2NodeClass, 2 NodePool, "
        + "2 NodeClaim, 4 Node, 1 Deployment, 1 ReplicaSet, 1 Job, 1 PodDisruptionBudget, 6 Pod) from context "
        + "\"mock-admin\" (Kubernetes " + MockCluster.SERVER_VERSION + ") to " + snapshot + "\n");
    String yaml = Files.readString(snapshot);
    assertThat(yaml).startsWith("apiVersion: v1\nkind: List\n").contains("gpufleet.io/source-context: mock-admin")
        .doesNotContain("managedFields", "Secret");
    // Standard output gets the same bytes but for the import time; the summary goes to stderr then.
    CliRun toStdout = CliRun.of("import", "--kubeconfig", cluster.kubeconfig(dir).toString());
    assertThat(toStdout.exitCode()).isZero();
    assertThat(withoutImportTime(toStdout.out())).isEqualTo(withoutImportTime(yaml));
    assertThat(toStdout.err()).startsWith("imported 22 objects").endsWith(" to standard output\n");
  }

  @Test
  void everyCommandReadsTheSnapshotAsAFile() throws IOException {
    Path snapshot = dir.resolve("snapshot.yaml");
    assertThat(CliRun.of("import", "--kubeconfig", cluster.kubeconfig(dir).toString(), "-o", snapshot.toString())
        .exitCode()).isZero();
    CliRun describe = CliRun.of("node", "describe", "-f", snapshot.toString(), "--node", "ip-10-0-2-33.ec2.internal");
    assertThat(describe.exitCode()).as(describe.err()).isZero();
    // The time-sliced L4 pool: its device-plugin config came in with the operator's ConfigMap.
    assertThat(describe.out()).contains("ip-10-0-2-33.ec2.internal").contains("nvidia.com/gpu.replicas=4");
    CliRun smi = CliRun.of("smi", "-f", snapshot.toString());
    assertThat(smi.exitCode()).as(smi.err()).isZero();
    assertThat(smi.out()).contains("8 x NVIDIA H100 80GB HBM3", "time-slicing (4 replicas per device)",
        "1 x NVIDIA A10G");
  }

  private CliRun importFails(String... extra) {
    String[] args = new String[3 + extra.length];
    args[0] = "import";
    args[1] = "-o";
    args[2] = dir.resolve("never.yaml").toString();
    System.arraycopy(extra, 0, args, 3, extra.length);
    CliRun run = CliRun.of(args);
    assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).startsWith("gpufleet import: ").endsWith("\n").doesNotContain("Exception", "\tat ");
    assertThat(run.err().lines()).hasSize(1);
    assertThat(dir.resolve("never.yaml")).doesNotExist();
    return run;
  }

  @Test
  void aClosedPortIsOneLineAndExitTwo() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    CliRun run = importFails("--kubeconfig", MockCluster.kubeconfig(dir, "http://127.0.0.1:" + port).toString());
    assertThat(run.err()).contains("The connection to the server 127.0.0.1:" + port + " was refused");
  }

  @Test
  void expiredCredentialsAreOneLineAndExitTwo() {
    cluster.server().expect().get().withPath("/api/v1/nodes?limit=500")
        .andReturn(401, new StatusBuilder().withCode(401).withMessage("Unauthorized").build()).always();
    CliRun run = importFails("--kubeconfig", cluster.kubeconfig(dir).toString());
    assertThat(run.err()).contains("You must be logged in to the server (Unauthorized) (context \"mock-admin\"");
  }

  @Test
  void anRbacDenialNamesTheVerbAndResourceInOneLine() {
    cluster.server().expect().get().withPath("/apis/apps/v1/deployments?limit=500")
        .andReturn(403, new StatusBuilder().withCode(403).withMessage("deployments.apps is forbidden: User \"dev\" "
            + "cannot list resource \"deployments\" in API group \"apps\" at the cluster scope").build()).always();
    CliRun run = importFails("--kubeconfig", cluster.kubeconfig(dir).toString());
    assertThat(run.err()).contains("Error from server (Forbidden): deployments.apps is forbidden",
        "import needs \"list\" on deployments (API group \"apps\") in all namespaces");
  }

  @Test
  void aMissingKubeconfigOrContextIsOneLineAndExitTwo() {
    assertThat(importFails("--kubeconfig", dir.resolve("missing").toString()).err())
        .contains("kubeconfig " + dir.resolve("missing") + ": no such file");
    assertThat(importFails("--kubeconfig", cluster.kubeconfig(dir).toString(), "--context", "prod").err())
        .contains("context \"prod\" is not in kubeconfig", "(it has: mock-admin, staging)");
  }

  /**
   * --kubeconfig on schedule, smi, node describe, simulate and lint: the live objects go through the same
   * reader as the imported file, so each command prints the same bytes either way (messages name
   * the source, the file's path or cluster:CONTEXT, and lint's findings carry it).
   */
  @Test
  void everyCommandReadsTheLiveClusterAsItReadsItsSnapshotFile() throws IOException {
    String kubeconfig = cluster.kubeconfig(dir).toString();
    Path snapshot = dir.resolve("snapshot.yaml");
    assertThat(CliRun.of("import", "--kubeconfig", kubeconfig, "-o", snapshot.toString()).exitCode()).isZero();
    String[][] commands = {
        {"schedule", "-o", "json"},
        {"schedule"},
        {"smi"},
        {"node", "describe"},
        {"simulate", "--for", "1m", "-q", "--out", dir.resolve("out").toString()},
        {"lint", "-o", "json"},
    };
    for (String[] command : commands) {
      CliRun fromFile = CliRun.of(concat(command, "-f", snapshot.toString()));
      CliRun live = CliRun.of(concat(command, "--kubeconfig", kubeconfig));
      // 0, or lint's 1 for findings; never a usage or internal error.
      assertThat(fromFile.exitCode()).as(String.join(" ", command) + ": " + fromFile.err()).isLessThan(2);
      assertThat(live.exitCode()).as(String.join(" ", command)).isEqualTo(fromFile.exitCode());
      assertThat(live.out().replace("cluster:" + MockCluster.CONTEXT, "FILE")).as(String.join(" ", command))
          .isEqualTo(fromFile.out().replace(snapshot.toString(), "FILE")).isNotEmpty();
      assertThat(live.err().replace("cluster:" + MockCluster.CONTEXT, "FILE"))
          .isEqualTo(fromFile.err().replace(snapshot.toString(), "FILE"));
    }
  }

  @Test
  void aNamespaceNarrowsWhatTheCommandsSee() {
    CliRun run = CliRun.of("schedule", "--kubeconfig", cluster.kubeconfig(dir).toString(), "-n", "research");
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("notebook-alice", "notebook-bob").doesNotContain("vllm", "embedder", "finetune");
  }

  @Test
  void clusterOptionsWithoutAKubeconfigAreAUsageError() {
    CliRun run = CliRun.of("schedule", "--context", "mock-admin");
    assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(run.err()).isEqualTo("gpufleet schedule: --context needs --kubeconfig FILE\n");
    CliRun none = CliRun.of("smi");
    assertThat(none.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(none.err()).contains("give -f FILE", "or --kubeconfig FILE");
  }

  @Test
  void simulateTakesAScenarioOrManifestsButNotBoth() {
    CliRun both = CliRun.of("simulate", "../examples/scenarios/node-expiry.yaml", "--kubeconfig",
        cluster.kubeconfig(dir).toString());
    assertThat(both.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(both.err()).isEqualTo("gpufleet simulate: give a SCENARIO file or manifests (-f, --kubeconfig), not both\n");
    CliRun badDuration = CliRun.of("simulate", "--kubeconfig", cluster.kubeconfig(dir).toString(), "--for", "soon");
    assertThat(badDuration.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(badDuration.err()).contains("--for: expected a duration such as 30s, 1m or 1h30m, found \"soon\"");
  }

  private static String[] concat(String[] a, String... b) {
    String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
