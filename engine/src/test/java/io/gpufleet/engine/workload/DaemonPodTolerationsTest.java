package io.gpufleet.engine.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.taint.TaintEffect;
import io.gpufleet.model.taint.Toleration;
import io.gpufleet.model.workload.PodTemplate;
import io.gpufleet.model.workload.Workload;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** A daemon pod's tolerations after admission gave its template DefaultTolerationSeconds' ones. */
class DaemonPodTolerationsTest {

  @Test
  void theDaemonsUnboundedTolerationReplacesTheAdmittedThreeHundredSeconds() {
    Toleration admitted = Toleration.exists("node.kubernetes.io/not-ready", TaintEffect.NO_EXECUTE).withSeconds(300);
    Toleration own = Toleration.exists("example.com/x", TaintEffect.NO_SCHEDULE);
    PodSpec spec = PodSpec.of(Container.of("c", "img", ResourceList.EMPTY, ResourceList.EMPTY))
        .withTolerations(List.of(own, admitted));
    Workload.DaemonSet ds = new Workload.DaemonSet(ObjectMeta.named("plugin"),
        LabelSelector.matching(Labels.of("app", "plugin")),
        new PodTemplate(Labels.of("app", "plugin"), Labels.EMPTY, spec));
    Pod p = PodFactory.daemonPod(ds, "n1", new SplittableRandom(1));
    List<Toleration> notReady = p.spec().tolerations().stream()
        .filter(t -> t.key().equals("node.kubernetes.io/not-ready")).toList();
    // Replaced in place (as AddOrUpdateTolerationInPodSpec does), not added beside: the daemon pod is
    // never evicted from a not-ready node, as upstream's daemon pods are not.
    assertThat(notReady).containsExactly(Toleration.exists("node.kubernetes.io/not-ready", TaintEffect.NO_EXECUTE));
    assertThat(p.spec().tolerations()).startsWith(own, notReady.getFirst())
        .hasSize(1 + PodFactory.DAEMON_TOLERATIONS.size());
  }
}
