package io.gpufleet.k8s;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.List;

/**
 * One kind the import lists: its API group and version, kind, plural (the name RBAC rules and
 * error messages use) and scope. {@link #SNAPSHOT} is the order objects appear in a snapshot.
 */
record ApiResource(String group, String version, String kind, String plural, boolean namespaced) {

  static final ApiResource PRIORITY_CLASS =
      new ApiResource("scheduling.k8s.io", "v1", "PriorityClass", "priorityclasses", false);
  static final ApiResource CONFIG_MAP = new ApiResource("", "v1", "ConfigMap", "configmaps", true);
  static final ApiResource EC2_NODE_CLASS =
      new ApiResource("karpenter.k8s.aws", "v1", "EC2NodeClass", "ec2nodeclasses", false);
  static final ApiResource NODE_POOL = new ApiResource("karpenter.sh", "v1", "NodePool", "nodepools", false);
  static final ApiResource NODE_CLAIM = new ApiResource("karpenter.sh", "v1", "NodeClaim", "nodeclaims", false);
  static final ApiResource NODE = new ApiResource("", "v1", "Node", "nodes", false);
  static final ApiResource DEPLOYMENT = new ApiResource("apps", "v1", "Deployment", "deployments", true);
  static final ApiResource REPLICA_SET = new ApiResource("apps", "v1", "ReplicaSet", "replicasets", true);
  static final ApiResource STATEFUL_SET = new ApiResource("apps", "v1", "StatefulSet", "statefulsets", true);
  static final ApiResource DAEMON_SET = new ApiResource("apps", "v1", "DaemonSet", "daemonsets", true);
  static final ApiResource JOB = new ApiResource("batch", "v1", "Job", "jobs", true);
  static final ApiResource PDB =
      new ApiResource("policy", "v1", "PodDisruptionBudget", "poddisruptionbudgets", true);
  static final ApiResource POD = new ApiResource("", "v1", "Pod", "pods", true);
  /** Read only to find the device-plugin and mig-parted ConfigMaps' names; not written out. */
  static final ApiResource CLUSTER_POLICY = new ApiResource("nvidia.com", "v1", "ClusterPolicy", "clusterpolicies", false);

  /** Every kind a snapshot holds, in the order written: what others refer to comes first. */
  static final List<ApiResource> SNAPSHOT = List.of(PRIORITY_CLASS, CONFIG_MAP, EC2_NODE_CLASS, NODE_POOL, NODE_CLAIM,
      NODE, DEPLOYMENT, REPLICA_SET, STATEFUL_SET, DAEMON_SET, JOB, PDB, POD);

  /** Karpenter's kinds: read only where the cluster serves their API (the CRDs are installed). */
  static final List<ApiResource> KARPENTER = List.of(EC2_NODE_CLASS, NODE_POOL, NODE_CLAIM);

  String apiVersion() {
    return group.isEmpty() ? version : group + "/" + version;
  }

  /** The API group as RBAC rules spell it: {@code ""} for the core group. */
  String groupForRbac() {
    return "\"" + group + "\"";
  }

  ResourceDefinitionContext context() {
    return new ResourceDefinitionContext.Builder().withGroup(group).withVersion(version).withKind(kind)
        .withPlural(plural).withNamespaced(namespaced).build();
  }

  /** The position of {@code apiVersion}/{@code kind} in {@link #SNAPSHOT}; unknown kinds go last. */
  static int order(String apiVersion, String kind) {
    for (int i = 0; i < SNAPSHOT.size(); i++) {
      ApiResource r = SNAPSHOT.get(i);
      if (r.kind.equals(kind) && r.apiVersion().equals(apiVersion)) {
        return i;
      }
    }
    return SNAPSHOT.size();
  }
}
