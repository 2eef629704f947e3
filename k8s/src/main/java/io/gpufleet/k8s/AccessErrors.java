package io.gpufleet.k8s;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;

/**
 * Turns the client's exceptions into one line a user can act on: which server, which context, and
 * for an RBAC denial the verb and resource the credentials lack (the caller knows them; they are
 * not parsed from the server's text).
 */
final class AccessErrors {
  private AccessErrors() {}

  /** {@code verb}, {@code r} and {@code scope} ("in all namespaces") name the request that failed. */
  static ClusterAccessException translate(KubernetesClientException e, Kubeconfig kc, String verb, ApiResource r,
      String scope) {
    return unreachableOrUnauthorized(e, kc).orElseGet(() -> {
      String serverSays = e.getStatus() != null && e.getStatus().getMessage() != null
          ? e.getStatus().getMessage() : Kubeconfig.firstLine(e);
      return e.getCode() == 403
          ? new ClusterAccessException("RBAC denies \"" + verb + "\" on " + r.plural() + " (API group "
              + r.groupForRbac() + ") " + scope + " to context \"" + kc.context() + "\" (403 Forbidden); import "
              + "needs " + verb + " on it: " + oneLine(serverSays))
          : new ClusterAccessException("the API server " + kc.config().getMasterUrl() + " answered " + verb + " "
              + r.plural() + " " + scope + " with " + (e.getCode() == 0 ? "an error" : "HTTP " + e.getCode()) + ": "
              + oneLine(serverSays));
    });
  }

  /** The same for the version request, which names no resource. */
  static ClusterAccessException translateVersion(KubernetesClientException e, Kubeconfig kc) {
    return unreachableOrUnauthorized(e, kc).orElseGet(() -> new ClusterAccessException("the API server "
        + kc.config().getMasterUrl() + " (context \"" + kc.context() + "\") did not tell its version: "
        + (e.getCode() == 0 ? "" : "HTTP " + e.getCode() + ": ") + oneLine(Kubeconfig.firstLine(e))));
  }

  /** What any request can meet: no connection, or credentials the server rejects. */
  private static Optional<ClusterAccessException> unreachableOrUnauthorized(KubernetesClientException e,
      Kubeconfig kc) {
    String server = String.valueOf(kc.config().getMasterUrl());
    String ctx = "context \"" + kc.context() + "\"";
    Throwable network = cause(e);
    if (network != null) {
      return Optional.of(new ClusterAccessException("cannot reach the API server " + server + " (" + ctx + "): "
          + networkReason(network)));
    }
    if (e.getCode() == 401) {
      return Optional.of(new ClusterAccessException("the API server " + server + " rejected the credentials of "
          + ctx + " (401 Unauthorized): they are expired or invalid; renew them (e.g. your cloud's get-credentials) "
          + "and retry"));
    }
    return Optional.empty();
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

  private static String networkReason(Throwable t) {
    return switch (t) {
      case HttpConnectTimeoutException c -> "connection timed out";
      case HttpTimeoutException h -> "no answer in time";
      case TimeoutException h -> "no answer in time";
      case ConnectException c -> "connection refused";
      case UnknownHostException u -> "unknown host " + u.getMessage();
      case SSLException s -> "TLS failed: " + oneLine(Kubeconfig.firstLine(s));
      default -> oneLine(Kubeconfig.firstLine(t));
    };
  }

  private static String oneLine(String s) {
    return s.replaceAll("\\s+", " ").strip();
  }
}
