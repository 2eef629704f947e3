package io.gpufleet.cli;

import io.gpufleet.lint.LintInput;
import io.gpufleet.lint.LintRule;
import io.gpufleet.lint.Linter;
import io.gpufleet.lint.Severity;
import io.gpufleet.lint.format.LintFormat;
import io.gpufleet.lint.rules.Rules;
import io.gpufleet.manifest.kube.OldKarpenterApi;
import io.gpufleet.manifest.yaml.ManifestProblem;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
    LintInput manifests = LintInput.read(input.sources(), input.strict);
    PrintWriter err = spec.commandLine().getErr();
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
