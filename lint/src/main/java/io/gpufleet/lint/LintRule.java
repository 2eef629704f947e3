package io.gpufleet.lint;

import java.util.List;

/**
 * One rule: an id users enable and disable it by, its severity, whether it runs by default, and
 * the check. {@link #summary()}, {@link #why()} and {@link #fix()} are the rule table's columns;
 * each finding carries the last two.
 */
public interface LintRule {

  /** Kebab-case and stable: scripts, {@code --disable} and SARIF's {@code ruleId} name it. */
  String id();

  Severity severity();

  default boolean enabledByDefault() {
    return true;
  }

  /** What the rule catches, in one line. */
  String summary();

  /** Why it hurts, in a sentence or two. */
  String why();

  /** What to change. */
  String fix();

  List<Finding> check(LintInput input);

  /**
   * A fallback rule reports what no other rule explains: its finding is dropped where another
   * rule's finding stands at the same place or inside the field it names.
   */
  default boolean fallback() {
    return false;
  }

  /** A finding of this rule on {@code object} at {@code field}. */
  default Finding finding(Located<?> object, String field, String message) {
    return new Finding(id(), severity(), object.ref(), field, object.at(field), message, why(), fix());
  }
}
