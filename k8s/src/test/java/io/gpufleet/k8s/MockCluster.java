package io.gpufleet.k8s;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The fabric8 mock API server in CRUD mode, seeded from a YAML file of objects as a live cluster
 * holds them (Karpenter's and the GPU Operator's custom resources included), with a kubeconfig
 * that points at it. Shared with the command line's tests through the test jar.
 */
public final class MockCluster implements AutoCloseable {

  public static final String CONTEXT = "mock-admin";
  public static final String SERVER_VERSION = "v1.34.2";
  /** The realistic cluster of this module's tests. */
  public static final String LIVE_CLUSTER = "/io/gpufleet/k8s/live-cluster.yaml";

  private final KubernetesMockServer server;
  private final NamespacedKubernetesClient client;

  private final List<String> unsupported;

  private MockCluster(KubernetesMockServer server, List<String> unsupported) {
    this.server = server;
    this.unsupported = unsupported;
    this.client = server.createClient();
  }

  /** A started, empty server; {@code unsupportedGroups} are API groups it does not serve (as without their CRDs). */
  public static MockCluster start(String... unsupportedGroups) {
    // CRUD mode with expectations beside it: objects created are listed back, and a test can still
    // make one path answer 401 or 403.
    Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
    KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), responses,
        new KubernetesMixedDispatcher(responses), false);
    server.setVersionInfo(new VersionInfo.Builder().withMajor("1").withMinor("34").withGitVersion(SERVER_VERSION)
        .build());
    server.init();
    for (var crd : List.of(
        crd("karpenter.sh", "v1", "NodePool", "nodepools"),
        crd("karpenter.sh", "v1", "NodeClaim", "nodeclaims"),
        crd("karpenter.k8s.aws", "v1", "EC2NodeClass", "ec2nodeclasses"),
        crd("nvidia.com", "v1", "ClusterPolicy", "clusterpolicies"))) {
      if (!List.of(unsupportedGroups).contains(crd.getGroup())) {
        server.expectCustomResource(crd);
      }
    }
    if (unsupportedGroups.length > 0) {
      server.setUnsupported(unsupportedGroups);
    }
    return new MockCluster(server, List.of(unsupportedGroups));
  }

  private static CustomResourceDefinitionContext crd(String group, String version, String kind, String plural) {
    return new CustomResourceDefinitionContext.Builder().withGroup(group).withVersion(version).withKind(kind)
        .withPlural(plural).withScope("Cluster").withName(plural + "." + group).build();
  }

  /** Creates every object of the classpath YAML {@code resource} whose API the server serves. */
  public MockCluster seed(String resource) {
    try (InputStream in = MockCluster.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalArgumentException("no resource " + resource);
      }
      // The server gives every object a new uid; owner references are pointed at the owners' new uids,
      // as they are in a real cluster (owners come first in the file).
      Map<String, String> uids = new HashMap<>();
      for (HasMetadata o : client.load(in).items()) {
        for (OwnerReference ref : o.getMetadata().getOwnerReferences()) {
          ref.setUid(uids.getOrDefault(ref.getKind() + "/" + o.getMetadata().getNamespace() + "/" + ref.getName(),
              ref.getUid()));
        }
        HasMetadata created;
        if (o instanceof GenericKubernetesResource g) {
          String group = o.getApiVersion().substring(0, o.getApiVersion().indexOf('/'));
          if (unsupported.contains(group)) {
            continue;
          }
          ApiResource r = Stream.concat(ApiResource.KARPENTER.stream(), Stream.of(ApiResource.CLUSTER_POLICY))
              .filter(a -> a.kind().equals(o.getKind())).findFirst().orElseThrow();
          created = client.genericKubernetesResources(r.context()).resource(g).create();
        } else {
          created = client.resource(o).create();
        }
        uids.put(o.getKind() + "/" + o.getMetadata().getNamespace() + "/" + o.getMetadata().getName(),
            created.getMetadata().getUid());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    drainRequests();
    return this;
  }

  public KubernetesMockServer server() {
    return server;
  }

  public NamespacedKubernetesClient client() {
    return client;
  }

  /** A kubeconfig in {@code dir} whose context {@value #CONTEXT} points at this server with a token. */
  public Path kubeconfig(Path dir) {
    return kubeconfig(dir, "http://" + server.getHostName() + ":" + server.getPort());
  }

  /** A kubeconfig naming {@code serverUrl}: a closed port, say. */
  public static Path kubeconfig(Path dir, String serverUrl) {
    return kubeconfig(dir, serverUrl, "{token: not-a-real-token}");
  }

  /** The same with {@code user} (flow-style YAML) as the user's credentials: an exec plugin, say. */
  public static Path kubeconfig(Path dir, String serverUrl, String user) {
    Path file = dir.resolve("kubeconfig");
    try {
      Files.writeString(file, """
          apiVersion: v1
          kind: Config
          clusters:
          - name: mock
            cluster: {server: "%s"}
          users:
          - name: dev
            user: %s
          contexts:
          - name: %s
            context: {cluster: mock, user: dev}
          - name: staging
            context: {cluster: mock, user: dev}
          current-context: %s
          """.formatted(serverUrl, user, CONTEXT, CONTEXT));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }

  /** The paths (with query) of the requests made since the last call, oldest first. */
  public List<String> drainRequests() {
    List<String> paths = new ArrayList<>();
    try {
      RecordedRequest r;
      while ((r = server.takeRequest(1, TimeUnit.MILLISECONDS)) != null) {
        paths.add(r.getMethod() + " " + r.getPath());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return paths;
  }

  @Override
  public void close() {
    client.close();
    server.destroy();
  }
}
