package io.gpufleet.sim.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No simulator code joins text with {@code "/"} to make a key: workloads are found by
 * {@link io.gpufleet.model.meta.ObjectRef}, namespaced objects by
 * {@link io.gpufleet.model.meta.ObjectMeta#key(String, String)}. The few joins that remain make
 * user-facing text or an external identifier and are listed here with the reason.
 */
class NoJoinedKeysTest {

  /** A string literal ending in {@code /} followed by {@code +}, or {@code + "/"}. */
  private static final Pattern JOIN = Pattern.compile("\"[^\"]*/\"\\s*\\+|\\+\\s*\"/\"");

  /** File name → the line fragments allowed there; each makes text or a name, never a lookup key. */
  private static final Map<String, List<String>> ALLOWED = Map.of(
      // the EC2 providerID format (aws:///zone/instance-id)
      "CloudProvider.java", List.of("\"aws:///\" + c.offering().zone() + \"/\" + name"),
      // run record subjects, user text
      "ScenarioRunner.java", List.of("api.log(RunRecord.Kind.SCENARIO, kind + \"/\" + name, \"deleted\")",
          "api.log(RunRecord.Kind.SCENARIO, kind + \"/\" + d.object().name(), d.object().kind() + \" applied\")",
          "api.log(RunRecord.Kind.SCENARIO, \"nodepool/\" + p.name(), \"NodePool applied\")",
          "api.log(RunRecord.Kind.SCENARIO, \"nodeoverlay/\" + ov.overlay().name(), \"NodeOverlay applied\")",
          "api.log(RunRecord.Kind.SCENARIO, \"ec2nodeclass/\" + nc.nodeClass().name(), \"EC2NodeClass applied\")"),
      // run record subjects naming a NodeOverlay, as Karpenter's events name it
      "KarpenterLoop.java", List.of("api.log(RunRecord.Kind.KARPENTER_EVENT, \"nodeoverlay/\" + o.name(),",
          "api.log(RunRecord.Kind.KARPENTER_EVENT, \"nodeoverlay/\" + c,"),
      // the subject an event names for tracing, not looked up
      "ApiServer.java", List.of("new ClusterEvent.PolicyChanged(\"nodepool/\" + name)"),
      // the label a per-NodeClaim random stream is derived from
      "RandomStreams.java", List.of("stream(seed, \"interruptions/\" + claim)"));

  @Test
  void simulatorSourcesBuildNoSlashJoinedKeys() throws IOException {
    Path src = Path.of("src", "main", "java");
    List<String> found = new ArrayList<>();
    try (Stream<Path> files = Files.walk(src)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
        List<String> lines = Files.readAllLines(f);
        for (int i = 0; i < lines.size(); i++) {
          String line = lines.get(i);
          List<String> allowed = ALLOWED.getOrDefault(f.getFileName().toString(), List.of());
          if (JOIN.matcher(line).find() && allowed.stream().noneMatch(line::contains)) {
            found.add(src.relativize(f) + ":" + (i + 1) + ": " + line.strip());
          }
        }
      }
    }
    assertThat(found).as("slash-joined keys in sim sources").isEmpty();
  }

  @Test
  void thePatternCatchesTheJoinsItForbids() {
    assertThat(JOIN.matcher("w.kind() + \"/\" + w.meta().namespace()").find()).isTrue();
    assertThat(JOIN.matcher("String key = \"default/\" + r.pod();").find()).isTrue();
    assertThat(JOIN.matcher("api.removePdb(ObjectMeta.key(ns, n));").find()).isFalse();
    assertThat(JOIN.matcher("String[] parts = ref.split(\"/\");").find()).isFalse();
    assertThat(JOIN.matcher("price + \"/h\"").find()).isFalse();
  }
}
