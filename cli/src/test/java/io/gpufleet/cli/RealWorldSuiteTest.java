package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.manifest.yaml.YNode;
import io.gpufleet.manifest.yaml.YamlReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real-world suite (examples/real-world, docs/real-world.md): artefacts users posted in public
 * issues and docs, each with the result its thread or page states. Every case is run through
 * schedule, smi, node describe, simulate -f and lint; each expectation is checked in every command
 * that shows it, and the commands must agree with each other on where each pod runs and what each
 * node advertises. The expected results come from the sources, never from gpufleet's output.
 *
 * <p>A case marked {@code knownFailure} must still fail: when it starts passing the test fails and
 * asks for the mark to go, so the suite's count only moves with the code.
 */
class RealWorldSuiteTest {

  private static Path suite() {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("examples/real-world/cases.yaml"))) {
        return p.resolve("examples/real-world");
      }
    }
    throw new IllegalStateException("examples/real-world/cases.yaml not found");
  }

  /** One case of cases.yaml; {@code expect} holds one-key maps, as written. */
  record Case(String id, String source, String says, List<Map<String, Object>> expect, Optional<String> knownFailure) {}

  /** One line of the pass table. */
  record Check(String command, boolean pass, String why) {}

  static List<Case> cases() throws IOException {
    Path file = suite().resolve("cases.yaml");
    YNode root = new YamlReader().readAll(file.toString(), Files.readString(file)).getFirst();
    List<Case> out = new ArrayList<>();
    @SuppressWarnings("unchecked")
    List<Object> items = (List<Object>) ((Map<String, Object>) plain(root)).get("cases");
    for (Object o : items) {
      @SuppressWarnings("unchecked")
      Map<String, Object> m = (Map<String, Object>) o;
      @SuppressWarnings("unchecked")
      List<Map<String, Object>> expect = (List<Map<String, Object>>) m.get("expect");
      out.add(new Case((String) m.get("id"), (String) m.get("source"), (String) m.get("says"), expect,
          Optional.ofNullable((String) m.get("knownFailure"))));
    }
    return out;
  }

  /** A YAML tree as maps, lists and strings. */
  private static Object plain(YNode n) {
    return switch (n) {
      case YNode.YMap m -> {
        Map<String, Object> out = new LinkedHashMap<>();
        m.entries().forEach((k, e) -> out.put(k, plain(e.value())));
        yield out;
      }
      case YNode.YList l -> l.items().stream().map(RealWorldSuiteTest::plain).toList();
      case YNode.YScalar s -> s.text();
      case YNode.YNull x -> null;
    };
  }

  @Test
  void everyFolderIsACaseAndEveryCaseSaysWhereItComesFrom() throws IOException {
    List<Case> cases = cases();
    assertThat(cases).hasSizeGreaterThanOrEqualTo(30);
    TreeSet<String> folders = new TreeSet<>();
    try (Stream<Path> s = Files.list(suite())) {
      s.filter(Files::isDirectory).forEach(p -> folders.add(p.getFileName().toString()));
    }
    assertThat(cases.stream().map(Case::id).toList()).doesNotHaveDuplicates().containsExactlyElementsOf(folders);
    // docs/real-world.md's table names every case with its status, and the totals the test prints.
    String doc = Files.readString(suite().getParent().getParent().resolve("docs/real-world.md"));
    for (Case c : cases) {
      assertThat(doc).as(c.id()).containsPattern("\\| \\[" + c.id() + "\\]\\(.*\\| "
          + (c.knownFailure().isPresent() ? "known failure" : "pass") + " \\|\\n");
    }
    long known = cases.stream().filter(c -> c.knownFailure().isPresent()).count();
    assertThat(doc).contains("real-world: " + (cases.size() - known) + " passed, " + known + " failed");
    // docs/conformance.md's overview row says the same counts.
    String row = Files.readAllLines(suite().getParent().getParent().resolve("docs/conformance.md")).stream()
        .filter(l -> l.startsWith("| real-world inputs")).findFirst().orElseThrow();
    assertThat(row).endsWith("| " + cases.size() + " | " + (cases.size() - known) + " |");
    // The README's "How it is checked" table quotes the same totals line.
    assertThat(Files.readString(suite().getParent().getParent().resolve("README.md"))).as("README.md")
        .contains("`real-world: " + (cases.size() - known) + " passed, " + known + " failed`");
    assertThat(cases).allSatisfy(c -> {
      assertThat(c.source()).as(c.id()).isNotBlank();
      assertThat(c.says()).as(c.id()).isNotBlank();
      assertThat(c.expect()).as(c.id()).isNotEmpty();
    });
  }

  /**
   * The parsers read what examples/gpu/lab-time-slicing.yaml states in its header (one A10G sliced
   * four ways, five 1-GPU pods: four share GPU 0, the fifth stays Pending) from smi, node describe
   * and simulate. Without this a broken parser would turn every case into a failure, and leave every
   * known failure failing unnoticed.
   */
  @Test
  void theParsersReadTheLabsTimeSlicingExample(@TempDir Path tmp) {
    Path lab = suite().resolveSibling("gpu").resolve("lab-time-slicing.yaml");
    RealWorldViews v = RealWorldViews.of(lab, tmp);
    assertThat(v.smi().cards()).containsEntry("gpu-a10g-1", 1);
    assertThat(v.smi().placements()).hasSize(4).containsValue("gpu-a10g-1");
    assertThat(v.smi().withoutGpu()).hasSize(1);
    RealWorldViews.NodeView node = v.describe().nodes().get("gpu-a10g-1");
    assertThat(node.allocatable()).containsEntry("nvidia.com/gpu", "4");
    assertThat(node.gpus()).contains(1);
    assertThat(node.labels()).containsEntry("nvidia.com/gpu.replicas", "4")
        .containsEntry("node.kubernetes.io/instance-type", "g5.2xlarge");
    assertThat(v.simulate().nodes().get("gpu-a10g-1").gpuAllocatable()).containsEntry("nvidia.com/gpu", "4");
    assertThat(v.simulate().pods().values().stream().filter(p -> p.status().equals("Running"))
        .map(RealWorldViews.SimPod::node)).containsExactly("gpu-a10g-1", "gpu-a10g-1", "gpu-a10g-1", "gpu-a10g-1");
    assertThat(v.schedule().pods()).hasSize(5);
    assertThat(v.lint().run().ok()).isTrue();
  }

  /**
   * One cluster, one answer on the project's own examples too: every manifest file of examples/gpu,
   * examples/scheduling, examples/dra and examples/snapshot (scenario files aside) places the same pods
   * on the same nodes and advertises the same devices in schedule, smi, node describe and simulate -f.
   */
  @Test
  void everyExampleGivesOneAnswerInEveryCommand(@TempDir Path tmp) throws IOException {
    Path examples = suite().getParent();
    List<String> disagreements = new ArrayList<>();
    int files = 0;
    for (String folder : List.of("gpu", "scheduling", "dra", "snapshot")) {
      List<Path> yamls;
      try (Stream<Path> s = Files.list(examples.resolve(folder))) {
        yamls = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
      }
      for (Path f : yamls) {
        if (Files.readString(f).contains("kind: Scenario")) {
          continue;
        }
        files++;
        RealWorldViews v = RealWorldViews.of(f, tmp.resolve(folder + "-" + f.getFileName()));
        for (Check c : RealWorldExpectations.agreement(v)) {
          if (!c.pass()) {
            disagreements.add(folder + "/" + f.getFileName() + ": " + c.why());
          }
        }
      }
    }
    assertThat(files).isGreaterThanOrEqualTo(15);
    assertThat(disagreements).isEmpty();
  }

  @Test
  void everyCaseGivesWhatItsSourceSaysInEveryCommandAndTheCommandsAgree(@TempDir Path tmp) throws IOException {
    List<String> table = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    int passed = 0;
    int failed = 0;
    for (Case c : cases()) {
      RealWorldViews v = RealWorldViews.of(suite().resolve(c.id()), tmp.resolve(c.id()));
      List<Check> checks = new ArrayList<>();
      checks.addAll(readable(c, v));
      for (Map<String, Object> e : c.expect()) {
        checks.addAll(RealWorldExpectations.check(e, v));
      }
      checks.addAll(RealWorldExpectations.agreement(v));
      boolean pass = checks.stream().allMatch(Check::pass);
      for (Check k : checks) {
        table.add(String.format("%-44s %-14s %-4s %s", c.id(), k.command(), k.pass() ? "pass" : "FAIL", k.why()));
      }
      if (pass) {
        passed++;
      } else {
        failed++;
      }
      if (pass && c.knownFailure().isPresent()) {
        problems.add(c.id() + ": now passes, remove knownFailure");
      } else if (!pass && c.knownFailure().isEmpty()) {
        problems.add(c.id() + ": fails: " + checks.stream().filter(k -> !k.pass())
            .map(k -> k.command() + " " + k.why()).toList());
      }
    }
    System.out.println(String.join("\n", table));
    System.out.println("real-world: " + passed + " passed, " + failed + " failed");
    assertThat(problems).as("cases whose result differs from their knownFailure mark").isEmpty();
  }

  /**
   * Each command must read the folder. Karpenter objects of older APIs are read by none of them
   * (gpufleet reads karpenter.sh/v1): there a command may refuse, but only in words that name v1.
   */
  private static List<Check> readable(Case c, RealWorldViews v) {
    boolean olderKarpenter = c.expect().stream().anyMatch(e -> e.containsKey("accepted"));
    List<Check> out = new ArrayList<>();
    for (RealWorldViews.Run r : List.of(v.schedule().run(), v.smi().run(), v.describe().run(), v.simulate().run(),
        v.lint().run())) {
      if (r.ok()) {
        continue;
      }
      if (r.command().equals("node describe") && r.err().contains("no Node in the input")) {
        // Nothing to describe: the case's nodes are the ones Karpenter launches.
        continue;
      }
      boolean honest = olderKarpenter && r.err().contains("karpenter.sh/v1");
      out.add(new Check(r.command(), honest, honest ? "refuses, naming karpenter.sh/v1" : "reads the input: " + r.failure()));
    }
    return out;
  }

  /** Counts of pods per group and node, for comparing commands whose generated pod names differ. */
  static Map<String, Map<String, Integer>> byGroup(Map<String, String> placements, java.util.Set<String> exact) {
    Map<String, Map<String, Integer>> out = new TreeMap<>();
    placements.forEach((pod, node) -> out.computeIfAbsent(exact.contains(pod) ? pod : group(pod), k -> new TreeMap<>())
        .merge(node, 1, Integer::sum));
    return out;
  }

  /** A generated pod name without its random suffix: web-7d9f8c6b5-x2k4p becomes web-7d9f8c6b5. */
  static String group(String pod) {
    int dash = pod.lastIndexOf('-');
    return dash < 0 ? pod : pod.substring(0, dash);
  }
}
