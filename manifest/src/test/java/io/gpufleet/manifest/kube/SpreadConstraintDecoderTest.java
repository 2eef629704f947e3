package io.gpufleet.manifest.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.manifest.ManifestReader;
import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.pod.TopologySpreadConstraint;
import io.gpufleet.model.pod.TopologySpreadConstraint.NodeInclusionPolicy;
import io.gpufleet.model.pod.TopologySpreadConstraint.WhenUnsatisfiable;
import java.util.List;
import org.junit.jupiter.api.Test;

/** topologySpreadConstraints as the API server reads and checks them. */
class SpreadConstraintDecoderTest {

  private final ManifestReader reader = new ManifestReader();

  private static final String POD = """
      apiVersion: v1
      kind: Pod
      metadata: {name: p, labels: {app: web, pod-template-hash: abc}}
      spec:
        containers: [{name: c}]
        topologySpreadConstraints:
      """;

  private List<String> errors(String constraints) {
    try {
      reader.read("p.yaml", POD + constraints);
    } catch (ManifestException e) {
      return e.problems().stream().map(ManifestProblem::toString).toList();
    }
    throw new AssertionError("expected a ManifestException");
  }

  @Test
  void readsEveryFieldWithTheApiDefaults() {
    List<TopologySpreadConstraint> read = reader.read("p.yaml", POD + """
          - maxSkew: 1
            topologyKey: topology.kubernetes.io/zone
            whenUnsatisfiable: DoNotSchedule
            labelSelector: {matchLabels: {app: web}}
            minDomains: 3
            nodeTaintsPolicy: Honor
            matchLabelKeys: [pod-template-hash]
          - maxSkew: 2
            topologyKey: kubernetes.io/hostname
            whenUnsatisfiable: ScheduleAnyway
        """).pods().getFirst().spec().topologySpreadConstraints();
    assertThat(read).hasSize(2);
    TopologySpreadConstraint zone = read.getFirst();
    assertThat(zone.maxSkew()).isEqualTo(1);
    assertThat(zone.whenUnsatisfiable()).isEqualTo(WhenUnsatisfiable.DO_NOT_SCHEDULE);
    assertThat(zone.labelSelector().orElseThrow().matchLabels()).isEqualTo(Labels.of("app", "web"));
    assertThat(zone.minDomains()).hasValue(3);
    assertThat(zone.nodeAffinityPolicy()).isEqualTo(NodeInclusionPolicy.HONOR);
    assertThat(zone.nodeTaintsPolicy()).isEqualTo(NodeInclusionPolicy.HONOR);
    assertThat(zone.matchLabelKeys()).containsExactly("pod-template-hash");
    TopologySpreadConstraint host = read.get(1);
    assertThat(host.labelSelector()).as("absent selector stays absent: it selects no pod").isEmpty();
    assertThat(host.minDomains()).isEmpty();
    assertThat(host.nodeTaintsPolicy()).isEqualTo(NodeInclusionPolicy.IGNORE);
  }

  @Test
  void unsupportedEnumValuesAreNamedWithTheSupportedOnes() {
    assertThat(errors("""
          - maxSkew: 1
            topologyKey: zone
            whenUnsatisfiable: Sometimes
            nodeAffinityPolicy: honor
        """)).containsExactly(
        "p.yaml:9:24: spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: \"Sometimes\": "
            + "supported values: \"DoNotSchedule\", \"ScheduleAnyway\"",
        "p.yaml:10:25: spec.topologySpreadConstraints[0].nodeAffinityPolicy: Unsupported value: \"honor\": "
            + "supported values: \"Honor\", \"Ignore\"");
  }

  @Test
  void theApiServersChecksWithItsWordsAndFieldPaths() {
    assertThat(errors("""
          - maxSkew: 0
            topologyKey: zone
            whenUnsatisfiable: ScheduleAnyway
            minDomains: 2
          - maxSkew: 1
            topologyKey: zone
            whenUnsatisfiable: ScheduleAnyway
            labelSelector: {matchLabels: {app: web}}
            matchLabelKeys: [app, "bad key"]
          - maxSkew: 1
            topologyKey: ""
            whenUnsatisfiable: DoNotSchedule
        """)).containsExactly(
        "p.yaml:7:5: spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "
            + "\"{zone, ScheduleAnyway}\"",
        "p.yaml:7:14: spec.topologySpreadConstraints[0].maxSkew: Invalid value: \"0\": must be greater than zero",
        "p.yaml:10:17: spec.topologySpreadConstraints[0].minDomains: Invalid value: \"2\": can only use minDomains if "
            + "whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway",
        "p.yaml:15:22: spec.topologySpreadConstraints[1].matchLabelKeys[0]: Invalid value: \"app\": exists in both "
            + "matchLabelKeys and labelSelector",
        "p.yaml:15:27: spec.topologySpreadConstraints[1].matchLabelKeys[1]: Invalid value: \"bad key\": name part must "
            + "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character "
            + "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
            + "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        "p.yaml:17:18: spec.topologySpreadConstraints[2].topologyKey: Required value: can not be empty");
  }

  @Test
  void selectorLabelsAreCheckedForSyntax() {
    assertThat(errors("""
          - maxSkew: 1
            topologyKey: zone
            whenUnsatisfiable: DoNotSchedule
            labelSelector: {matchLabels: {app: "web app"}}
        """)).singleElement().asString().startsWith(
        "p.yaml:10:21: spec.topologySpreadConstraints[0].labelSelector.matchLabels: Invalid value: \"web app\": "
            + "a valid label must be an empty string or consist of alphanumeric characters");
  }
}
