package io.gpufleet.manifest.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.manifest.ManifestReader;
import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.model.pod.ContainerPort;
import io.gpufleet.model.pod.Pod;
import java.util.List;
import org.junit.jupiter.api.Test;

/** spec.schedulingGates, containers' ports and RuntimeClass objects as the API server reads and checks them. */
class GatesPortsRuntimeClassDecoderTest {

  private static List<String> errors(String yaml) {
    try {
      new ManifestReader().read("p.yaml", yaml);
    } catch (ManifestException e) {
      return e.problems().stream().map(ManifestProblem::toString).toList();
    }
    throw new AssertionError("expected a ManifestException");
  }

  @Test
  void gatesAndPortsAreRead() {
    Pod p = new ManifestReader().read("p.yaml", """
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
          schedulingGates: [{name: example.com/quota}, {name: kueue.x-k8s.io/admission}]
          containers:
          - name: c
            ports: [{containerPort: 80}, {containerPort: 53, hostPort: 53, protocol: UDP, hostIP: 10.0.0.1}]
        """).pods().getFirst();
    assertThat(p.spec().schedulingGates()).containsExactly("example.com/quota", "kueue.x-k8s.io/admission");
    assertThat(p.spec().containers().getFirst().ports()).containsExactly(new ContainerPort(80, 0, "TCP", "0.0.0.0"),
        new ContainerPort(53, 53, "UDP", "10.0.0.1"));
    assertThat(p.spec().hostPorts()).containsExactly(new ContainerPort(53, 53, "UDP", "10.0.0.1"));
  }

  @Test
  void gatesAreCheckedAsValidateSchedulingGatesChecksThem() {
    assertThat(errors("""
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
          nodeName: n1
          schedulingGates: [{name: a}, {name: a}, {name: "bad name"}]
          containers: [{name: c}]
        """)).containsExactly(
        "p.yaml:5:13: spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared",
        "p.yaml:6:39: spec.schedulingGates[1].name: Duplicate value: \"a\"",
        "p.yaml:6:50: spec.schedulingGates[2].name: Invalid value: \"bad name\": name part must consist of "
            + "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. "
            + "'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
            + "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')");
  }

  @Test
  void aBadPortOrProtocolIsAnError() {
    assertThat(errors("""
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
          containers: [{name: c, ports: [{containerPort: 80, hostPort: 70000, protocol: HTTP}]}]
        """)).containsExactly(
        "p.yaml:5:64: spec.containers[0].ports[0].hostPort: expected a port number between 1 and 65535, "
            + "found 70000",
        "p.yaml:5:81: spec.containers[0].ports[0].protocol: expected one of TCP, UDP, SCTP, found \"HTTP\"");
  }

  @Test
  void aRuntimeClassNeedsItsHandler() {
    assertThat(errors("""
        apiVersion: node.k8s.io/v1
        kind: RuntimeClass
        metadata: {name: kata}
        """)).anyMatch(e -> e.contains("handler"));
  }

  @Test
  void namespacesAndRuntimeClassesAreObjectsOfTheirOwn() {
    var objects = new ManifestReader().read("p.yaml", """
        apiVersion: v1
        kind: Namespace
        metadata: {name: research, labels: {team: x}}
        ---
        apiVersion: node.k8s.io/v1
        kind: RuntimeClass
        metadata: {name: nvidia}
        handler: nvidia
        """).objects();
    assertThat(objects).extracting(KubeObject::kind, KubeObject::name)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("Namespace", "research"),
            org.assertj.core.groups.Tuple.tuple("RuntimeClass", "nvidia"));
  }

  @Test
  void aNamespaceIsNamedByADnsLabel() {
    assertThat(errors("""
        apiVersion: v1
        kind: Namespace
        metadata: {name: team.research}
        """)).singleElement().asString().contains("metadata.name: Invalid value: \"team.research\"");
  }
}
