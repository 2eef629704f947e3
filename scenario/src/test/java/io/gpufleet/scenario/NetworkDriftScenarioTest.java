package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.record.RunRecord;
import org.junit.jupiter.api.Test;

/**
 * A network change on an EC2NodeClass rolls its nodes with upstream's dynamic drift reasons
 * ({@code A:pkg/cloudprovider/drift.go}): new security groups are {@code SecurityGroupDrift}, subnets
 * that no longer include the node's are {@code SubnetDrift}; neither is in the static hash, so neither
 * is {@code NodeClassDrift}. Adding a subnet beside the node's drifts nothing.
 */
class NetworkDriftScenarioTest {

  static SimulationResult run(String before, String after) {
    return NodeClassScenarioTest.play(NodeClassScenarioTest.scenario(before, "m5.large", "busybox", "{requests: "
        + "{cpu: 100m}}", """
          - title: up
            actions:
            - waitUntil: {condition: {podReady: p}, timeout: 10m}
          - title: change the network
            actions:
            - apply:
              - apiVersion: karpenter.k8s.aws/v1
                kind: EC2NodeClass
                metadata: {name: default}
                spec: %s
            - wait: 30m
        """.formatted(after)));
  }

  static final String NETWORK = "{subnetSelectorTerms: [{tags: {karpenter.sh/discovery: blue}}], "
      + "securityGroupSelectorTerms: [{id: sg-0a1}]}";

  @Test
  void otherSecurityGroupsAreSecurityGroupDrift() {
    SimulationResult r = run(NETWORK, "{subnetSelectorTerms: [{tags: {karpenter.sh/discovery: blue}}], "
        + "securityGroupSelectorTerms: [{id: sg-0a1}, {id: sg-0b2}]}");
    assertThat(r.record().of(RunRecord.Kind.NODECLAIM_DRIFTED)).singleElement()
        .satisfies(e -> assertThat(e.message()).isEqualTo("SecurityGroupDrift"));
  }

  @Test
  void subnetsWithoutTheNodesAreSubnetDrift() {
    SimulationResult r = run(NETWORK, "{subnetSelectorTerms: [{tags: {karpenter.sh/discovery: green}}], "
        + "securityGroupSelectorTerms: [{id: sg-0a1}]}");
    assertThat(r.record().of(RunRecord.Kind.NODECLAIM_DRIFTED)).singleElement()
        .satisfies(e -> assertThat(e.message()).isEqualTo("SubnetDrift"));
  }

  @Test
  void anotherSubnetBesideTheNodesDriftsNothing() {
    SimulationResult r = run(NETWORK, "{subnetSelectorTerms: [{tags: {karpenter.sh/discovery: blue}}, "
        + "{id: subnet-0ffff}], securityGroupSelectorTerms: [{id: sg-0a1}]}");
    assertThat(r.record().of(RunRecord.Kind.NODECLAIM_DRIFTED)).isEmpty();
  }
}
