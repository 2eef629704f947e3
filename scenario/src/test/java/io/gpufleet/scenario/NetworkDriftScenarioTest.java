package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.record.RunRecord;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A network change on an EC2NodeClass rolls its nodes with upstream's dynamic drift reasons
 * ({@code A:pkg/cloudprovider/drift.go}): new security groups are {@code SecurityGroupDrift}, subnets
 * that no longer include the node's are {@code SubnetDrift}; neither is in the static hash, so neither
 * is {@code NodeClassDrift}. Adding a subnet beside the node's drifts nothing.
 */
class NetworkDriftScenarioTest {

  static String scenario(String before, String after) {
    return """
        apiVersion: gpufleet.io/v1alpha1
        kind: Scenario
        metadata: {name: network-drift}
        spec:
          cluster:
          - apiVersion: karpenter.k8s.aws/v1
            kind: EC2NodeClass
            metadata: {name: default}
            spec: %s
          - apiVersion: karpenter.sh/v1
            kind: NodePool
            metadata: {name: general}
            spec:
              template:
                spec:
                  nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                  requirements:
                  - {key: node.kubernetes.io/instance-type, operator: In, values: [m5.large]}
                  - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
          - apiVersion: v1
            kind: Pod
            metadata: {name: p}
            spec:
              containers: [{name: c, image: busybox, resources: {requests: {cpu: 100m}}}]
          steps:
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
            - wait: 5m
        """.formatted(before, after);
  }

  static SimulationResult run(String before, String after) {
    ScenarioFile f = ScenarioReader.read("s.yaml", scenario(before, after), ScenarioSources.directory(Path.of(".")));
    return Simulation.run(f.scenario());
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
