package io.gpufleet.autoscaler.conformance;

import static io.gpufleet.autoscaler.conformance.K.*;
import static io.gpufleet.autoscaler.conformance.LifecycleCases.POOL;
import static io.gpufleet.autoscaler.conformance.LifecycleCases.PROVIDER_DRIFT;
import static io.gpufleet.autoscaler.conformance.LifecycleCases.claim;
import static io.gpufleet.autoscaler.conformance.LifecycleCases.drifts;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.action.Action;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.karpenter.EC2NodeClass;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The AWS provider's subnet and security-group drift, Context "Drift" of
 * {@code aws:pkg/cloudprovider/suite_test.go} ({@code isSubnetDrifted}, {@code areSecurityGroupsDrifted}
 * in {@code A:pkg/cloudprovider/drift.go}). Upstream's class status holds validSubnet1, validSubnet2 and
 * validSecurityGroup, and its instance runs in validSubnet1 with validSecurityGroup; each case changes
 * the instance (here: the class the claim was launched with, which {@code EC2NodeClass.stamp} records)
 * or the class's status.
 */
final class NetworkDriftCases {
  private NetworkDriftCases() {}

  static final String SUBNET_1 = "subnet-test1";
  static final String SUBNET_2 = "subnet-test2";
  static final String GROUP = "sg-test1";
  static final String OTHER_GROUP = "sg-random";

  static final EC2NodeClass CLASS = LifecycleCases.nodeClass("hash-1", "al2023@v20240807")
      .withNetwork(List.of(SUBNET_1, SUBNET_2), List.of(GROUP));

  /** A claim whose instance was launched into {@code subnet} with {@code groups}. */
  static StateNode launched(String subnet, List<String> groups) {
    return claim(node(POOL, "m5.large", 1), CLASS.withNetwork(List.of(subnet), groups)::stamp);
  }

  static List<Action> driftOf(StateNode n, EC2NodeClass now) {
    return drifts(POOL, n, Map.of("default", now));
  }

  static List<UpstreamCase> all() {
    List<UpstreamCase> c = new ArrayList<>();
    c.add(UpstreamCase.of("drift detection", PROVIDER_DRIFT, "should return drifted if the subnet is not valid", () -> {
      StateNode n = launched("subnet-random", List.of(GROUP));
      assertThat(driftOf(n, CLASS)).containsExactly(new Action.MarkDrifted(n.name(), "SubnetDrift"));
      // In validSubnet1 it is not drifted.
      assertThat(driftOf(launched(SUBNET_1, List.of(GROUP)), CLASS)).isEmpty();
    }));
    c.add(UpstreamCase.of("drift detection", PROVIDER_DRIFT, "should return drifted if the instance security groups "
        + "doesn't match the discovered values", () -> {
      StateNode n = launched(SUBNET_1, List.of(OTHER_GROUP));
      assertThat(driftOf(n, CLASS)).containsExactly(new Action.MarkDrifted(n.name(), "SecurityGroupDrift"));
    }));
    c.add(UpstreamCase.of("drift detection", PROVIDER_DRIFT, "should return drifted if there are more instance "
        + "security groups present than in the discovered values", () -> {
      StateNode n = launched(SUBNET_1, List.of(OTHER_GROUP, GROUP));
      assertThat(driftOf(n, CLASS)).containsExactly(new Action.MarkDrifted(n.name(), "SecurityGroupDrift"));
    }));
    c.add(UpstreamCase.of("drift detection", PROVIDER_DRIFT, "should return drifted if more security groups are "
        + "present than instance security groups then discovered from nodeclass", () -> {
      StateNode n = launched(SUBNET_1, List.of(GROUP));
      EC2NodeClass more = CLASS.withNetwork(List.of(SUBNET_1, SUBNET_2), List.of(GROUP, OTHER_GROUP));
      assertThat(driftOf(n, more)).containsExactly(new Action.MarkDrifted(n.name(), "SecurityGroupDrift"));
    }));
    c.add(UpstreamCase.of("drift detection", PROVIDER_DRIFT, "should not return drifted if the security groups match",
        () -> assertThat(driftOf(launched(SUBNET_1, List.of(GROUP)), CLASS)).isEmpty()));
    return c;
  }
}
