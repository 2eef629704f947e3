package io.gpufleet.autoscaler.conformance;

import static io.gpufleet.autoscaler.conformance.K.CATALOG;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.provisioning.NodeOverlays;
import io.gpufleet.model.cloud.InstanceType;
import io.gpufleet.model.karpenter.NodeOverlay;
import io.gpufleet.model.karpenter.NodePool;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.karpenter.RequirementOperator;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Cases from kubernetes-sigs/karpenter's {@code pkg/controllers/nodeoverlay/suite_test.go}: which
 * overlays the controller accepts (a conflict with another of the same weight sets ValidationSucceeded
 * False, and the overlay applies nowhere) and what the instance types then look like. Upstream's fake
 * types become m5/c5 types of the catalogue.
 */
final class NodeOverlayCases {
  private NodeOverlayCases() {}

  static final String SUITE = "pkg/controllers/nodeoverlay/suite_test.go";

  static NodePool pool = K.pool("default");

  static NodeOverlay price(String name, int weight, String change, NodePoolRequirement... reqs) {
    boolean signed = change.startsWith("+") || change.startsWith("-");
    return new NodeOverlay(name, List.of(reqs), signed ? Optional.empty() : Optional.of(change),
        signed ? Optional.of(change) : Optional.empty(), ResourceList.EMPTY, weight);
  }

  static NodeOverlay capacity(String name, int weight, String fuse, NodePoolRequirement... reqs) {
    return new NodeOverlay(name, List.of(reqs), Optional.empty(), Optional.empty(),
        ResourceList.of("smarter-devices/fuse", fuse), weight);
  }

  static NodeOverlays of(NodeOverlay... overlays) {
    return NodeOverlays.of(List.of(overlays), List.of(pool), CATALOG);
  }

  static NodePoolRequirement types(String... names) {
    return NodePoolRequirement.in(K.TYPE, names);
  }

  static double onDemand(InstanceType t) {
    return t.offerings().stream().filter(o -> o.capacityType().wireName().equals("on-demand")).findFirst()
        .orElseThrow().pricePerHour();
  }

  static String fuse(NodeOverlays o, String type) {
    return o.apply("default", CATALOG.require(type)).allocatable().toString();
  }

  static List<UpstreamCase> all() {
    List<UpstreamCase> c = new ArrayList<>();
    c.add(UpstreamCase.of("NodeOverlay", SUITE, "should return the same instance type when zero overlay are applied",
        () -> {
          InstanceType t = CATALOG.require("m5.large");
          assertThat(NodeOverlays.of(List.of(), List.of(pool), CATALOG).apply("default", t)).isSameAs(t);
        }));
    c.add(UpstreamCase.of("NodeOverlay", SUITE, "should pass with a single overlay", () -> {
      NodeOverlays o = of(price("overlay-a", 10, "1.03", types("m5.large")));
      assertThat(o.conflicting()).isEmpty();
      assertThat(onDemand(o.apply("default", CATALOG.require("m5.large")))).isEqualTo(1.03);
    }));
    c.add(UpstreamCase.of("NodeOverlay", SUITE, "should fail when requirements overlays overlap", () -> {
      // Both match every type (upstream's first matches arm64 types; the catalogue's are amd64).
      NodeOverlays o = of(price("overlay-a", 10, "1.03", NodePoolRequirement.in(K.ARCH, "amd64")),
          price("overlay-b", 10, "23", NodePoolRequirement.of(K.CAPACITY_TYPE, RequirementOperator.EXISTS)));
      assertThat(o.conflicting()).containsExactly("overlay-a");
      assertThat(onDemand(o.apply("default", CATALOG.require("m5.large")))).isEqualTo(23);
    }));
    c.add(UpstreamCase.of("NodeOverlay", SUITE, "should succeed with requirements overlays don't overlap", () -> {
      NodeOverlays o = of(price("overlay-a", 10, "1.03", NodePoolRequirement.in(K.FAMILY, "m5")),
          price("overlay-b", 10, "23", NodePoolRequirement.in(K.FAMILY, "c5")));
      assertThat(o.conflicting()).isEmpty();
      assertThat(onDemand(o.apply("default", CATALOG.require("m5.large")))).isEqualTo(1.03);
      assertThat(onDemand(o.apply("default", CATALOG.require("c5.large")))).isEqualTo(23);
    }));
    c.add(UpstreamCase.of("NodeOverlay", SUITE, "should fail with requirements overlays overlap on zone", () -> {
      NodeOverlays o = of(price("overlay-a", 10, "1.03", NodePoolRequirement.in(K.ZONE, "us-east-1a")),
          price("overlay-b", 10, "23", NodePoolRequirement.in(K.ZONE, "us-east-1a", "us-east-1b")));
      assertThat(o.conflicting()).containsExactly("overlay-a");
    }));
    c.add(UpstreamCase.of("NodeOverlay", SUITE, "should fail with conflicting capacity overlays with overlapping "
        + "requirements", () -> {
      NodeOverlays o = of(capacity("overlay-a", 10, "1", types("m5.large", "m5.xlarge")),
          capacity("overlay-b", 10, "54", types("m5.large", "c5.large")));
      assertThat(o.conflicting()).containsExactly("overlay-a");
      assertThat(fuse(o, "m5.large")).contains("smarter-devices/fuse: 54");
      assertThat(fuse(o, "m5.xlarge")).doesNotContain("smarter-devices/fuse");
    }));
    c.add(UpstreamCase.of("NodeOverlay", SUITE, "should pass with conflicting capacity overlays with mutually "
        + "exclusive weights", () -> {
      NodeOverlays o = of(capacity("overlay-a", 10, "1", types("m5.large")),
          capacity("overlay-b", 20, "54", types("m5.large")));
      assertThat(o.conflicting()).isEmpty();
      assertThat(fuse(o, "m5.large")).contains("smarter-devices/fuse: 54");
    }));
    c.add(UpstreamCase.of("NodeOverlay", SUITE, "should only apply override for nodepool that defined in the overlay "
        + "requirements", () -> {
      NodePool other = K.pool("other");
      NodeOverlays o = NodeOverlays.of(List.of(capacity("overlay-a", 10, "1", NodePoolRequirement.in(K.NODEPOOL,
          "default"))), List.of(pool, other), CATALOG);
      assertThat(o.apply("default", CATALOG.require("m5.large")).allocatable().toString())
          .contains("smarter-devices/fuse: 1");
      assertThat(o.apply("other", CATALOG.require("m5.large"))).isSameAs(CATALOG.require("m5.large"));
    }));
    c.add(UpstreamCase.of("NodeOverlay", SUITE, "should apply pricing and capacity adjustment from two overlays on the "
        + "same instance type", () -> {
      NodeOverlays o = of(price("overlay-price", 10, "+1000.0", types("m5.large")),
          capacity("overlay-capacity", 10, "1", types("m5.large")));
      assertThat(o.conflicting()).isEmpty();
      InstanceType t = o.apply("default", CATALOG.require("m5.large"));
      assertThat(onDemand(t)).isEqualTo(onDemand(CATALOG.require("m5.large")) + 1000.0);
      assertThat(t.allocatable().toString()).contains("smarter-devices/fuse: 1");
    }));
    return c;
  }
}
