package io.gpufleet.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeListBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.gpufleet.manifest.ManifestBundle;
import io.gpufleet.manifest.ManifestReader;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterImporterTest {

  private static final Instant NOW = Instant.parse("2026-11-30T10:00:00Z");

  @TempDir Path dir;
  private MockCluster cluster;

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private MockCluster live(String... unsupportedGroups) {
    cluster = MockCluster.start(unsupportedGroups).seed(MockCluster.LIVE_CLUSTER);
    return cluster;
  }

  private Snapshot read(Optional<String> context, Optional<String> namespace) {
    return ClusterImporter.read(new ClusterSource(cluster.kubeconfig(dir), context, namespace), NOW);
  }

  private Snapshot read() {
    return read(Optional.empty(), Optional.empty());
  }

  private static List<String> names(Snapshot s, String kind) {
    return s.items().stream().filter(o -> kind.equals(o.get("kind"))).map(ClusterImporterTest::name).toList();
  }

  private static String name(Map<String, Object> o) {
    return (String) ((Map<?, ?>) o.get("metadata")).get("name");
  }

  private static String namespace(Map<String, Object> o) {
    Object ns = ((Map<?, ?>) o.get("metadata")).get("namespace");
    return ns == null ? "" : (String) ns;
  }

  @Test
  void importsEveryKindOfTheClusterAndNothingElse() {
    live();
    Snapshot s = read();
    assertThat(names(s, "Node")).containsExactly("ip-10-0-0-5.ec2.internal", "ip-10-0-1-17.ec2.internal",
        "ip-10-0-2-33.ec2.internal", "ip-10-0-3-41.ec2.internal");
    assertThat(names(s, "Pod")).containsExactlyInAnyOrder("vllm-6d5f7c9b8-4xq7m", "vllm-6d5f7c9b8-9lrtn",
        "finetune-nightly-bq2lw", "notebook-alice", "notebook-bob", "embedder");
    assertThat(names(s, "Deployment")).containsExactly("vllm");
    assertThat(names(s, "ReplicaSet")).containsExactly("vllm-6d5f7c9b8");
    assertThat(names(s, "Job")).containsExactly("finetune-nightly");
    assertThat(names(s, "PodDisruptionBudget")).containsExactly("vllm");
    assertThat(names(s, "PriorityClass")).containsExactly("inference-high");
    assertThat(names(s, "NodePool")).containsExactly("notebooks", "training");
    assertThat(names(s, "NodeClaim")).containsExactly("notebooks-q8fzc", "training-7xk2p");
    assertThat(names(s, "EC2NodeClass")).containsExactly("gpu");
    // Only the GPU Operator's ConfigMaps, found through its ClusterPolicy; the application's is left alone.
    assertThat(names(s, "ConfigMap")).containsExactly("default-mig-parted-config", "time-slicing-config");
    assertThat(s.count("Secret")).isZero();
    assertThat(s.count("ClusterPolicy")).isZero();
    assertThat(s.notes()).isEmpty();
  }

  @Test
  void neverAsksForSecretsAndPagesEveryList() {
    live();
    read();
    List<String> requests = cluster.drainRequests();
    assertThat(requests).isNotEmpty().allMatch(r -> r.startsWith("GET "));
    assertThat(requests).noneMatch(r -> r.contains("secrets"));
    assertThat(requests.stream().filter(r -> r.contains("?")).toList())
        .hasSizeGreaterThanOrEqualTo(ApiResource.SNAPSHOT.size())
        .allMatch(r -> r.contains("limit=" + ClusterImporter.PAGE_SIZE));
  }

  @Test
  void followsContinueTokensToTheLastPage() {
    live();
    // The first page of nodes ends with a continue token; the second is the rest.
    cluster.server().expect().get().withPath("/api/v1/nodes?limit=2")
        .andReturn(200, new NodeListBuilder().withNewMetadata().withContinue("page-2").endMetadata()
            .addToItems(node("node-a"), node("node-b")).build()).once();
    cluster.server().expect().get().withPath("/api/v1/nodes?continue=page-2&limit=2")
        .andReturn(200, new NodeListBuilder().withNewMetadata().endMetadata().addToItems(node("node-c")).build())
        .once();
    Snapshot s = ClusterImporter.read(new ClusterSource(cluster.kubeconfig(dir), Optional.empty(), Optional.empty()),
        NOW, 2);
    assertThat(names(s, "Node")).containsExactly("node-a", "node-b", "node-c");
  }

  private static io.fabric8.kubernetes.api.model.Node node(String name) {
    return new NodeBuilder().withNewMetadata().withName(name).endMetadata().build();
  }

  @Test
  void dropsTheServersBookkeepingAndTheKubeletsChatterButKeepsState() {
    live();
    String yaml = read().toYaml();
    assertThat(yaml).doesNotContain("managedFields", "resourceVersion", "last-applied-configuration",
        "lastHeartbeatTime", "images:", "sizeBytes");
    // What the twin reads stays: other annotations, owners, conditions, status.
    assertThat(yaml).contains("karpenter.sh/nodepool-hash", "ownerReferences:", "lastTransitionTime",
        "phase: Succeeded", "nodeName: ip-10-0-1-17.ec2.internal");
  }

  @Test
  void recordsTheContextTheServerVersionAndTheTime() {
    live();
    Snapshot s = read(Optional.of("staging"), Optional.empty());
    String yaml = s.toYaml();
    assertThat(yaml).startsWith("apiVersion: v1\nkind: List\n")
        .contains(Snapshot.CONTEXT_ANNOTATION + ": staging", Snapshot.SERVER_VERSION_ANNOTATION + ": " + MockCluster.SERVER_VERSION,
            Snapshot.IMPORTED_AT_ANNOTATION + ": " + NOW);
  }

  @Test
  void twoImportsOfAnUnchangedClusterDifferOnlyInTheImportTime() {
    live();
    ClusterSource source = new ClusterSource(cluster.kubeconfig(dir), Optional.empty(), Optional.empty());
    String first = ClusterImporter.read(source, NOW).toYaml();
    assertThat(ClusterImporter.read(source, NOW).toYaml()).isEqualTo(first);
    Instant later = NOW.plusSeconds(3600);
    assertThat(ClusterImporter.read(source, later).toYaml())
        .isEqualTo(first.replace(NOW.toString(), later.toString())).isNotEqualTo(first);
  }

  @Test
  void ordersObjectsByKindThenNamespaceThenName() {
    live();
    List<String> kinds = List.of("PriorityClass", "ConfigMap", "EC2NodeClass", "NodePool", "NodeClaim", "Node",
        "Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "Job", "PodDisruptionBudget", "Pod");
    List<Map<String, Object>> items = read().items();
    List<Map<String, Object>> expected = new ArrayList<>(items);
    expected.sort(Comparator.<Map<String, Object>>comparingInt(o -> kinds.indexOf((String) o.get("kind")))
        .thenComparing(ClusterImporterTest::namespace).thenComparing(ClusterImporterTest::name));
    assertThat(items).containsExactlyElementsOf(expected);
    assertThat(items.stream().filter(o -> o.get("kind").equals("Pod")).map(o -> namespace(o) + "/" + name(o)))
        .startsWith("research/notebook-alice", "research/notebook-bob", "serving/embedder");
  }

  @Test
  void carriesTheOperatorsDefaultDevicePluginConfigOntoItsConfigMap() {
    live();
    Map<String, Object> cm = read().items().stream()
        .filter(o -> o.get("kind").equals("ConfigMap") && name(o).equals("time-slicing-config")).findFirst().orElseThrow();
    Map<?, ?> annotations = (Map<?, ?>) ((Map<?, ?>) cm.get("metadata")).get("annotations");
    assertThat(annotations.get("gpufleet.io/default-config")).isEqualTo("exclusive");
  }

  @Test
  void aClusterWithoutKarpenterImportsWithOneNote() {
    live("karpenter.sh", "karpenter.k8s.aws");
    Snapshot s = read();
    assertThat(s.count("NodePool") + s.count("NodeClaim") + s.count("EC2NodeClass")).isZero();
    assertThat(s.count("Node")).isEqualTo(4);
    assertThat(s.notes()).singleElement().asString().contains("Karpenter", "NodePool", "NodeClaim", "EC2NodeClass");
  }

  @Test
  void aNamespaceLimitsTheNamespacedKindsOnly() {
    live();
    Snapshot s = read(Optional.empty(), Optional.of("serving"));
    assertThat(names(s, "Pod")).containsExactly("embedder", "vllm-6d5f7c9b8-4xq7m", "vllm-6d5f7c9b8-9lrtn");
    assertThat(names(s, "Job")).isEmpty();
    assertThat(s.count("Node")).isEqualTo(4);
    assertThat(s.count("NodePool")).isEqualTo(2);
    // The operator's ConfigMaps live in its own namespace and are read from there all the same.
    assertThat(names(s, "ConfigMap")).containsExactly("default-mig-parted-config", "time-slicing-config");
    assertThat(s.toYaml()).contains(Snapshot.NAMESPACE_ANNOTATION + ": serving");
  }

  @Test
  void theSnapshotReadsBackThroughTheManifestReader() {
    live();
    ManifestBundle bundle = new ManifestReader().read("snapshot.yaml", read().toYaml());
    assertThat(bundle.nodes()).hasSize(4);
    assertThat(bundle.nodes().stream().filter(n -> n.name().equals("ip-10-0-1-17.ec2.internal")).findFirst()
        .orElseThrow().labels().get("nvidia.com/gpu.count")).contains("8");
    assertThat(bundle.pdbs()).hasSize(1);
    assertThat(bundle.configMaps()).hasSize(2);
  }

  // --- errors: one line each, naming what to fix

  @Test
  void aClosedPortIsConnectionRefused() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Path kubeconfig = MockCluster.kubeconfig(dir, "http://127.0.0.1:" + port);
    assertThatThrownBy(() -> ClusterImporter.read(new ClusterSource(kubeconfig, Optional.empty(), Optional.empty()), NOW))
        .isInstanceOf(ClusterAccessException.class)
        .hasMessage("The connection to the server 127.0.0.1:" + port + " was refused - did you specify the right host "
            + "or port? (context \"mock-admin\", server http://127.0.0.1:" + port + "/)");
  }

  @Test
  void rejectedCredentialsSayTheyAreExpiredOrInvalid() {
    live();
    cluster.server().expect().get().withPath("/api/v1/nodes?limit=500")
        .andReturn(401, new StatusBuilder().withCode(401).withReason("Unauthorized").withMessage("Unauthorized").build())
        .always();
    assertThatThrownBy(this::read).isInstanceOf(ClusterAccessException.class)
        .hasMessageStartingWith("You must be logged in to the server (Unauthorized) (context \"mock-admin\"")
        .hasMessageContaining("expired or invalid")
        .message().doesNotContain("\n");
  }

  @Test
  void anRbacDenialNamesTheVerbAndTheResource() {
    live();
    cluster.server().expect().get().withPath("/api/v1/pods?limit=500")
        .andReturn(403, new StatusBuilder().withCode(403).withReason("Forbidden").withMessage(
            "pods is forbidden: User \"dev\" cannot list resource \"pods\" in API group \"\" at the cluster scope")
            .build())
        .always();
    assertThatThrownBy(this::read).isInstanceOf(ClusterAccessException.class)
        .hasMessage("Error from server (Forbidden): pods is forbidden: User \"dev\" cannot list resource \"pods\" in "
            + "API group \"\" at the cluster scope (context \"mock-admin\"; import needs \"list\" on pods (API group "
            + "\"\") in all namespaces)")
        .message().doesNotContain("\n");
  }

  @Test
  void aMissingKubeconfigIsNamed() {
    Path missing = dir.resolve("nope");
    assertThatThrownBy(() -> ClusterImporter.read(new ClusterSource(missing, Optional.empty(), Optional.empty()), NOW))
        .isInstanceOf(ClusterAccessException.class).hasMessage("kubeconfig " + missing + ": no such file");
  }

  @Test
  void anUnknownContextListsTheContextsThereAre() {
    Path kubeconfig = MockCluster.kubeconfig(dir, "http://127.0.0.1:1");
    assertThatThrownBy(() -> ClusterImporter.read(new ClusterSource(kubeconfig, Optional.of("prod"), Optional.empty()), NOW))
        .isInstanceOf(ClusterAccessException.class)
        .hasMessage("context \"prod\" is not in kubeconfig " + kubeconfig + " (it has: mock-admin, staging)");
  }
}
