package io.gpufleet.model.meta;

/**
 * The Kubernetes release whose behaviour the twin follows: kube-scheduler's plugins, defaults,
 * scores and messages, the kubelet's admission words and the API server's validation are read from
 * that release's code. One constant, so the CLI's {@code --version}, the docs and the code agree.
 */
public final class KubernetesVersion {
  private KubernetesVersion() {}

  /** The release followed. */
  public static final String FOLLOWS = "v1.37";
}
