package io.gpufleet.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What each command says about one folder of the real-world suite, read back from its output: the
 * parsers of schedule's JSON, smi's and node describe's tables, simulate's last tables and events,
 * and lint's JSON. A command that did not exit as it should keeps its exit code and first error line.
 */
record RealWorldViews(Schedule schedule, Smi smi, Describe describe, Simulate simulate, Lint lint) {

  /** How a command ended: {@code ok} when it exited as a successful run does. */
  record Run(String command, boolean ok, int exitCode, String out, String err) {
    String failure() {
      String first = err.lines().filter(l -> l.contains("error")).findFirst()
          .orElse(err.lines().findFirst().orElse(""));
      return "exit " + exitCode + (first.isEmpty() ? "" : ": " + first.strip());
    }
  }

  /** One pod as schedule -o json prints it. */
  record PodState(String phase, Optional<String> node, String reason, String message, Optional<String> nominated) {

    /**
     * Where the pod runs once this scheduling pass settles: its node, unless it is a victim being
     * preempted; a preemptor's nominated node, where it binds once its victims are gone.
     */
    Optional<String> settled() {
      return phase.equals("Terminating") ? Optional.empty() : node.or(() -> nominated);
    }
  }

  record Schedule(Run run, Map<String, PodState> pods) {}

  /** smi: the pod holding each device row, the cards in each node's header, the pods without a GPU. */
  record Smi(Run run, Map<String, String> placements, Map<String, Integer> cards, Map<String, String> withoutGpu) {}

  /** node describe: per node its labels, its Allocatable and the physical GPUs it names. */
  record NodeView(Map<String, String> labels, Map<String, String> allocatable, Optional<Integer> gpus) {}

  record Describe(Run run, Map<String, NodeView> nodes) {}

  /** One row of simulate's last kubectl get nodes. */
  record SimNode(String instanceType, String nodePool, Map<String, String> gpuAllocatable) {}

  /** One row of simulate's last kubectl get pods: status and node ({@code <none>} when unbound). */
  record SimPod(String status, String node) {}

  record Simulate(Run run, Map<String, SimNode> nodes, Map<String, SimPod> pods, String events) {}

  record Finding(String rule, String message) {}

  record Lint(Run run, List<Finding> findings) {}

  private static final JsonMapper JSON = JsonMapper.builder().build();

  static RealWorldViews of(Path dir, Path out) {
    String f = dir.toString();
    return new RealWorldViews(schedule(CliRun.wide("schedule", "-f", f, "-o", "json")), smi(CliRun.wide("smi", "-f", f)),
        describe(CliRun.wide("node", "describe", "-f", f)),
        simulate(CliRun.wide("simulate", "-f", f, "--for", "10m", "--out", out.toString())),
        lint(CliRun.wide("lint", "-f", f, "-o", "json")));
  }

  private static Run run(String command, CliRun r, boolean ok) {
    return new Run(command, ok, r.exitCode(), r.out(), r.err());
  }

  static Schedule schedule(CliRun r) {
    Run run = run("schedule", r, r.exitCode() == 0);
    Map<String, PodState> pods = new TreeMap<>();
    if (run.ok()) {
      for (JsonNode p : JSON.readTree(r.out()).get("pods")) {
        JsonNode node = p.get("node");
        pods.put(p.get("namespace").asString() + "/" + p.get("name").asString(), new PodState(p.get("phase").asString(),
            node == null || node.isNull() ? Optional.empty() : Optional.of(node.asString()), text(p, "reason"),
            text(p, "message"), Optional.ofNullable(p.get("nominatedNode")).filter(n -> !n.isNull())
                .map(JsonNode::asString)));
      }
    }
    return new Schedule(run, pods);
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? "" : v.asString();
  }

  private static final Pattern SMI_NODE = Pattern.compile("^\\s*\\| Node (\\S+)\\s+(\\d+) x ");
  private static final Pattern SMI_PROCESS = Pattern.compile("\\|\\s+\\d+\\s+\\S+\\s+(?:GPU|MIG)-\\S+\\s+(\\S+/\\S+)\\s");
  private static final Pattern SMI_WITHOUT = Pattern.compile("^\\s*(\\S+/\\S+)\\s+(Pending|Failed)\\s*(.*)$");

  /** smi's text; simulate prints the same view indented, so the patterns allow leading space. */
  static Smi smi(CliRun r) {
    Run run = run("smi", r, r.exitCode() == 0);
    return parseSmi(run, r.out());
  }

  private static Smi parseSmi(Run run, String text) {
    Map<String, String> placements = new TreeMap<>();
    Map<String, Integer> cards = new TreeMap<>();
    Map<String, String> without = new TreeMap<>();
    String node = null;
    boolean inWithout = false;
    for (String line : text.lines().toList()) {
      Matcher n = SMI_NODE.matcher(line);
      if (n.find()) {
        node = n.group(1);
        cards.put(node, Integer.parseInt(n.group(2)));
        continue;
      }
      Matcher p = SMI_PROCESS.matcher(line);
      if (p.find() && node != null) {
        placements.put(p.group(1), node);
        continue;
      }
      if (line.strip().equals("Pods without a GPU:")) {
        inWithout = true;
        continue;
      }
      Matcher w = SMI_WITHOUT.matcher(line);
      if (inWithout && w.find()) {
        without.put(w.group(1), w.group(3).strip());
      }
    }
    return new Smi(run, placements, cards, without);
  }

