package io.gpufleet.lint;

import io.gpufleet.manifest.yaml.Location;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Runs rules over an input and orders their findings as a reader walks the files. */
public final class Linter {
  private Linter() {}

  /** The findings of a run, in file order, and the rules that ran. */
  public record Result(List<Finding> findings, List<LintRule> rules) {
    public Result {
      findings = List.copyOf(findings);
      rules = List.copyOf(rules);
    }

    /** Whether a finding at or above {@code threshold} exists ({@code --fail-on}). */
    public boolean hasAtLeast(Severity threshold) {
      return findings.stream().anyMatch(f -> f.severity().compareTo(threshold) >= 0);
    }

    public long count(Severity s) {
      return findings.stream().filter(f -> f.severity() == s).count();
    }
  }

  public static Result run(LintInput input, List<LintRule> rules) {
    List<Finding> primary = new ArrayList<>();
    List<Finding> fallback = new ArrayList<>();
    for (LintRule r : rules) {
      (r.fallback() ? fallback : primary).addAll(r.check(input));
    }
    Set<Location> explained = new HashSet<>();
    primary.forEach(f -> explained.add(f.location()));
    List<Finding> all = new ArrayList<>(primary);
    fallback.stream().filter(f -> !explained.contains(f.location()) && primary.stream().noneMatch(p -> within(p, f)))
        .forEach(all::add);
    all.sort(Finding.order(input.files()));
    // An object a scenario applies says which step does: the same manifest may be read at another time.
    List<Finding> out = new ArrayList<>(all.size());
    for (Finding f : all) {
      out.add(input.origin(f.location()).map(o -> new Finding(f.rule(), f.severity(), f.object(), f.field(),
          f.location(), f.message() + " (" + o + ")", f.why(), f.fix())).orElse(f));
    }
    return new Result(out, rules);
  }

  /**
   * Whether {@code p} stands inside the field {@code f} names, on the same object: the API server
   * reports some errors at the map ({@code resources.requests}) a rule names by key.
   */
  private static boolean within(Finding p, Finding f) {
    return p.object().equals(f.object()) && !f.field().isEmpty()
        && (p.field().startsWith(f.field() + "[") || p.field().startsWith(f.field() + "."));
  }

  /**
   * The rules to run: those on by default plus {@code enable}, less {@code disable}, in registry
   * order. An id the registry does not hold is an {@link IllegalArgumentException} naming the known ones.
   */
  public static List<LintRule> select(List<LintRule> registry, List<String> enable, List<String> disable) {
    Set<String> known = new LinkedHashSet<>();
    registry.forEach(r -> known.add(r.id()));
    for (String id : concat(enable, disable)) {
      if (!known.contains(id)) {
        throw new IllegalArgumentException("unknown rule \"" + id + "\" (rules: " + String.join(", ", known) + ")");
      }
    }
    return registry.stream()
        .filter(r -> (r.enabledByDefault() || enable.contains(r.id())) && !disable.contains(r.id()))
        .toList();
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }
}
