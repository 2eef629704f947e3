package io.gpufleet.k8s;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gpufleet.model.text.Printable;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.security.cert.CertificateExpiredException;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;

/**
 * Turns the client's exceptions into one line a user can act on, led by the words kubectl prints for
 * the same failure (kubectl, pkg/cmd/util/helpers.go: {@code StandardErrorMessage}; Go's net/http and
 * crypto/x509 for what follows "Unable to connect to the server:"), then which context it was and,
 * for an RBAC denial, the verb and resource import needs (the caller knows them; they are not parsed
 * from the server's text). A reply that is not the Kubernetes API is said to be so, never quoted as
 * the Java type it failed to decode into.
 */
final class AccessErrors {
  private AccessErrors() {}

  /** {@code verb}, {@code r} and {@code scope} ("in all namespaces") name the request that failed. */
  static ClusterAccessException translate(KubernetesClientException e, Kubeconfig kc, String verb, ApiResource r,
      String scope) {
    return common(e, kc, verb + " " + r.plural() + " " + scope).orElseGet(() -> {
      String serverSays = serverSays(e);
      return e.getCode() == 403
          ? new ClusterAccessException("Error from server (Forbidden): " + serverSays + " (context \"" + kc.context()
              + "\"; import needs \"" + verb + "\" on " + r.plural() + " (API group " + r.groupForRbac() + ") " + scope
              + ")")
          : new ClusterAccessException("Error from server" + reason(e) + ": " + serverSays + " (the API server "
              + server(kc) + ", context \"" + kc.context() + "\", answered " + verb + " " + r.plural() + " " + scope
              + " with HTTP " + e.getCode() + ")");
    });
  }

  /** The same for the version request, which names no resource. */
  static ClusterAccessException translateVersion(KubernetesClientException e, Kubeconfig kc) {
    return common(e, kc, "GET /version").orElseGet(() -> new ClusterAccessException("Error from server" + reason(e)
        + ": " + serverSays(e) + " (the API server " + server(kc) + ", context \"" + kc.context()
        + "\", did not tell its version: HTTP " + e.getCode() + ")"));
  }

  /** A reply with no body where the API always sends one. */
  static ClusterAccessException emptyReply(Kubeconfig kc, String request) {
    return notTheApi(kc, request, "an empty reply");
  }

  /** What any request can meet: no connection, rejected credentials, or a reply that is not the API. */
  private static Optional<ClusterAccessException> common(KubernetesClientException e, Kubeconfig kc, String request) {
    String ctx = " (context \"" + kc.context() + "\", server " + server(kc) + ")";
    Throwable network = cause(e);
    if (network != null) {
      return Optional.of(new ClusterAccessException(unreachable(network, kc) + ctx));
    }
    if (e.getCode() == 401) {
      String why = kc.execCommand()
          .map(c -> "; its credentials come from the exec plugin " + c + ", so run it by hand to see what it returns")
          .orElse("; its credentials are expired or invalid: renew them (e.g. your cloud's get-credentials) and retry");
      return Optional.of(new ClusterAccessException("You must be logged in to the server (" + statusMessage(e)
          .orElse("Unauthorized") + ")" + ctx + why));
    }
    if (e.getCode() <= 0) {
      // No HTTP status and no network failure: a reply came, and it could not be read as the API's.
      Throwable decoding = decoding(e);
      return Optional.of(notTheApi(kc, request, decoding == null ? "a reply it could not read" : whatCame(decoding)));
    }
    return Optional.empty();
  }

  private static ClusterAccessException notTheApi(Kubeconfig kc, String request, String what) {
    return new ClusterAccessException("the server " + server(kc) + " (context \"" + kc.context() + "\") answered "
        + request + " with " + what + ", not the Kubernetes API: is the server address in the kubeconfig the API "
        + "server's?");
  }