  private static final Pattern GPUS = Pattern.compile("^GPUs:\\s+(\\d+) x ");
  private static final Pattern QUANTITY = Pattern.compile("^\\s+(\\S+):\\s+(\\S+)\\s*$");

  static Describe describe(CliRun r) {
    Run run = run("node describe", r, r.exitCode() == 0);
    Map<String, NodeView> nodes = new LinkedHashMap<>();
    String name = null;
    Map<String, String> labels = new TreeMap<>();
    Map<String, String> alloc = new TreeMap<>();
    Optional<Integer> gpus = Optional.empty();
    String section = "";
    for (String line : (r.out() + "\nName: <end>\n").lines().toList()) {
      if (line.startsWith("Name:")) {
        if (name != null) {
          nodes.put(name, new NodeView(labels, alloc, gpus));
        }
        name = line.substring("Name:".length()).strip();
        labels = new TreeMap<>();
        alloc = new TreeMap<>();
        gpus = Optional.empty();
        section = "";
        continue;
      }
      if (!line.isEmpty() && !Character.isWhitespace(line.charAt(0))) {
        section = line.substring(0, line.indexOf(':') < 0 ? line.length() : line.indexOf(':'));
        Matcher g = GPUS.matcher(line);
        if (g.find()) {
          gpus = Optional.of(Integer.parseInt(g.group(1)));
        }
        if (section.equals("Labels")) {
          label(line.substring("Labels:".length()), labels);
        }
        continue;
      }
      if (section.equals("Labels")) {
        label(line, labels);
      } else if (section.equals("Allocatable")) {
        Matcher q = QUANTITY.matcher(line);
        if (q.find()) {
          alloc.put(q.group(1), q.group(2));
        }
      }
    }
    return new Describe(run, nodes);
  }

  private static void label(String text, Map<String, String> labels) {
    String t = text.strip();
    int eq = t.indexOf('=');
    if (eq > 0) {
      labels.put(t.substring(0, eq), t.substring(eq + 1));
    }
  }

  /** The text after the last occurrence of {@code marker}, up to the next blank line. */
  private static List<String> lastTable(String text, String marker) {
    int at = text.lastIndexOf(marker);
    if (at < 0) {
      return List.of();
    }
    List<String> rows = new ArrayList<>();
    for (String line : text.substring(at).lines().skip(2).toList()) {
      if (line.isBlank()) {
        break;
      }
      rows.add(line.strip());
    }
    return rows;
  }

  static Simulate simulate(CliRun r) {
    Run run = run("simulate -f", r, r.exitCode() == 0);
    Map<String, SimNode> nodes = new TreeMap<>();
    for (String row : lastTable(r.out(), "$ kubectl get nodes")) {
      String[] c = row.split("\\s+");
      Map<String, String> alloc = new TreeMap<>();
      // Columns: NAME STATUS INSTANCE-TYPE CAPACITY-TYPE NODEPOOL GPU-CAPACITY GPU-ALLOCATABLE GPU-ALLOCATED AGE.
      if (c.length > 6) {
        for (String q : c[6].split(",")) {
          int eq = q.indexOf('=');
          if (eq > 0) {
            alloc.put(q.substring(0, eq), q.substring(eq + 1));
          }
        }
      }
      nodes.put(c[0], new SimNode(c.length > 2 ? c[2] : "", c.length > 4 ? c[4] : "", alloc));
    }
    Map<String, SimPod> pods = new TreeMap<>();
    for (String row : lastTable(r.out(), "$ kubectl get pods -A -o wide")) {
      String[] c = row.split("\\s+");
      if (c.length > 4) {
        pods.put(c[0] + "/" + c[1], new SimPod(c[3], c[4]));
      }
    }
    int summary = r.out().lastIndexOf("$ kubectl get nodes");
    return new Simulate(run, nodes, pods, summary < 0 ? r.out() : r.out().substring(0, summary));
  }

  static Lint lint(CliRun r) {
    // lint exits 1 when a finding reaches --fail-on: still a reading of the input.
    Run run = run("lint", r, r.exitCode() == 0 || r.exitCode() == 1);
    List<Finding> findings = new ArrayList<>();
    if (run.ok()) {
      for (JsonNode f : JSON.readTree(r.out()).get("findings")) {
        findings.add(new Finding(f.get("rule").asString(), text(f, "message")));
      }
    }
    return new Lint(run, findings);
  }

  /** The smi view simulate prints last, for the cards each pod holds there. */
  Smi simulateSmi() {
    String out = simulate.run().out();
    int at = out.lastIndexOf("$ nvidia-smi");
    return parseSmi(simulate.run(), at < 0 ? "" : out.substring(at));
  }
}
