package io.gpufleet.sim.controller;

import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.ScheduleResult;
import io.gpufleet.engine.scheduler.Scheduler;
import io.gpufleet.engine.scheduler.SchedulerProfile;
import io.gpufleet.sim.record.RunRecord;
import io.gpufleet.sim.state.PodState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * kube-scheduler: drains the queue of pending pods, highest priority first then oldest, through the
 * engine's scheduler on the current image, keeping its rotating start index between cycles. A pod
 * that fits nowhere keeps the FailedScheduling message and, the first time, opens Karpenter's batch.
 */
final class KubeScheduler {

  private final ApiServer api;
  private final Kubelet kubelet;
  private final Scheduler scheduler = new Scheduler(SchedulerProfile.defaults());
  private int startIndex;

  KubeScheduler(ApiServer api, Kubelet kubelet) {
    this.api = api;
    this.kubelet = kubelet;
  }

  void cycle() {
    if (api.state.pending().isEmpty()) {
      return;
    }
    List<PodState> queue = new ArrayList<>();
    api.state.pending().forEach((k, v) -> queue.add(api.state.pods().get(k)));
    queue.sort(Comparator.comparingInt((PodState p) -> -p.pod().spec().priority())
        .thenComparingLong(PodState::sequence));
    boolean newlyUnschedulable = false;
    for (PodState p : queue) {
      var snapshot = api.state.snapshot();
      ScheduleResult r = scheduler.schedule(PodInfo.of(p.pod()), snapshot, api.random, startIndex, false);
      if (snapshot.size() > 0) {
        startIndex = (startIndex + r.evaluatedNodes()) % snapshot.size();
      }
      switch (r) {
        case ScheduleResult.Scheduled s -> api.bindPod(p.key(), s.node(), kubelet);
        case ScheduleResult.Unschedulable u -> {
          String message = u.error().message();
          if (!message.equals(p.schedulingMessage().orElse(null))) {
            if (p.schedulingMessage().isEmpty()) {
              newlyUnschedulable = true;
            }
            api.setSchedulingMessage(p.key(), message);
            api.log(RunRecord.Kind.POD_FAILED_SCHEDULING, p.key(), message);
          }
        }
      }
    }
    if (newlyUnschedulable) {
      api.provisioningTrigger.run();
    }
  }
}