  /** kubectl's sentence for a failed connection, with Go's words for the cause. */
  private static String unreachable(Throwable t, Kubeconfig kc) {
    String hostPort = hostPort(kc);
    return switch (t) {
      case ConnectException c when c.getCause() instanceof UnresolvedAddressException ->
          "Unable to connect to the server: dial tcp: lookup " + host(kc) + ": no such host";
      case ConnectException c when !(t instanceof HttpConnectTimeoutException) ->
          "The connection to the server " + hostPort + " was refused - did you specify the right host or port?";
      case HttpConnectTimeoutException c -> "Unable to connect to the server: dial tcp " + hostPort + ": i/o timeout";
      case HttpTimeoutException h ->
          "Unable to connect to the server: net/http: request canceled (Client.Timeout exceeded while awaiting headers)";
      case TimeoutException h ->
          "Unable to connect to the server: net/http: request canceled (Client.Timeout exceeded while awaiting headers)";
      case UnknownHostException u -> "Unable to connect to the server: dial tcp: lookup " + host(kc) + ": no such host";
      case SSLException s -> "Unable to connect to the server: " + tls(s, host(kc));
      default -> "Unable to connect to the server: " + oneLine(Kubeconfig.firstLine(t));
    };
  }

  /** Go's crypto/tls and crypto/x509 words for what Java's TLS reports in its own. */
  private static String tls(SSLException s, String host) {
    for (Throwable c = s; c != null; c = c.getCause()) {
      if (c instanceof CertificateExpiredException) {
        return "tls: failed to verify certificate: x509: certificate has expired or is not yet valid";
      }
      String m = String.valueOf(c.getMessage());
      if (m.contains("PKIX path building failed") || m.contains("unable to find valid certification path")) {
        return "tls: failed to verify certificate: x509: certificate signed by unknown authority";
      }
      if (m.contains("No subject alternative") || m.contains("No name matching")) {
        return "tls: failed to verify certificate: x509: certificate is not valid for " + host;
      }
    }
    return "tls: " + oneLine(Kubeconfig.firstLine(s));
  }

  private static Throwable cause(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ConnectException || t instanceof UnknownHostException || t instanceof HttpTimeoutException
          || t instanceof TimeoutException || t instanceof SSLException || t instanceof InterruptedIOException) {
        return t;
      }
    }
    return null;
  }

  /** The JSON decoder's complaint, when the reply could not be read as the object asked for. */
  private static Throwable decoding(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String type = t.getClass().getName();
      if (type.contains(".jackson.") || type.contains("yaml")) {
        return t;
      }
    }
    return null;
  }

  private static final Pattern STRING_VALUE = Pattern.compile("from String value \\('(.*?)'\\)", Pattern.DOTALL);

  /** What came back, described rather than quoted as the Java type it failed to become. */
  private static String whatCame(Throwable decoding) {
    String m = String.valueOf(decoding.getMessage());
    if (decoding.getClass().getName().contains("yaml")) {
      // fabric8 reads a reply that is not JSON as YAML next; that it fails there too says it is text.
      return "text that is not JSON";
    }
    Matcher s = STRING_VALUE.matcher(m);
    if (s.find()) {
      return "text that is not JSON (" + Printable.cut(s.group(1), 40) + ")";
    }
    if (m.contains("Unexpected character") || m.contains("Unrecognized token")) {
      return "text that is not JSON";
    }
    if (m.contains("No content") || m.contains("end-of-input")) {
      return "an empty reply";
    }
    return "JSON of another shape";
  }

  private static Optional<String> statusMessage(KubernetesClientException e) {
    return Optional.ofNullable(e.getStatus()).map(s -> s.getMessage()).filter(m -> !m.isBlank()).map(AccessErrors::oneLine);
  }

  private static String serverSays(KubernetesClientException e) {
    return statusMessage(e).orElseGet(() -> oneLine(Kubeconfig.firstLine(e)));
  }

  /** kubectl's "(Reason)" after "Error from server", when the server gave one. */
  private static String reason(KubernetesClientException e) {
    return Optional.ofNullable(e.getStatus()).map(s -> s.getReason()).filter(r -> !r.isBlank())
        .map(r -> " (" + r + ")").orElse("");
  }

  private static String server(Kubeconfig kc) {
    return String.valueOf(kc.config().getMasterUrl());
  }

  private static String host(Kubeconfig kc) {
    try {
      return String.valueOf(URI.create(server(kc)).getHost());
    } catch (IllegalArgumentException e) {
      return server(kc);
    }
  }

  /** host:port as kubectl names the server it could not reach (Go's url.URL.Host). */
  private static String hostPort(Kubeconfig kc) {
    try {
      URI u = URI.create(server(kc));
      return u.getPort() < 0 ? u.getHost() : u.getHost() + ":" + u.getPort();
    } catch (IllegalArgumentException e) {
      return server(kc);
    }
  }

  private static String oneLine(String s) {
    return s.replaceAll("\\s+", " ").strip();
  }
}
