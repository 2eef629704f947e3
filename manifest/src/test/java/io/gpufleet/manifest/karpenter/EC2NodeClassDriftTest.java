package io.gpufleet.manifest.karpenter;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.model.karpenter.EC2NodeClass;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * The static hash and AMI an EC2NodeClass is read with, for drift. Translates the AWS provider's
 * {@code pkg/cloudprovider/suite_test.go}, Context "Static Drift Detection": the DescribeTable
 * "should return drifted if a statically drifted EC2NodeClass.Spec field is updated" (entries as
 * named there) and "should not return drifted if dynamic fields are updated" (subnets, security
 * groups, AMI selection change the AMI, not the hash).
 */
class EC2NodeClassDriftTest {

  /** Upstream's BeforeEach node class, in YAML. */
  static final String BASE = """
      subnetSelectorTerms: [{tags: {karpenter.sh/discovery: c}}]
      securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: c}}]
      role: KarpenterNodeRole
      userData: Fake Userdata
      tags: {fakeKey: fakeValue}
      context: fake-context
      detailedMonitoring: false
      amiSelectorTerms: [{alias: al2023@latest}]
      associatePublicIPAddress: false
      metadataOptions: {httpEndpoint: disabled, httpProtocolIPv6: disabled, httpPutResponseHopLimit: 1, \
      httpTokens: optional}
      blockDeviceMappings: [{deviceName: fakeName, rootVolume: false, ebs: {deleteOnTermination: false, \
      encrypted: false, volumeSize: 2G, volumeType: standard}}]
      """;

  static EC2NodeClass read(String spec) {
    Diagnostics d = new Diagnostics();
    String text = "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata: {name: gpu}\nspec:\n"
        + spec.indent(2);
    KarpenterManifests m = KarpenterManifests.read("c.yaml", text, d);
    assertThat(d.errors()).as(text).isEmpty();
    return m.ec2NodeClasses().getFirst();
  }

  /** The base with one top-level field (one line each) replaced, or added. */
  static String with(String key, String value) {
    String line = key + ": " + value;
    List<String> lines = BASE.lines().map(l -> l.startsWith(key + ":") ? line : l).toList();
    return String.join("\n", lines.contains(line) ? lines : java.util.stream.Stream.concat(lines.stream(),
        java.util.stream.Stream.of(line)).toList()) + "\n";
  }

  static List<String[]> staticFields() {
    return List.of(
        new String[] {"UserData", "userData", "userdata-test-2"},
        new String[] {"Tags", "tags", "{keyTag-test-3: valueTag-test-3}"},
        new String[] {"Context", "context", "context-2"},
        new String[] {"DetailedMonitoring", "detailedMonitoring", "true"},
        new String[] {"InstanceStorePolicy", "instanceStorePolicy", "RAID0"},
        new String[] {"AssociatePublicIPAddress", "associatePublicIPAddress", "true"},
        new String[] {"MetadataOptions HTTPEndpoint", "metadataOptions", "{httpEndpoint: enabled, httpProtocolIPv6: "
            + "disabled, httpPutResponseHopLimit: 1, httpTokens: optional}"},
        new String[] {"MetadataOptions HTTPTokens", "metadataOptions", "{httpEndpoint: disabled, httpProtocolIPv6: "
            + "disabled, httpPutResponseHopLimit: 1, httpTokens: required}"},
        new String[] {"BlockDeviceMapping VolumeType", "blockDeviceMappings", "[{deviceName: fakeName, rootVolume: false, "
            + "ebs: {deleteOnTermination: false, encrypted: false, volumeSize: 2G, volumeType: gp3}}]"},
        new String[] {"BlockDeviceMapping Encrypted", "blockDeviceMappings", "[{deviceName: fakeName, rootVolume: false, "
            + "ebs: {deleteOnTermination: false, encrypted: true, volumeSize: 2G, volumeType: standard}}]"});
  }

  @ParameterizedTest(name = "should return drifted if a statically drifted EC2NodeClass.Spec field is updated {0}")
  @MethodSource("staticFields")
  void aStaticFieldChangesTheHash(String entry, String key, String value) {
    EC2NodeClass before = read(BASE);
    EC2NodeClass after = read(with(key, value));
    assertThat(before.hash()).isNotEmpty();
    assertThat(after.hash()).as(entry).isNotEqualTo(before.hash());
    assertThat(after.imageId()).isEqualTo(before.imageId());
  }

  @Test
  void dynamicFieldsLeaveTheHash() {
    // "should not return drifted if dynamic fields are updated": they drift through their own checks.
    EC2NodeClass before = read(BASE);
    assertThat(read(with("subnetSelectorTerms", "[{id: subnet-123}]")).hash()).isEqualTo(before.hash());
    assertThat(read(with("securityGroupSelectorTerms", "[{id: sg-123}]")).hash()).isEqualTo(before.hash());
    assertThat(read(with("amiSelectorTerms", "[{alias: al2023@v20240807}]")).hash()).isEqualTo(before.hash());
    // Layout and key order do not count.
    assertThat(read(with("metadataOptions", "{httpTokens: optional, httpPutResponseHopLimit: 1, httpProtocolIPv6: "
        + "disabled, httpEndpoint: disabled}")).hash()).isEqualTo(before.hash());
  }

  @Test
  void theAliasVersionPicksTheAmi() {
    EC2NodeClass latest = read(BASE);
    EC2NodeClass pinned = read(with("amiSelectorTerms", "[{alias: al2023@v20240807}]"));
    EC2NodeClass later = read(with("amiSelectorTerms", "[{alias: al2023@v20241011}]"));
    assertThat(latest.imageId()).isEqualTo(EC2NodeClass.imageIdOf("al2023@latest")).matches("ami-[0-9a-f]{17}");
    assertThat(pinned.imageId()).isNotEqualTo(latest.imageId()).isNotEqualTo(later.imageId());
    assertThat(read(with("amiSelectorTerms", "[{alias: al2023@v20240807}]")).imageId()).isEqualTo(pinned.imageId());
    // Writing out the family the alias implies is no change ("AMIFamily should be hashed using the
    // dynamically resolved value", A:pkg/apis/v1/ec2nodeclass.go Hash).
    assertThat(read(BASE + "amiFamily: AL2023\n").hash()).isEqualTo(latest.hash());
  }
}
