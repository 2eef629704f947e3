package io.gpufleet.k8s;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Optional;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each way reading a cluster fails, against the words kubectl prints for the same failure
 * (kubectl, pkg/cmd/util/helpers.go {@code StandardErrorMessage}; client-go, rest/url_utils.go
 * {@code DefaultServerURL} and plugin/pkg/client/auth/exec/exec.go): one line, no Java type, no
 * stack trace.
 */
class ImportErrorsTest {

  private static final Instant NOW = Instant.parse("2026-12-06T10:00:00Z");

  @TempDir Path dir;
  private MockCluster cluster;
  private KubernetesMockServer tlsServer;
  private HttpServer plain;

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
    if (tlsServer != null) {
      tlsServer.destroy();
    }
    if (plain != null) {
      plain.stop(0);
    }
  }

  private AbstractThrowableAssert<?, ? extends Throwable> importing(Path kubeconfig) {
    return assertThatThrownBy(() -> ClusterImporter.read(new ClusterSource(kubeconfig, Optional.empty(),
        Optional.empty()), NOW)).isInstanceOf(ClusterAccessException.class)
        .satisfies(e -> org.assertj.core.api.Assertions.assertThat(e.getMessage())
            .doesNotContain("\n", "java.", "io.fabric8", "Exception", "HTTP -1"));
  }

  private AbstractThrowableAssert<?, ? extends Throwable> importingFrom(String server) {
    return importing(MockCluster.kubeconfig(dir, server));
  }

  @Test
  void aServerThatIsNoUrlIsRefusedAsClientGoRefusesIt() {
    importingFrom("not a url").hasMessage("server \"not a url\" of context \"mock-admin\" of kubeconfig "
        + dir.resolve("kubeconfig") + ": host must be a URL or a host:port pair");
    importingFrom("https://10.0.0.1/some/path").hasMessageEndingWith(": host must be a URL or a host:port pair");
    importingFrom("").hasMessageEndingWith(": host must be a URL or a host:port pair");
  }

  @Test
  void aSchemeOtherThanHttpIsGosUnsupportedProtocolScheme() {
    importingFrom("ftp://10.0.0.1:21").hasMessageEndingWith(
        ": Unable to connect to the server: unsupported protocol scheme \"ftp\"")
        .message().doesNotContain("http://ftp://");
  }

  @Test
  void aHostPortPairWithoutSchemeIsAccepted() {
    // client-go prefixes a scheme; the request then fails for want of a listener, not for the address.
    importingFrom("127.0.0.1:1").hasMessageStartingWith("The connection to the server 127.0.0.1:1 was refused");
  }

  @Test
  void anUnknownHostIsGosNoSuchHost() {
    importingFrom("https://api.cluster.invalid").hasMessageStartingWith(
        "Unable to connect to the server: dial tcp: lookup api.cluster.invalid: no such host");
  }

  @Test
  void aMissingCredentialPluginIsNamedBeforeAnyRequest() {
    Path kubeconfig = MockCluster.kubeconfig(dir, "http://127.0.0.1:1", "{exec: {apiVersion: "
        + "client.authentication.k8s.io/v1beta1, command: no-such-credential-plugin, args: [eks, get-token], "
        + "installHint: 'install it with your package manager'}}");
    importing(kubeconfig).hasMessage("context \"mock-admin\" of kubeconfig " + kubeconfig + ": exec: executable "
        + "no-such-credential-plugin not found. It looks like you are trying to use a client-go credential plugin "
        + "that is not installed. install it with your package manager");
  }

  @Test
  void aPluginPathIsTakenRelativeToTheKubeconfig() throws IOException {
    Path plugin = dir.resolve("bin/get-token");
    Files.createDirectories(plugin.getParent());
    Files.writeString(plugin, "#!/bin/sh\nexit 1\n");
    Files.setPosixFilePermissions(plugin, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path kubeconfig = MockCluster.kubeconfig(dir, "http://127.0.0.1:1",
        "{exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: ./bin/get-token}}");
    // Found, so the request is made (and refused): the plugin was not reported missing.
    importing(kubeconfig).hasMessageStartingWith("The connection to the server 127.0.0.1:1 was refused");
  }

  @Test
  void aRejectionOfPluginCredentialsNamesThePlugin() throws IOException {
    cluster = MockCluster.start().seed(MockCluster.LIVE_CLUSTER);
    cluster.server().expect().get().withPath("/api/v1/nodes?limit=500")
        .andReturn(401, new io.fabric8.kubernetes.api.model.StatusBuilder().withCode(401).withReason("Unauthorized")
            .withMessage("Unauthorized").build()).always();
    Path kubeconfig = MockCluster.kubeconfig(dir, "http://" + cluster.server().getHostName() + ":"
        + cluster.server().getPort(), "{exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: sh, "
        + "args: [-c, 'echo {}']}}");
    importing(kubeconfig).hasMessageStartingWith("You must be logged in to the server (Unauthorized)")
        .hasMessageContaining("its credentials come from the exec plugin sh");
  }

  @Test
  void aKubeconfigThatIsNotUtf8NamesTheLineAndColumn() throws IOException {
    Path kubeconfig = dir.resolve("latin1");
    Files.write(kubeconfig, "apiVersion: v1\nkind: Config\ncurrent-context: gr\u00fcn\n"
        .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    importing(kubeconfig).hasMessage("kubeconfig " + kubeconfig + ":3:20: not UTF-8 text (byte 0xFC); save the file "
        + "as UTF-8");
  }

  /** A server that answers every request with {@code body}, as a login page or a proxy in front of the API might. */
  private Path answeringEverything(String contentType, String body) throws IOException {
    plain = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    plain.createContext("/", exchange -> {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", contentType);
      exchange.sendResponseHeaders(200, bytes.length == 0 ? -1 : bytes.length);
      exchange.getResponseBody().write(bytes);
      exchange.close();
    });
    plain.start();
    return MockCluster.kubeconfig(dir, "http://127.0.0.1:" + plain.getAddress().getPort());
  }

  @Test
  void anHtmlPageIsNotTheApi() throws IOException {
    importing(answeringEverything("text/html", "<html><body>login</body></html>")).hasMessageContaining("answered GET /version with text that is not JSON "
        + "(<html><body>login</body></html>), not the Kubernetes API");
  }

  @Test
  void anEmptyReplyIsNotTheApi() {
    cluster = MockCluster.start().seed(MockCluster.LIVE_CLUSTER);
    cluster.server().expect().get().withPath("/api/v1/nodes?limit=500").andReturn(200, "").always();
    importing(cluster.kubeconfig(dir)).hasMessageContaining("answered list nodes at cluster scope with an empty reply, "
        + "not the Kubernetes API");
  }

  @Test
  void jsonOfAnotherShapeIsNotTheApiAndNamesNoJavaType() {
    cluster = MockCluster.start().seed(MockCluster.LIVE_CLUSTER);
    cluster.server().expect().get().withPath("/api/v1/nodes?limit=500")
        .andReturn(200, "{\"kind\":\"NodeList\",\"apiVersion\":\"v1\",\"items\":{\"a\":1}}").always();
    importing(cluster.kubeconfig(dir)).hasMessageContaining("answered list nodes at cluster scope with JSON of another "
        + "shape, not the Kubernetes API");
  }

  @Test
  void aServerCertificateFromAnUnknownAuthorityIsGosX509Words() {
    tlsServer = new KubernetesMockServer(true);
    tlsServer.setVersionInfo(new VersionInfo.Builder().withMajor("1").withMinor("34").withGitVersion("v1.34.2").build());
    tlsServer.init();
    importingFrom("https://" + tlsServer.getHostName() + ":" + tlsServer.getPort()).hasMessageStartingWith(
        "Unable to connect to the server: tls: failed to verify certificate: x509: certificate signed by unknown "
            + "authority");
  }

  @Test
  void controlCharactersInAReplyAreEscaped() throws IOException {
    importing(answeringEverything("text/html", "<p>\u001b]0;pwned\u0007</p>")).message()
        .doesNotContain("\u001b", "\u0007").contains("text that is not JSON");
    importing(answeringEverything("text/plain", "\u001b]0;pwned\u0007")).message()
        .doesNotContain("\u001b", "\u0007").contains("text that is not JSON");
  }
}
