package io.gpufleet.cli;

import io.gpufleet.lint.LintInput;
import io.gpufleet.lint.LintRule;
import io.gpufleet.lint.Linter;
import io.gpufleet.lint.Severity;
import io.gpufleet.lint.format.LintFormat;
import io.gpufleet.lint.rules.Rules;
import io.gpufleet.manifest.ManifestSource;
import io.gpufleet.manifest.kube.OldKarpenterApi;
import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.manifest.yaml.YNode;
import io.gpufleet.manifest.yaml.YamlReader;
import io.gpufleet.model.cloud.InstanceCatalog;
import io.gpufleet.scenario.ScenarioManifests;
import io.gpufleet.scenario.ScenarioSources;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code gpufleet lint -f FILE...}: the GPU platform rules over manifests; wiring only. */
@Command(name = "lint", mixinStandardHelpOptions = true,
    description = {
        "Checks manifests against the hard-won rules of GPU platforms.",
        "Each finding names the rule, the object, the field and its file:line:column, why it matters and the fix.",
        "Exit code 1 when a finding at or above --fail-on exists, 2 for input it cannot read."})
final class LintCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin ManifestInputOptions input;

  @Option(names = {"-o", "--output"}, defaultValue = "text", paramLabel = "FORMAT",
      description = "text (default), json or sarif (SARIF 2.1.0).")
  String output;

  @Option(names = "--fail-on", defaultValue = "error", paramLabel = "SEVERITY",
      description = "Exit 1 when a finding of this severity or worse exists: info, warning or error (default).")
  String failOn;

  @Option(names = "--disable", paramLabel = "RULE", description = "Skip a rule. Repeatable.")
  List<String> disable = new ArrayList<>();

  @Option(names = "--enable", paramLabel = "RULE", description = "Run a rule that is off by default. Repeatable.")
  List<String> enable = new ArrayList<>();

  @Option(names = "--list-rules", description = "Print every rule's id, severity, default and summary, and exit.")
  boolean listRules;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    if (listRules) {
      out.print(ruleList());
      out.flush();
      return ExitCodes.OK;
    }
    LintFormat format = LintFormat.fromWire(output).orElseThrow(() ->
        new UserError("--output: expected text, json or sarif, found \"" + output + "\""));
    Severity threshold = Severity.fromWire(failOn).orElseThrow(() ->
        new UserError("--fail-on: expected info, warning or error, found \"" + failOn + "\""));
    List<LintRule> rules;
    try {
      rules = Linter.select(Rules.all(), enable, disable);
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage());
    }
    // Read leniently: what the API server would reject becomes a finding, not the end of the run.
    PrintWriter err = spec.commandLine().getErr();
    LintInput manifests = LintInput.readSources(sources(input.sources(), err), input.strict, input.gpuCatalog(),
        InstanceCatalog.builtIn(), input.admissionPlugins());
    for (ManifestProblem w : manifests.warnings()) {
      // An old Karpenter API is a finding of karpenter-old-api, not said twice.
      if (OldKarpenterApi.fromNotice(w).isEmpty()) {
        err.println(w);
      }
    }
    err.flush();
    Linter.Result result = Linter.run(manifests, rules);
    out.print(format.render(result, spec.root().version()[0].replace("gpufleet ", "")));
    out.flush();
    return result.hasAtLeast(threshold) ? ExitCodes.EXPECTATION_FAILED : ExitCodes.OK;
  }

  /**
   * The inputs as lint reads them: a {@code gpufleet.io/v1alpha1 Scenario} stands for the manifests
   * its {@code spec.cluster} and steps apply, each read where it is written (the file it names, or
   * the scenario for an object written in place); every other document is read as it is.
   */
  static List<LintInput.Source> sources(List<ManifestSource> given, PrintWriter err) {
    YamlReader yaml = new YamlReader();
    List<LintInput.Source> out = new ArrayList<>();
    for (ManifestSource s : given) {
      List<YNode> docs = yaml.readAll(s.name(), s.text());
      List<YNode> scenarios = docs.stream().filter(ScenarioManifests::isScenario).toList();
      if (scenarios.isEmpty()) {
        out.add(new LintInput.Source(s.name(), s.text(), docs, false, ""));
        continue;
      }
      List<YNode> rest = docs.stream().filter(d -> !ScenarioManifests.isScenario(d)).toList();
      if (!rest.isEmpty()) {
        out.add(new LintInput.Source(s.name(), s.text(), rest, false, ""));
      }
      // Paths in a scenario are relative to it (stdin's: to the working directory).
      Path dir = Optional.ofNullable(Path.of(s.name()).getParent()).orElse(Path.of(""));
      for (YNode scenario : scenarios) {
        catalogNotRead(scenario, err);
        for (ScenarioManifests.Applied a : ScenarioManifests.applied(s.name(), s.text(), scenario,
            ScenarioSources.directory(dir))) {
          String origin = (a.by().equals("spec.cluster") ? "in " : "applied by ") + a.by() + " of "
              + (s.name().equals("-") ? "the scenario on stdin" : s.name());
          out.add(new LintInput.Source(a.part().file(), a.part().text(), a.part().docs(), a.part().inPlace(), origin));
        }
      }
    }
    return out;
  }

  /** Lint knows the built-in instance types only; a scenario's own catalogue is said to be left out. */
  private static void catalogNotRead(YNode scenario, PrintWriter err) {
    if (scenario instanceof YNode.YMap m && m.entries().get("spec") != null
        && m.entries().get("spec").value() instanceof YNode.YMap spec && spec.entries().get("catalog") != null) {
      err.println(ManifestProblem.warning(spec.entries().get("catalog").keyLocation(), "spec.catalog",
          "lint checks the scenario's manifests against the built-in instance catalogue, not this one"));
    }
  }

  static String ruleList() {
    StringBuilder b = new StringBuilder();
    int width = Rules.all().stream().mapToInt(r -> r.id().length()).max().orElse(4);
    b.append(String.format(Locale.ROOT, "%-" + width + "s   %-8s %-7s %s\n", "RULE", "SEVERITY",
        "DEFAULT", "WHAT"));
    for (LintRule r : Rules.all()) {
      b.append(String.format(Locale.ROOT, "%-" + width + "s   %-8s %-7s %s\n", r.id(),
          r.severity().wire(), r.enabledByDefault() ? "on" : "off", r.summary()));
    }
    return b.toString();
  }
}
