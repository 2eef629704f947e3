package io.gpufleet.engine.scheduler.plugin;

/**
 * A Filter and Score plugin that reads, for a node, only the pod's spec, its own configuration and
 * that node's NodeInfo (NodeResourcesFit: allocatable and the node's pods' requests; TaintToleration:
 * taints; NodeAffinity: name and labels): its verdicts, statuses and raw scores hold while the
 * NodeInfo does ({@link FilterPlugin#nodeLocal}, {@link ScorePlugin#scoresNodeLocal}).
 */
public interface NodeLocalPlugin extends FilterPlugin, ScorePlugin {

  @Override
  default boolean nodeLocal() {
    return true;
  }

  @Override
  default boolean scoresNodeLocal() {
    return true;
  }
}
