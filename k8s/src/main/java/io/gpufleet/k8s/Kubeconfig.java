package io.gpufleet.k8s;

import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A kubeconfig file and the one context chosen in it, checked before any connection is made: a
 * missing file or an unknown context is one line naming what exists. Only the named file is read;
 * {@code KUBECONFIG} and {@code ~/.kube/config} are not consulted, so a command reads the cluster the
 * user named and no other.
 */
record Kubeconfig(String context, Config config) {

  /** Seconds to wait for a TCP connection and for each response: a hung server fails, it does not hang. */
  private static final int CONNECT_TIMEOUT_MS = 10_000;
  private static final int REQUEST_TIMEOUT_MS = 60_000;

  static Kubeconfig load(ClusterSource source) {
    Path file = source.kubeconfig();
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new ClusterAccessException("kubeconfig " + file + ": no such file");
    } catch (IOException e) {
      throw new ClusterAccessException("kubeconfig " + file + ": cannot read: " + e.getMessage());
    }
    io.fabric8.kubernetes.api.model.Config parsed;
    try {
      parsed = new KubernetesSerialization().unmarshal(text, io.fabric8.kubernetes.api.model.Config.class);
    } catch (RuntimeException e) {
      throw new ClusterAccessException("kubeconfig " + file + ": not a kubeconfig file (" + firstLine(e) + ")");
    }
    if (parsed == null) {
      throw new ClusterAccessException("kubeconfig " + file + ": empty file");
    }
    List<String> contexts = parsed.getContexts() == null ? List.of()
        : parsed.getContexts().stream().map(NamedContext::getName).filter(Objects::nonNull).sorted().toList();
    String wanted = source.context().orElse(parsed.getCurrentContext());
    if (wanted == null || wanted.isBlank()) {
      throw new ClusterAccessException("kubeconfig " + file + " sets no current-context; pass --context "
          + (contexts.isEmpty() ? "(it defines no context)" : "with one of: " + String.join(", ", contexts)));
    }
    if (!contexts.contains(wanted)) {
      throw new ClusterAccessException("context \"" + wanted + "\" is not in kubeconfig " + file
          + (contexts.isEmpty() ? " (it defines no context)" : " (it has: " + String.join(", ", contexts) + ")"));
    }
    Config config;
    try {
      config = Config.fromKubeconfig(wanted, text, file.toString());
    } catch (KubernetesClientException | IllegalArgumentException | IllegalStateException e) {
      throw new ClusterAccessException("context \"" + wanted + "\" of kubeconfig " + file + " cannot be used: "
          + firstLine(e));
    }
    // One try per request: an unreachable or refusing server is reported at once, not after
    // fabric8's default of ten retries with exponential back-off.
    config.setRequestRetryBackoffLimit(0);
    config.setConnectionTimeout(CONNECT_TIMEOUT_MS);
    config.setRequestTimeout(REQUEST_TIMEOUT_MS);
    return new Kubeconfig(wanted, config);
  }

  static String firstLine(Throwable e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    int nl = m.indexOf('\n');
    return (nl < 0 ? m : m.substring(0, nl)).strip();
  }
}
