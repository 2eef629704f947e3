package io.gpufleet.k8s;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.gpufleet.manifest.deviceplugin.DevicePluginManifests;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads a live cluster, read-only, into a {@link Snapshot}: nodes, pods, workloads, PDBs, priority
 * classes, the GPU Operator's device-plugin and mig-parted ConfigMaps and, where their API is
 * served, Karpenter's NodePools, NodeClaims and EC2NodeClasses. Every list is paged
 * ({@code limit}/{@code continue}). Secrets are never requested. The only requests made are
 * {@code GET /version}, API discovery, and {@code list} on the kinds named here.
 */
public final class ClusterImporter {

  /** Objects per page; the API server's own default for kubectl is 500 as well. */
  static final long PAGE_SIZE = 500;

  /**
   * The GPU Operator's default mig-parted ConfigMap, used when its ClusterPolicy names none
   * (NVIDIA/gpu-operator, controllers/object_controls.go: {@code MigPartedDefaultConfigMapName}).
   */
  static final String DEFAULT_MIG_PARTED_CONFIG_MAP = "default-mig-parted-config";

  private final Kubeconfig kubeconfig;
  private final KubernetesClient client;
  private final Optional<String> namespace;
  private final long pageSize;

  private ClusterImporter(Kubeconfig kubeconfig, KubernetesClient client, Optional<String> namespace, long pageSize) {
    this.kubeconfig = kubeconfig;
    this.client = client;
    this.namespace = namespace;
    this.pageSize = pageSize;
  }

  /** Reads the cluster {@code source} names; {@code now} is recorded as the import time. */
  public static Snapshot read(ClusterSource source, Instant now) {
    return read(source, now, PAGE_SIZE);
  }

