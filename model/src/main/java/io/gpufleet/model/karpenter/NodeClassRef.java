package io.gpufleet.model.karpenter;

import java.util.Locale;

/** {@code spec.template.spec.nodeClassRef}: the provider's node class, e.g. an EC2NodeClass. */
public record NodeClassRef(String group, String kind, String name) {

  public static final NodeClassRef DEFAULT_EC2 = new NodeClassRef("karpenter.k8s.aws", "EC2NodeClass", "default");

  /**
   * The label Karpenter puts on each node of a NodePool naming its node class, e.g.
   * {@code karpenter.k8s.aws/ec2nodeclass: gpu} ({@code K:pkg/apis/v1/labels.go} NodeClassLabelKey:
   * the group, a slash and the kind in lower case; set on the NodeClaim template by the provisioner).
   */
  public String labelKey() {
    return group + "/" + kind.toLowerCase(Locale.ROOT);
  }

  @Override
  public String toString() {
    return kind + "/" + name;
  }
}
