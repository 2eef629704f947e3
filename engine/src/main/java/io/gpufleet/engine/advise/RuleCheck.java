package io.gpufleet.engine.advise;

/** How a rule of thumb that applies stands against the numbers, in one sentence. */
public record RuleCheck(RuleOfThumb rule, Stance stance, String sentence) {

  public enum Stance {
    /** The recommendation is one of the modes the rule points to. */
    AGREES,
    /** The numbers recommend another mode; the sentence says why. */
    OVERRULED,
    /** The rule is a constraint: it ruled modes out. */
    CONSTRAINS
  }
}
