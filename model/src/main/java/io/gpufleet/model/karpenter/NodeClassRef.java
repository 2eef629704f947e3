package io.gpufleet.model.karpenter;

/** {@code spec.template.spec.nodeClassRef}: the provider's node class, e.g. an EC2NodeClass. */
public record NodeClassRef(String group, String kind, String name) {

  public static final NodeClassRef DEFAULT_EC2 = new NodeClassRef("karpenter.k8s.aws", "EC2NodeClass", "default");

  @Override
  public String toString() {
    return kind + "/" + name;
  }
}