  static Snapshot read(ClusterSource source, Instant now, long pageSize) {
    Kubeconfig kc = Kubeconfig.load(source);
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(kc.config()).build()) {
      return new ClusterImporter(kc, client, source.namespace(), pageSize).snapshot(now);
    } catch (KubernetesClientException e) {
      // Building the client can fail too (an address the HTTP client will not take); requests'
      // failures are translated where they are made, with what was asked.
      throw AccessErrors.translateVersion(e, kc);
    }
  }

  private Snapshot snapshot(Instant now) {
    String version = serverVersion();
    List<Map<String, Object>> items = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    items.addAll(list(ApiResource.NODE, Optional.empty()));
    items.addAll(list(ApiResource.PRIORITY_CLASS, Optional.empty()));
    for (ApiResource r : List.of(ApiResource.DEPLOYMENT, ApiResource.REPLICA_SET, ApiResource.STATEFUL_SET,
        ApiResource.DAEMON_SET, ApiResource.JOB, ApiResource.PDB, ApiResource.POD)) {
      items.addAll(list(r, Optional.empty()));
    }
    items.addAll(gpuOperatorConfigMaps(notes));
    List<String> missing = ApiResource.KARPENTER.stream().filter(r -> !served(r)).map(ApiResource::kind).toList();
    for (ApiResource r : ApiResource.KARPENTER) {
      if (!missing.contains(r.kind())) {
        items.addAll(list(r, Optional.empty()));
      }
    }
    if (!missing.isEmpty()) {
      notes.add("the cluster serves no " + String.join(", ", missing) + " (Karpenter v1 is not installed); "
          + "the snapshot has none, which is fine for a cluster without Karpenter");
    }
    return new Snapshot(kubeconfig.context(), version, namespace, now, items, notes);
  }

  private String serverVersion() {
    try {
      VersionInfo v = client.getKubernetesVersion();
      if (v == null) {
        throw AccessErrors.emptyReply(kubeconfig, "GET /version");
      }
      return v.getGitVersion() == null ? "unknown" : v.getGitVersion();
    } catch (KubernetesClientException e) {
      throw AccessErrors.translateVersion(e, kubeconfig);
    }
  }

  private boolean served(ApiResource r) {
    try {
      return client.supports(r.apiVersion(), r.kind());
    } catch (KubernetesClientException e) {
      throw AccessErrors.translate(e, kubeconfig, "get", r, "(API discovery)");
    }
  }

  /**
   * The device-plugin and mig-parted ConfigMaps, found as the GPU Operator names them: the names its
   * ClusterPolicy gives in {@code spec.devicePlugin.config.name} and {@code spec.migManager.config.name}
   * (NVIDIA/gpu-operator, api/nvidia/v1/clusterpolicy_types.go), the mig-parted one defaulting to
   * {@value #DEFAULT_MIG_PARTED_CONFIG_MAP}. Read by name ({@code metadata.name} field selector) in
   * whichever namespace the operator runs, so no other ConfigMap is read.
   */
  private List<Map<String, Object>> gpuOperatorConfigMaps(List<String> notes) {
    TreeSet<String> names = new TreeSet<>();
    names.add(DEFAULT_MIG_PARTED_CONFIG_MAP);
    Optional<String> pluginConfig = Optional.empty();
    Optional<String> pluginDefault = Optional.empty();
    if (served(ApiResource.CLUSTER_POLICY)) {
      for (Map<String, Object> p : list(ApiResource.CLUSTER_POLICY, Optional.empty())) {
        pluginConfig = config(p, "devicePlugin", "name");
        pluginDefault = config(p, "devicePlugin", "default");
        pluginConfig.ifPresent(names::add);
        config(p, "migManager", "name").ifPresent(names::add);
      }
    } else {
      notes.add("the cluster serves no GPU Operator ClusterPolicy (nvidia.com/v1); only the ConfigMap "
          + DEFAULT_MIG_PARTED_CONFIG_MAP + " is looked for, so no device-plugin config is imported");
    }
    List<Map<String, Object>> out = new ArrayList<>();
    for (String name : names) {
      for (Map<String, Object> cm : list(ApiResource.CONFIG_MAP, Optional.of("metadata.name=" + name))) {
        if (pluginConfig.equals(Optional.of(name)) && pluginDefault.isPresent()) {
          // The operator keeps the default config's name in the ClusterPolicy; the twin reads it from
          // the ConfigMap, so the snapshot carries it there.
          annotate(cm, DevicePluginManifests.DEFAULT_CONFIG_ANNOTATION, pluginDefault.get());
        }
        out.add(cm);
      }
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static void annotate(Map<String, Object> object, String key, String value) {
    Map<String, Object> metadata = (Map<String, Object>) object.computeIfAbsent("metadata", k -> new TreeMap<>());
    ((Map<String, Object>) metadata.computeIfAbsent("annotations", k -> new TreeMap<>())).put(key, value);
  }

  /** {@code spec.<operand>.config.<field>} of a ClusterPolicy, when set and not empty. */
  private static Optional<String> config(Map<String, Object> policy, String operand, String field) {
    return policy.get("spec") instanceof Map<?, ?> spec && spec.get(operand) instanceof Map<?, ?> o
        && o.get("config") instanceof Map<?, ?> c && c.get(field) instanceof String n && !n.isBlank()
        ? Optional.of(n) : Optional.empty();
  }

  /** Every object of {@code r}, page by page, cleaned of noise; ConfigMaps are read across namespaces. */
  private List<Map<String, Object>> list(ApiResource r, Optional<String> fieldSelector) {
    MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> op =
        client.genericKubernetesResources(r.context());
    Optional<String> ns = r.namespaced() && r != ApiResource.CONFIG_MAP ? namespace : Optional.empty();
    String scope = !r.namespaced() ? "at cluster scope"
        : ns.map(n -> "in namespace \"" + n + "\"").orElse("in all namespaces");
    List<Map<String, Object>> out = new ArrayList<>();
    String next = null;
    do {
      ListOptionsBuilder b = new ListOptionsBuilder().withLimit(pageSize).withContinue(next);
      fieldSelector.ifPresent(b::withFieldSelector);
      ListOptions options = b.build();
      GenericKubernetesResourceList page;
      try {
        page = !r.namespaced() ? op.list(options)
            : ns.isPresent() ? op.inNamespace(ns.get()).list(options) : op.inAnyNamespace().list(options);
      } catch (KubernetesClientException e) {
        throw AccessErrors.translate(e, kubeconfig, "list", r, scope);
      }
      if (page == null || page.getItems() == null) {
        throw AccessErrors.emptyReply(kubeconfig, "list " + r.plural() + " " + scope);
      }
      for (GenericKubernetesResource o : page.getItems()) {
        @SuppressWarnings("unchecked")
        Map<String, Object> map = client.getKubernetesSerialization().convertValue(o, Map.class);
        // Items of a list carry no apiVersion/kind of their own on the wire; the snapshot needs both.
        map.put("apiVersion", r.apiVersion());
        map.put("kind", r.kind());
        out.add(Noise.clean(map));
      }
      next = page.getMetadata() == null ? null : page.getMetadata().getContinue();
    } while (next != null && !next.isEmpty());
    return out;
  }
}
