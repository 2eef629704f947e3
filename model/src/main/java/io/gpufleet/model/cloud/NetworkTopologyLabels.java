package io.gpufleet.model.cloud;

import io.gpufleet.model.label.Labels;
import java.util.Set;

/**
 * The EC2 network topology labels a node gets on EKS: the AWS cloud controller manager asks EC2's
 * DescribeInstanceTopology for the instance and labels the node
 * {@code topology.k8s.aws/network-node-layer-1..3} with its network nodes, top switch layer first
 * (kubernetes/cloud-provider-aws {@code pkg/providers/v1/well_known_labels.go} LabelNetworkNode,
 * {@code instances_v2_test.go} TestInstanceMetadata). Only the instance types that API describes get
 * them (EC2 API reference, DescribeInstanceTopology "Limitations": three network nodes for the p3dn,
 * p4d, p4de, p5, p5e, p5en, trn1, trn1n, trn2, trn2u and hpc6a/6id/7a/7g types listed here;
 * p6-b200.48xlarge, with four, is left out).
 *
 * <p>EC2 does not publish how many instances share a network node. The twin's layout, an assumption:
 * one layer-1 node per zone, and the instances of a zone, in the order they register, fill a layer-2
 * node {@link #PER_LAYER_2} at a time and a layer-3 node {@link #PER_LAYER_3} at a time. The IDs are
 * {@code nn-} and 17 hex digits, as EC2 writes them, derived from zone and group, so a run is
 * deterministic.
 */
public final class NetworkTopologyLabels {

  public static final String LAYER_1 = "topology.k8s.aws/network-node-layer-1";
  public static final String LAYER_2 = "topology.k8s.aws/network-node-layer-2";
  public static final String LAYER_3 = "topology.k8s.aws/network-node-layer-3";
  /** The twin's assumption: instances under one layer-3 network node. */
  public static final int PER_LAYER_3 = 4;
  /** The twin's assumption: instances under one layer-2 network node. */
  public static final int PER_LAYER_2 = 32;

  private static final Set<String> DESCRIBED = Set.of("p3dn.24xlarge", "p4d.24xlarge", "p4de.24xlarge",
      "p5.48xlarge", "p5e.48xlarge", "p5en.48xlarge", "trn1.2xlarge", "trn1.32xlarge", "trn1n.32xlarge",
      "trn2.48xlarge", "trn2u.48xlarge", "hpc6a.48xlarge", "hpc6id.32xlarge", "hpc7a.12xlarge", "hpc7a.24xlarge",
      "hpc7a.48xlarge", "hpc7a.96xlarge", "hpc7g.4xlarge", "hpc7g.8xlarge", "hpc7g.16xlarge");

  private NetworkTopologyLabels() {}

  /** Whether DescribeInstanceTopology describes the instance type (with three network nodes). */
  public static boolean described(String instanceType) {
    return DESCRIBED.contains(instanceType);
  }

  /** The labels of the {@code ordinal}-th (from 0) such instance to register in {@code zone}. */
  public static Labels of(String zone, int ordinal) {
    return Labels.of(LAYER_1, id(zone, 1, 0), LAYER_2, id(zone, 2, ordinal / PER_LAYER_2),
        LAYER_3, id(zone, 3, ordinal / PER_LAYER_3));
  }

  /** {@code nn-} and 17 hex digits from zone, layer and group (String.hashCode is fixed by the JLS). */
  static String id(String zone, int layer, int group) {
    String key = zone + "/" + layer + "/" + group;
    long h = 1125899906842597L;
    for (int i = 0; i < key.length(); i++) {
      h = 31 * h + key.charAt(i);
    }
    h ^= (h >>> 29);
    h *= 0xbf58476d1ce4e5b9L;
    h ^= (h >>> 32);
    return "nn-" + Integer.toHexString(layer) + String.format("%016x", h);
  }
}
