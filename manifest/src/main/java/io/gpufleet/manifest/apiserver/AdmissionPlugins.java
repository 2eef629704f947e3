package io.gpufleet.manifest.apiserver;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which kube-apiserver admission plugins are on ({@code --enable-admission-plugins}). The default is
 * the set Amazon EKS enables on every platform version of Kubernetes 1.29 and later, as the EKS user
 * guide lists it (https://docs.aws.amazon.com/eks/latest/userguide/platform-versions.html, "The
 * following admission controllers are enabled for all ... platform versions"). Of these the twin
 * models the plugins that change where or whether a pod runs ({@link #MODELLED}); the others (service
 * accounts, quotas, storage, certificates, webhooks, ...) leave a pod's placement alone and are
 * accepted by name.
 */
public record AdmissionPlugins(Set<String> enabled) {

  public static final String PRIORITY = "Priority";
  public static final String DEFAULT_TOLERATION_SECONDS = "DefaultTolerationSeconds";
  public static final String EXTENDED_RESOURCE_TOLERATION = "ExtendedResourceToleration";
  public static final String RUNTIME_CLASS = "RuntimeClass";

  /** The plugins the twin applies, in kube-apiserver's run order (below). */
  public static final List<String> MODELLED = List.of(PRIORITY, DEFAULT_TOLERATION_SECONDS,
      EXTENDED_RESOURCE_TOLERATION, RUNTIME_CLASS);

  /**
   * Every admission plugin kube-apiserver has, in the order it runs them: kubernetes/kubernetes
   * pkg/kubeapiserver/options/plugins.go, {@code AllOrderedPlugins}.
   */
  public static final List<String> ALL_ORDERED = List.of("AlwaysAdmit", "NamespaceAutoProvision",
      "NamespaceLifecycle", "NamespaceExists", "LimitPodHardAntiAffinityTopology", "LimitRanger", "ServiceAccount",
      "NodeRestriction", "TaintNodesByCondition", "AlwaysPullImages", "ImagePolicyWebhook", "PodSecurity",
      "PodNodeSelector", PRIORITY, DEFAULT_TOLERATION_SECONDS, "PodTolerationRestriction", "EventRateLimit",
      EXTENDED_RESOURCE_TOLERATION, "DefaultStorageClass", "StorageObjectInUseProtection", "PodGroupProtection",
      "OwnerReferencesPermissionEnforcement", "PersistentVolumeClaimResize", RUNTIME_CLASS, "CertificateApproval",
      "CertificateSigning", "ClusterTrustBundleAttest", "CertificateSubjectRestriction", "DefaultIngressClass",
      "DenyServiceExternalIPs", "PodTopologyLabels", "PodGroupWorkloadExists", "NodeDeclaredFeatureValidator",
      "JobValidation", "PodResizeValidator", "MutatingAdmissionPolicy", "MutatingAdmissionWebhook",
      "ValidatingAdmissionPolicy", "ValidatingAdmissionWebhook", "ResourceQuota", "AlwaysDeny");

  /** EKS's enabled set (the platform-versions page above, Kubernetes 1.29 and later). */
  public static final AdmissionPlugins EKS = new AdmissionPlugins(Set.of("NodeRestriction",
      EXTENDED_RESOURCE_TOLERATION, "NamespaceLifecycle", "LimitRanger", "ServiceAccount", "TaintNodesByCondition",
      "PodSecurity", PRIORITY, DEFAULT_TOLERATION_SECONDS, "DefaultStorageClass", "StorageObjectInUseProtection",
      "PersistentVolumeClaimResize", RUNTIME_CLASS, "CertificateApproval", "CertificateSigning",
      "CertificateSubjectRestriction", "DefaultIngressClass", "MutatingAdmissionWebhook",
      "ValidatingAdmissionWebhook", "ResourceQuota"));

  /** No admission plugin at all (defaulting still runs: it is not a plugin). */
  public static final AdmissionPlugins NONE = new AdmissionPlugins(Set.of());

  public AdmissionPlugins {
    TreeSet<String> sorted = new TreeSet<>(enabled);
    for (String name : sorted) {
      if (!ALL_ORDERED.contains(name)) {
        throw new IllegalArgumentException("unknown admission plugin \"" + name + "\": kube-apiserver has "
            + String.join(", ", new TreeSet<>(ALL_ORDERED)));
      }
    }
    enabled = Set.copyOf(sorted);
  }

  /** The default: {@link #EKS}. */
  public static AdmissionPlugins defaults() {
    return EKS;
  }

  public boolean on(String plugin) {
    return enabled.contains(plugin);
  }

  /**
   * This set with kube-apiserver's two flags applied: {@code --enable-admission-plugins} turns each
   * of {@code enable} on, {@code --disable-admission-plugins} each of {@code disable} off. A name
   * kube-apiserver does not have, or one named in both, is an {@link IllegalArgumentException}
   * whose message says so.
   */
  public AdmissionPlugins changed(List<String> enable, List<String> disable) {
    Set<String> s = new TreeSet<>(enabled);
    for (String name : disable) {
      if (!ALL_ORDERED.contains(name)) {
        throw new IllegalArgumentException("unknown admission plugin \"" + name + "\": kube-apiserver has "
            + String.join(", ", new TreeSet<>(ALL_ORDERED)));
      }
      if (enable.contains(name)) {
        throw new IllegalArgumentException("admission plugin \"" + name + "\" is both enabled and disabled");
      }
      s.remove(name);
    }
    s.addAll(enable);
    return new AdmissionPlugins(s);
  }

  /** This set with {@code plugin} on ({@code --enable-admission-plugins}). */
  public AdmissionPlugins with(String plugin) {
    Set<String> s = new TreeSet<>(enabled);
    s.add(plugin);
    return new AdmissionPlugins(s);
  }

  /** This set with {@code plugin} off ({@code --disable-admission-plugins}). */
  public AdmissionPlugins without(String plugin) {
    Set<String> s = new TreeSet<>(enabled);
    s.remove(plugin);
    return new AdmissionPlugins(s);
  }
}
