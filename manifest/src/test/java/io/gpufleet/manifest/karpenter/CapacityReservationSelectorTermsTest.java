package io.gpufleet.manifest.karpenter;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.model.cloud.CapacityReservation.MatchCriteria;
import io.gpufleet.model.cloud.CapacityReservationSelectorTerm;
import io.gpufleet.model.karpenter.EC2NodeClass;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * An EC2NodeClass's {@code capacityReservationSelectorTerms}, read and checked as the CRD checks them
 * ({@code A:pkg/apis/v1/ec2nodeclass_validation_cel_test.go}, Context "CapacityReservationSelectorTerms").
 */
class CapacityReservationSelectorTermsTest {

  static List<String> errors(String terms) {
    Diagnostics d = new Diagnostics();
    KarpenterManifests.read("c.yaml", nodeClass(terms), d);
    return d.errors().stream().map(ManifestProblem::toString).toList();
  }

  static String nodeClass(String terms) {
    return """
        apiVersion: karpenter.k8s.aws/v1
        kind: EC2NodeClass
        metadata: {name: gpu}
        spec:
          capacityReservationSelectorTerms: %s
        """.formatted(terms);
  }

  @Test
  void validTermsOnTagsIdOwnerAndMatchCriteriaAreRead() {
    Diagnostics d = new Diagnostics();
    EC2NodeClass c = KarpenterManifests.read("c.yaml", nodeClass("[{tags: {team: ml, env: '*'}, ownerID: "
        + "'012345678901', instanceMatchCriteria: targeted}, {id: cr-0abc123}]"), d).ec2NodeClasses().getFirst();
    assertThat(d.errors()).isEmpty();
    assertThat(c.capacityReservationSelectorTerms()).containsExactly(
        new CapacityReservationSelectorTerm(Optional.empty(), Map.of("team", "ml", "env", "*"),
            Optional.of("012345678901"), Optional.of(MatchCriteria.TARGETED)),
        CapacityReservationSelectorTerm.byId("cr-0abc123"));
    assertThat(c.capacityReservations()).isEmpty(); // the status is resolved against EC2 at run time
  }

  @Test
  void theCrdsRulesAreErrorsAtTheTermsLine() {
    // should fail with a capacity reservation selector on a malformed id; ... when a term has no values;
    // ... no tag map values; ... a tag map key / value that is empty; id with other fields; unknown criteria.
    assertThat(errors("""
        
            - {id: r-12345749}
            - {}
            - {tags: {}}
            - {tags: {"": bar}}
            - {tags: {foo: ""}}
            - {id: cr-12345749, tags: {foo: bar}}
            - {instanceMatchCriteria: closed}
            - {ownerID: "1234"}
        """)).containsExactly(
        "c.yaml:6:12: spec.capacityReservationSelectorTerms[0].id: should match '^cr-[0-9a-z]+$', found \"r-12345749\"",
        "c.yaml:7:7: spec.capacityReservationSelectorTerms[1]: expected at least one, got none, ['tags', 'id', "
            + "'instanceMatchCriteria']",
        "c.yaml:8:7: spec.capacityReservationSelectorTerms[2]: expected at least one, got none, ['tags', 'id', "
            + "'instanceMatchCriteria']",
        "c.yaml:9:14: spec.capacityReservationSelectorTerms[3].tags: empty tag keys or values aren't supported",
        "c.yaml:10:14: spec.capacityReservationSelectorTerms[4].tags: empty tag keys or values aren't supported",
        "c.yaml:11:7: spec.capacityReservationSelectorTerms[5]: 'id' is mutually exclusive, cannot be set along with "
            + "other fields in a capacity reservation selector term",
        "c.yaml:12:31: spec.capacityReservationSelectorTerms[6].instanceMatchCriteria: Unsupported value: \"closed\": "
            + "supported values: \"open\", \"targeted\"",
        "c.yaml:13:7: spec.capacityReservationSelectorTerms[7]: expected at least one, got none, ['tags', 'id', "
            + "'instanceMatchCriteria']");
  }

  @Test
  void aNodePoolRequirementOnTheReservationLabelsIsSaidToBeUnmodelled() {
    Diagnostics d = new Diagnostics();
    KarpenterManifests.read("p.yaml", """
        apiVersion: karpenter.sh/v1
        kind: NodePool
        metadata: {name: train}
        spec:
          template:
            spec:
              nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
              requirements:
              - {key: karpenter.k8s.aws/capacity-reservation-type, operator: In, values: [capacity-block]}
        """, d);
    assertThat(d.errors()).isEmpty();
    assertThat(d.warnings().stream().map(ManifestProblem::toString).filter(w -> w.contains("requirements")))
        .containsExactly("p.yaml:9:15: warning: spec.template.spec.requirements[0].key: a requirement on karpenter.k8s.aws/capacity-reservation-type is "
        + "not modelled by gpufleet: offerings are not matched against it (an EC2NodeClass's "
        + "capacityReservationSelectorTerms choose the reservations)");
  }
}
