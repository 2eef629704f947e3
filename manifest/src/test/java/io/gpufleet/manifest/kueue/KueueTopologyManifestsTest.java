package io.gpufleet.manifest.kueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.queue.api.KueueState;
import io.gpufleet.queue.api.Topology;
import io.gpufleet.queue.api.TopologyRequest;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Topology objects, TAS flavors and Jobs' TAS annotations read from YAML, and their errors at their lines. */
class KueueTopologyManifestsTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  /** EKS's network-node labels as Kueue's TAS levels, a TAS flavor, and a Job that needs one layer-3 switch. */
  private static final String TAS = """
      apiVersion: kueue.x-k8s.io/v1beta2
      kind: Topology
      metadata: {name: aws}
      spec:
        levels:
        - nodeLabel: topology.k8s.aws/network-node-layer-1
        - nodeLabel: topology.k8s.aws/network-node-layer-2
        - nodeLabel: topology.k8s.aws/network-node-layer-3
        - nodeLabel: kubernetes.io/hostname
      ---
      apiVersion: kueue.x-k8s.io/v1beta2
      kind: ResourceFlavor
      metadata: {name: p5}
      spec:
        nodeLabels: {node.kubernetes.io/instance-type: p5.48xlarge}
        topologyName: aws
      ---
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: train
        namespace: ml
        labels: {kueue.x-k8s.io/queue-name: main}
      spec:
        parallelism: 4
        completions: 4
        template:
          metadata:
            annotations:
              kueue.x-k8s.io/podset-required-topology: topology.k8s.aws/network-node-layer-3
          spec:
            restartPolicy: Never
            containers:
            - name: c
              image: trainer
              resources: {requests: {cpu: "1"}}
      """;

  @Test
  void aTopologyATasFlavorAndAJobsRequiredLevelAreRead() {
    Diagnostics d = new Diagnostics();
    KueueState s = KueueManifests.read("tas.yaml", TAS, d, T0);
    assertThat(d.errors()).isEmpty();
    assertThat(d.warnings()).isEmpty();
    assertThat(s.topologies()).containsExactly(new Topology("aws", List.of("topology.k8s.aws/network-node-layer-1",
        "topology.k8s.aws/network-node-layer-2", "topology.k8s.aws/network-node-layer-3", "kubernetes.io/hostname")));
    assertThat(s.flavors().get(0).topologyName()).contains("aws");
    assertThat(s.workloads().get(0).podSets().get(0).topologyRequest())
        .contains(TopologyRequest.required("topology.k8s.aws/network-node-layer-3"));
  }

  @Test
  void badTopologiesFlavorsAndAnnotationsAreErrorsAtTheirLines() {
    String bad = """
        apiVersion: kueue.x-k8s.io/v1beta1
        kind: Topology
        metadata: {name: t}
        spec:
          levels:
          - nodeLabel: kubernetes.io/hostname
          - nodeLabel: rack
          - nodeLabel: rack
        ---
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ResourceFlavor
        metadata: {name: f}
        spec:
          topologyName: t
        ---
        apiVersion: batch/v1
        kind: Job
        metadata:
          name: j
          labels: {kueue.x-k8s.io/queue-name: main}
        spec:
          template:
            metadata:
              annotations:
                kueue.x-k8s.io/podset-preferred-topology: rack
                kueue.x-k8s.io/podset-unconstrained-topology: "yes"
                kueue.x-k8s.io/podset-slice-size: "2"
            spec:
              restartPolicy: Never
              containers: [{name: c, image: i}]
        """;
    Diagnostics d = new Diagnostics();
    KueueState s = KueueManifests.read("bad.yaml", bad, d, T0);
    assertThat(d.errors().stream().map(ManifestProblem::toString)).containsExactly(
        "bad.yaml:6:16: spec.levels[0].nodeLabel: the kubernetes.io/hostname label can only be used at the lowest "
            + "level of topology",
        "bad.yaml:8:16: spec.levels[2].nodeLabel: must be unique, found \"rack\" twice",
        "bad.yaml:14:17: spec.topologyName: at least one nodeLabel is required when topology is set",
        "bad.yaml:16:1: spec.template.metadata.annotations: must not contain "
            + "more than one topology annotation: [\"kueue.x-k8s.io/podset-required-topology\", "
            + "\"kueue.x-k8s.io/podset-preferred-topology\", \"kueue.x-k8s.io/podset-unconstrained-topology\"]",
        "bad.yaml:16:1: spec.template.metadata.annotations.kueue.x-k8s.io/podset-unconstrained-topology: Invalid "
            + "value: \"yes\": must be a boolean value");
    assertThat(d.warnings().stream().map(ManifestProblem::toString)).containsExactly(
        "bad.yaml:16:1: warning: spec.template.metadata.annotations.kueue.x-k8s.io/podset-slice-size: is not modelled by "
            + "gpufleet (TAS slices and pod-set groups); it is ignored");
    assertThat(s.workloads().get(0).podSets().get(0).topologyRequest()).isEqualTo(Optional.empty());
  }
}
