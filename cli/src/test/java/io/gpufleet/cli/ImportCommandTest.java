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
    assertThat(run.err()).contains("cannot reach the API server http://127.0.0.1:" + port + "/", "connection refused");
  }

  @Test
  void expiredCredentialsAreOneLineAndExitTwo() {
    cluster.server().expect().get().withPath("/api/v1/nodes?limit=500")
        .andReturn(401, new StatusBuilder().withCode(401).withMessage("Unauthorized").build()).always();
    CliRun run = importFails("--kubeconfig", cluster.kubeconfig(dir).toString());
    assertThat(run.err()).contains("rejected the credentials of context \"mock-admin\" (401 Unauthorized)");
  }

  @Test
  void anRbacDenialNamesTheVerbAndResourceInOneLine() {
    cluster.server().expect().get().withPath("/apis/apps/v1/deployments?limit=500")
        .andReturn(403, new StatusBuilder().withCode(403).withMessage("deployments.apps is forbidden: User \"dev\" "
            + "cannot list resource \"deployments\" in API group \"apps\" at the cluster scope").build()).always();
    CliRun run = importFails("--kubeconfig", cluster.kubeconfig(dir).toString());
    assertThat(run.err()).contains("RBAC denies \"list\" on deployments (API group \"apps\") in all namespaces");
  }

  @Test
  void aMissingKubeconfigOrContextIsOneLineAndExitTwo() {
    assertThat(importFails("--kubeconfig", dir.resolve("missing").toString()).err())
        .contains("kubeconfig " + dir.resolve("missing") + ": no such file");
    assertThat(importFails("--kubeconfig", cluster.kubeconfig(dir).toString(), "--context", "prod").err())
        .contains("context \"prod\" is not in kubeconfig", "(it has: mock-admin, staging)");
  }
}
