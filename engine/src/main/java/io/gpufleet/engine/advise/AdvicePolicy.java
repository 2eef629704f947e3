package io.gpufleet.engine.advise;

/**
 * The few choices in the advice that are ours, not facts, in one place.
 *
 * @param idleBelow      utilisation under which an option is flagged for idle capacity (0.3)
 * @param tightHeadroom  an SLO that breaks below this multiple of the stated rates is flagged tight (1.25)
 * @param sweepMaxTenants the chart's widest x axis (24)
 * @param headroomCap    the largest rate multiple the headroom search tries (100)
 */
public record AdvicePolicy(double idleBelow, double tightHeadroom, int sweepMaxTenants, double headroomCap) {

  public static final AdvicePolicy DEFAULT = new AdvicePolicy(0.3, 1.25, 24, 100);

  public AdvicePolicy {
    if (!(idleBelow >= 0 && idleBelow < 1) || !(tightHeadroom >= 1) || sweepMaxTenants < 1 || !(headroomCap > 1)) {
      throw new IllegalArgumentException("advice policy out of range: " + this);
    }
  }
}
