package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.gpufleet.k8s.MockCluster;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue 13's "done when" for live clusters: imported from the mock API server, the snapshot scheduled,
 * and simulated for one minute with no changes, reports the placements the cluster had: every running
 * pod on its node, the finished Job pod nowhere, no pod added by the Deployment chain or the Job.
 */
class LiveRoundTripTest {

  @TempDir Path dir;
  private MockCluster cluster;
  private Path snapshot;

  @BeforeEach
  void importTheCluster() {
    cluster = MockCluster.start().seed(MockCluster.LIVE_CLUSTER);
    snapshot = dir.resolve("snapshot.yaml");
    CliRun run = CliRun.of("import", "--kubeconfig", cluster.kubeconfig(dir).toString(), "-o", snapshot.toString());
    assertThat(run.exitCode()).as(run.err()).isZero();
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  /** namespace/name -> node of every pod the API server says is Running (read from the server, not the snapshot). */
  private Map<String, String> runningPlacements() {
    Map<String, String> had = new TreeMap<>();
    for (Pod p : cluster.client().pods().inAnyNamespace().list().getItems()) {
      if ("Running".equals(p.getStatus().getPhase())) {
        had.put(p.getMetadata().getNamespace() + "/" + p.getMetadata().getName(), p.getSpec().getNodeName());
      }
    }
    return had;
  }

  @Test
  void scheduleKeepsEveryRunningPodOnItsNodeAndAddsNone() {
    Map<String, String> had = runningPlacements();
    assertThat(had).hasSize(5);
    CliRun run = CliRun.of("schedule", "-f", snapshot.toString(), "-o", "json");
    assertThat(run.exitCode()).as(run.err()).isZero();
    Map<String, String> placed = new TreeMap<>();
    for (JsonNode p : JsonMapper.builder().build().readTree(run.out()).get("pods")) {
      if (p.get("phase").asString().equals("Scheduled")) {
        placed.put(p.get("namespace").asString() + "/" + p.get("name").asString(), p.get("node").asString());
      } else {
        assertThat(p.get("phase").asString()).as(p.toString()).isIn("Succeeded", "Failed", "Completed");
        assertThat(p.get("name").asString()).isEqualTo("finetune-nightly-bq2lw");
      }
    }
    assertThat(placed).isEqualTo(had);
  }

  @Test
  void aMinuteWithNoChangesEndsWithThePlacementsTheClusterHad() {
    Map<String, String> had = runningPlacements();
    CliRun run = CliRun.of("simulate", "-f", snapshot.toString(), "--for", "1m", "--out", dir.resolve("out").toString());
    assertThat(run.exitCode()).as(run.err()).isZero();
    // The run's last `kubectl get pods -A -o wide`: NAMESPACE NAME READY STATUS NODE ...
    String table = run.out().substring(run.out().lastIndexOf("$ kubectl get pods -A -o wide"));
    Map<String, String> after = new TreeMap<>();
    table.lines().skip(2).map(String::strip).takeWhile(l -> !l.isEmpty()).forEach(l -> {
      String[] c = l.split("\\s+");
      assertThat(c[3]).as(l).isEqualTo("Running");
      after.put(c[0] + "/" + c[1], c[4]);
    });
    assertThat(after).isEqualTo(had);
    assertThat(run.out()).doesNotContain("NodeclaimLaunched");
  }

  /** Karpenter's NodeClaims come back bound to their Nodes: the autoscaler resumes with them, under their names. */
  @Test
  void theNodeClaimsResumeBoundToTheirNodes() {
    Map<String, String> claims = new TreeMap<>();
    for (var c : cluster.client().genericKubernetesResources("karpenter.sh/v1", "NodeClaim").list().getItems()) {
      @SuppressWarnings("unchecked")
      Map<String, Object> status = (Map<String, Object>) c.getAdditionalProperties().get("status");
      claims.put(c.getMetadata().getName(), (String) status.get("nodeName"));
    }
    assertThat(claims).hasSize(2);
    CliRun run = CliRun.wide("simulate", "-f", snapshot.toString(), "--for", "1m", "--out", dir.resolve("out").toString());
    assertThat(run.exitCode()).as(run.err()).isZero();
    claims.forEach((claim, node) -> assertThat(run.out())
        .containsPattern(java.util.regex.Pattern.quote(node) + "\\s+node adopted as NodeClaim " + claim + " of NodePool "));
    assertThat(run.err()).doesNotContain("NodeClaim");
    assertThat(run.out()).doesNotContain("NodeclaimLaunched");
  }
}
