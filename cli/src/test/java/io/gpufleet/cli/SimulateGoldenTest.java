package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.karpenter.NodeClaim;
import io.gpufleet.report.timeline.FleetCounts;
import io.gpufleet.report.timeline.Frame;
import io.gpufleet.report.timeline.LifecycleLane;
import io.gpufleet.report.timeline.NodeLifecycle;
import io.gpufleet.scenario.ScenarioReader;
import io.gpufleet.scenario.ScenarioSources;
import io.gpufleet.sim.state.ClusterState;
import io.gpufleet.sim.state.NodeState;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the simulator decides, held still while its state is made incremental: every scenario
 * example's {@code simulate --explain} output and the bytes of each file it writes, and a day of
 * {@code scripts/gen-week} (about 80 nodes, hourly rescaling, thousands of events), against a
 * reviewed copy. A deliberate change of behaviour rewrites it with {@code -Dgolden.update=true}; the
 * diff then shows which runs changed.
 */
class SimulateGoldenTest {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  @Test
  void everyScenarioExampleAndAGeneratedDayDecideAsBefore(@TempDir Path dir) throws Exception {
    StringBuilder golden = new StringBuilder();
    List<Path> examples;
    try (Stream<Path> files = Files.list(ROOT.resolve("examples/scenarios"))) {
      examples = files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
    }
    for (Path example : examples) {
      if (!Files.readString(example).contains("kind: Scenario")) {
        continue; // a cluster's manifests, for simulate -f
      }
      String name = example.getFileName().toString();
      Path out = dir.resolve(name);
      CliRun run = CliRun.wide("simulate", example.toString(), "--explain", "--out", out.toString());
      golden.append("== ").append(name).append(": exit ").append(run.exitCode()).append('\n');
      golden.append(run.out().replace(out.toString(), "OUT")).append(run.err());
      digests(golden, out);
    }
    Path day = dir.resolve("gen-week-4-1.yaml");
    Process gen = new ProcessBuilder("bash", ROOT.resolve("scripts/gen-week").toString(), "4", "1")
        .redirectOutput(day.toFile()).start();
    assertThat(gen.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(gen.exitValue()).isZero();
    Path out = dir.resolve("gen-week");
    CliRun run = CliRun.wide("simulate", day.toString(), "--out", out.toString());
    golden.append("== scripts/gen-week 4 1: exit ").append(run.exitCode()).append('\n');
    golden.append("stdout sha256 ").append(sha256(run.out().replace(out.toString(), "OUT")
        .getBytes(StandardCharsets.UTF_8))).append('\n');
    digests(golden, out);
    io.gpufleet.report.Golden.check("simulate.txt", golden.toString());
  }

  /** Each file a run wrote, by name, with the SHA-256 of its bytes. */
  private static void digests(StringBuilder golden, Path out) throws IOException {
    List<Path> files;
    try (Stream<Path> s = Files.list(out)) {
      files = s.sorted().toList();
    }
    for (Path f : files) {
      golden.append(f.getFileName()).append(" sha256 ").append(sha256(Files.readAllBytes(f))).append('\n');
    }
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The report reads each frame as its change from the one before; reading every node and NodeClaim
   * of every frame, as it did, gives the same lanes and advertised GPUs on runs with launches,
   * interruptions, expiry and consolidation.
   */
  @Test
  void lanesAndAdvertisedGpusReadAsChangesEqualAFullReadOfEveryFrame() throws IOException {
    for (String example : List.of("inference-spot.yaml", "node-expiry.yaml", "consolidation-underutilized.yaml",
        "mig-multi-tenant.yaml")) {
      Path file = ROOT.resolve("examples/scenarios").resolve(example);
      ScenarioRun run = ScenarioRun.run(ScenarioReader.read(example, Files.readString(file),
          ScenarioSources.directory(file.getParent())), Optional.empty(), false, new PrintWriter(Writer.nullWriter()));
      List<Frame> frames = run.frames();
      assertThat(frames).as(example).hasSizeGreaterThan(10);
      Instant start = run.result().start();
      Instant end = run.result().end();
      assertThat(LifecycleLane.of(frames, start, end)).as(example).isEqualTo(fullRead(frames, start, end))
          .isNotEmpty();
      long[] advertised = FleetCounts.gpusAdvertised(frames);
      for (int i = 0; i < frames.size(); i++) {
        assertThat(advertised[i]).as(example + " frame " + i).isEqualTo(FleetCounts.of(frames.get(i).state())
            .gpusAdvertised());
      }
    }
  }

  /** The lanes from every node and NodeClaim of every frame: the oracle for the incremental read. */
  private static List<LifecycleLane> fullRead(List<Frame> frames, Instant start, Instant end) {
    record Lane(String key, List<LifecycleLane.Span> spans, String[] node, NodeLifecycle[] open, long[] at,
        Long[] deleted) {}
    Map<String, Lane> lanes = new LinkedHashMap<>();
    Map<String, NodeLifecycle> current = new TreeMap<>();
    for (Frame f : frames) {
      ClusterState s = f.state();
      Map<String, NodeLifecycle> now = new TreeMap<>();
      Map<String, String> names = new TreeMap<>();
      for (NodeState n : s.nodes().values()) {
        now.put(n.claim().orElse(n.name()), NodeLifecycle.of(s, n));
        names.put(n.claim().orElse(n.name()), n.name());
      }
      for (NodeClaim c : s.claims().values()) {
        if (!now.containsKey(c.name())) {
          now.put(c.name(), NodeLifecycle.of(c));
          names.put(c.name(), c.nodeName().orElse(c.name()));
        }
      }
      long t = java.time.Duration.between(start, f.time()).getSeconds();
      for (var e : now.entrySet()) {
        Lane lane = lanes.computeIfAbsent(e.getKey(), k -> new Lane(k, new ArrayList<>(), new String[1],
            new NodeLifecycle[1], new long[1], new Long[1]));
        lane.node()[0] = names.get(e.getKey());
        if (e.getValue() != current.get(e.getKey())) {
          close(lane.spans(), lane.open(), lane.at(), t);
          lane.open()[0] = e.getValue();
          lane.at()[0] = t;
        }
      }
      for (String gone : current.keySet()) {
        if (!now.containsKey(gone)) {
          close(lanes.get(gone).spans(), lanes.get(gone).open(), lanes.get(gone).at(), t);
          lanes.get(gone).deleted()[0] = t;
        }
      }
      current = now;
    }
    List<LifecycleLane> out = new ArrayList<>();
    for (Lane l : lanes.values()) {
      close(l.spans(), l.open(), l.at(), java.time.Duration.between(start, end).getSeconds());
      out.add(new LifecycleLane(l.key(), l.node()[0], l.spans(), Optional.ofNullable(l.deleted()[0])));
    }
    return out;
  }

  private static void close(List<LifecycleLane.Span> spans, NodeLifecycle[] open, long[] at, long t) {
    if (open[0] != null) {
      spans.add(new LifecycleLane.Span(open[0], at[0], t));
      open[0] = null;
    }
  }
}
