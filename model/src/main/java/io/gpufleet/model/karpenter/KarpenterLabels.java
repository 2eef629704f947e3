package io.gpufleet.model.karpenter;

import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;

/**
 * Karpenter's own labels, annotations and taints (reference §1.2, {@code K:pkg/apis/v1/labels.go}
 * and {@code K:pkg/apis/v1/taints.go}).
 */
public final class KarpenterLabels {
  private KarpenterLabels() {}

  public static final String DOMAIN = "karpenter.sh";
  public static final String NODEPOOL = "karpenter.sh/nodepool";
  public static final String CAPACITY_TYPE = "karpenter.sh/capacity-type";
  public static final String REGISTERED = "karpenter.sh/registered";
  public static final String INITIALIZED = "karpenter.sh/initialized";
  public static final String DO_NOT_SYNC_TAINTS = "karpenter.sh/do-not-sync-taints";

  /** On a pod or a node: Karpenter must not disrupt it voluntarily. */
  public static final String DO_NOT_DISRUPT = "karpenter.sh/do-not-disrupt";
  public static final String NODEPOOL_HASH = "karpenter.sh/nodepool-hash";
  /**
   * The DRA drivers whose devices Karpenter's allocator gave the pods of a NodeClaim, comma-separated
   * ({@code K:pkg/apis/v1/labels.go} DRADriversAnnotationKey).
   */
  public static final String REQUESTED_DRA_DRIVERS = "karpenter.sh/requested-dra-drivers";

  /** Put on at boot, removed at registration. */
  public static final Taint UNREGISTERED = Taint.of("karpenter.sh/unregistered", "", TaintEffect.NO_EXECUTE);
  /** Put on a node Karpenter is about to drain. */
  public static final Taint DISRUPTED = Taint.of("karpenter.sh/disrupted", "", TaintEffect.NO_SCHEDULE);

  /** True for keys in the {@code karpenter.sh} domain, which users may not set as labels. */
  public static boolean isRestricted(String key) {
    int slash = key.indexOf('/');
    String domain = slash < 0 ? "" : key.substring(0, slash);
    return domain.equals(DOMAIN) || domain.endsWith("." + DOMAIN) || key.equals("kubernetes.io/hostname");
  }
}
