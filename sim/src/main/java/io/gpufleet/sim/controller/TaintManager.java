package io.gpufleet.sim.controller;

import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.state.NodeState;
import io.gpufleet.sim.state.PodState;
import java.time.Duration;
import java.util.Collection;
import java.util.List;

/**
 * The taint-based eviction of the node lifecycle controller: pods that do not tolerate a node's
 * NoExecute taint are deleted (reference §5.3); a toleration with {@code tolerationSeconds} buys
 * that long.
 */
final class TaintManager {

  private final ApiServer api;

  TaintManager(ApiServer api) {
    this.api = api;
  }

  void enforce(Collection<String> nodes) {
    for (String name : List.copyOf(nodes)) {
      NodeState n = api.state().nodes().get(name);
      if (n == null) {
        continue;
      }
      for (Taint t : n.node().taints()) {
        if (t.effect() == TaintEffect.NO_EXECUTE) {
          evict(n, t);
        }
      }
    }
  }

  private void evict(NodeState n, Taint t) {
    var info = api.state().snapshot().node(n.name());
    if (info.isEmpty()) {
      return;
    }
    for (PodInfo p : info.get().pods()) {
      PodState ps = api.state().pods().get(p.key());
      if (ps == null || ps.isTerminating()) {
        continue;
      }
      Long seconds = null;
      boolean tolerated = false;
      for (Toleration tol : p.pod().spec().tolerations()) {
        if (tol.tolerates(t)) {
          tolerated = true;
          if (tol.tolerationSeconds().isPresent()) {
            seconds = tol.tolerationSeconds().getAsLong();
          } else {
            seconds = null;
            break;
          }
        }
      }
      if (!tolerated || (seconds != null && !api.now().isBefore(ps.bound().orElse(api.now())
          .plus(Duration.ofSeconds(seconds))))) {
        api.deletePod(p.key(), RunRecord.Kind.POD_EVICTED, "taint manager: " + t);
      }
    }
  }
}
