package io.gpufleet.queue.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.validation.FieldError;
import io.gpufleet.queue.api.PodSet;
import io.gpufleet.queue.pods.PodGroup;
import io.gpufleet.queue.pods.PodGroupWebhook;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Kueue's pod integration, translated from {@code pkg/controller/jobs/pod/}: the webhook's checks of a
 * group's metadata ({@code pod_webhook_test.go} TestValidateCreate, with WorkloadIdentifierAnnotations
 * off; upstream compares each error's type and field, as here), when a pod or group is ready
 * ({@code pod_controller_test.go} TestPodsReady), a single pod's pod set (TestPodSets) and the
 * Workload the reconciler composes for a group or does not (TestReconciler: its wanted Workloads'
 * pod sets, or none with its ErrWorkloadCompose message). Upstream's base pod: {@code pod} in
 * {@code ns}, queue {@code user-queue}, one container requesting {@code cpu: 1}. A single pod's
 * Workload name carries a hash of the pod's UID upstream (GetWorkloadNameForPod); the twin's pods have
 * no UID and it is not compared.
 */
final class PodGroupCases {

  private static final String AREA = "pod groups";
  private static final String WEBHOOK = "pkg/controller/jobs/pod/pod_webhook_test.go";
  private static final String CONTROLLER = "pkg/controller/jobs/pod/pod_controller_test.go";
  private static final String QUEUE = "user-queue";

  private PodGroupCases() {}

  static List<UpstreamCase> all() {
    List<UpstreamCase> out = new ArrayList<>();
    validateCreate(out);
    podsReady(out);
    composed(out);
    return out;
  }

  private static ObjectMeta meta(String name, Labels labels, Labels annotations) {
    return new ObjectMeta(name, "ns", labels, annotations, Optional.empty());
  }

  private static void validateCreate(List<UpstreamCase> out) {
    String name = "metadata.labels[kueue.x-k8s.io/pod-group-name]";
    String count = "metadata.annotations[kueue.x-k8s.io/pod-group-total-count]";
    webhook(out, "pod with group name and no group total count", Labels.of(PodGroupWebhook.GROUP_NAME_LABEL,
        "test-group"), Labels.EMPTY, FieldError.Kind.REQUIRED, count);
    webhook(out, "pod with group total count and no group name", Labels.EMPTY,
        Labels.of(PodGroupWebhook.GROUP_TOTAL_COUNT_ANNOTATION, "3"), FieldError.Kind.REQUIRED, name);
    webhook(out, "pod with 0 group total count", Labels.of(PodGroupWebhook.GROUP_NAME_LABEL, "test-group"),
        Labels.of(PodGroupWebhook.GROUP_TOTAL_COUNT_ANNOTATION, "0"), FieldError.Kind.INVALID, count);
    webhook(out, "pod with empty group total count", Labels.of(PodGroupWebhook.GROUP_NAME_LABEL, "test-group"),
        Labels.of(PodGroupWebhook.GROUP_TOTAL_COUNT_ANNOTATION, ""), FieldError.Kind.INVALID, count);
    webhook(out, "pod with incorrect group name", Labels.of(PodGroupWebhook.GROUP_NAME_LABEL,
        "notAdns1123Subdomain*"), Labels.of(PodGroupWebhook.GROUP_TOTAL_COUNT_ANNOTATION, "2"),
        FieldError.Kind.INVALID, name);
    webhook(out, "invalid group name", Labels.of(PodGroupWebhook.GROUP_NAME_LABEL, "group name"),
        Labels.of(PodGroupWebhook.GROUP_TOTAL_COUNT_ANNOTATION, "3"), FieldError.Kind.INVALID, name);
  }

  private static void webhook(List<UpstreamCase> out, String test, Labels labels, Labels annotations,
      FieldError.Kind kind, String field) {
    out.add(UpstreamCase.of(AREA, WEBHOOK, "TestValidateCreate: " + test, () -> assertThat(
        PodGroupWebhook.validate(meta("test-pod", labels, annotations)).stream()
            .map(e -> e.kind() + " " + e.path()).toList()).containsExactly(kind + " " + field)));
  }

  /** TestPodsReady's driver and members: group {@code test-group} of {@code totalCount} (absent when null). */
  private static PodGroup.Member member(String name, String totalCount, boolean ready) {
    Labels annotations = totalCount == null ? Labels.EMPTY
        : Labels.of(PodGroupWebhook.GROUP_TOTAL_COUNT_ANNOTATION, totalCount);
    Pod p = new Pod(meta(name, Labels.of(PodGroupWebhook.GROUP_NAME_LABEL, "test-group"), annotations),
        PodSpec.of());
    return new PodGroup.Member(p, QUEUE, true, false, ready);
  }

  private static void podsReady(List<UpstreamCase> out) {
    Pod single = new Pod(meta("test-pod", Labels.EMPTY, Labels.EMPTY), PodSpec.of());
    ready(out, "single pod is ready", List.of(new PodGroup.Member(single, "test-queue", true, false, true)), true);
    ready(out, "single pod is not ready", List.of(new PodGroup.Member(single, "test-queue", true, false, false)),
        false);
    ready(out, "pod group with all pods ready", List.of(member("driver", "3", true), member("worker-1", "3", true),
        member("worker-2", "3", true)), true);
    ready(out, "pod group with fewer pods than expected", List.of(member("driver", "3", true)), false);
    ready(out, "pod group with all pods present but not all ready", List.of(member("driver", "3", true),
        member("worker-1", "3", false), member("worker-2", "3", false)), false);
    ready(out, "pod group without total count annotation", List.of(member("driver", null, true),
        member("worker-1", null, true)), false);
    ready(out, "pod group with malformed total count annotation", List.of(member("driver", "invalid", true),
        member("worker-1", "invalid", true)), false);
  }

  private static void ready(List<UpstreamCase> out, String test, List<PodGroup.Member> members, boolean want) {
    out.add(UpstreamCase.of(AREA, CONTROLLER, "TestPodsReady: " + test,
        () -> assertThat(PodGroup.podsReady(members)).isEqualTo(want)));
  }

  /** Upstream's basePodWrapper: {@code cpu: 1}, queue {@code user-queue}, gated by the webhook. */
  private static Pod base(String name, Labels labels, Labels annotations) {
    PodSpec spec = PodSpec.of(Container.of("c", "", ResourceList.of("cpu", "1"), ResourceList.EMPTY))
        .withSchedulingGates(List.of(PodGroupWebhook.SCHEDULING_GATE));
    return new Pod(meta(name, labels, annotations), spec);
  }

  private static Pod grouped(String name, String group, String count) {
    return base(name, Labels.of(PodGroupWebhook.GROUP_NAME_LABEL, group),
        Labels.of(PodGroupWebhook.GROUP_TOTAL_COUNT_ANNOTATION, count));
  }

  /** A pod set as upstream's MakePodSet(name, count).Request(cpu, "1").SchedulingGates(admission). */
  private static PodSet want(String name, int count) {
    Pod p = base("pod", Labels.EMPTY, Labels.EMPTY);
    return new PodSet(name, count, ResourceList.of("cpu", "1"), p.spec());
  }

  private static void composed(List<UpstreamCase> out) {
    Pod single = base("pod", Labels.EMPTY, Labels.EMPTY);
    out.add(UpstreamCase.of(AREA, CONTROLLER, "TestPodSets: no annotations", () -> assertThat(
        PodGroup.compose(List.of(new PodGroup.Member(single, QUEUE, true, false, false))))
        .isEqualTo(new PodGroup.Workload(List.of(want(PodSet.MAIN, 1)), List.of()))));
    out.add(UpstreamCase.of(AREA, CONTROLLER, "TestReconciler: the workload is created when queue name is set",
        () -> assertThat(PodGroup.compose(List.of(new PodGroup.Member(single, "test-queue", true, false, false))))
            .isEqualTo(new PodGroup.Workload(List.of(want(PodSet.MAIN, 1)), List.of()))));
    out.add(UpstreamCase.of(AREA, CONTROLLER, "TestReconciler: workload is composed and created for the pod group",
        () -> assertThat(PodGroup.compose(List.of(
            new PodGroup.Member(grouped("pod", "test-group", "2"), QUEUE, true, false, false),
            new PodGroup.Member(grouped("pod2", "test-group", "2"), QUEUE, true, false, false))))
            .isEqualTo(new PodGroup.Workload(List.of(want("dc85db45", 2)), List.of())))
        .differs("the twin names a group's pod set by the role's order (role-0), upstream by an 8-character "
            + "hash of the pods' spec shape (utilpod.GenerateRoleHash); count, requests and template agree"));
    out.add(UpstreamCase.of(AREA, CONTROLLER,
        "TestReconciler: workload for pod group with different queue names shouldn't be created",
        () -> assertThat(PodGroup.compose(List.of(
            new PodGroup.Member(grouped("pod", "test-group", "2"), "test-queue", true, false, false),
            new PodGroup.Member(grouped("pod2", "test-group", "2"), "new-test-queue", true, false, false))))
            .isInstanceOf(PodGroup.NotComposed.class)));
    out.add(UpstreamCase.of(AREA, CONTROLLER,
        "TestReconciler: if there's not enough non-failed pods in the group, workload should not be created",
        () -> assertThat(PodGroup.compose(List.of(
            new PodGroup.Member(grouped("pod", "test-group", "2"), QUEUE, true, false, false),
            new PodGroup.Member(grouped("pod2", "test-group", "2"), QUEUE, false, true, false))))
            .isEqualTo(new PodGroup.NotComposed("'test-group' group has fewer runnable pods than expected"))));
    out.add(UpstreamCase.of(AREA, CONTROLLER, "TestReconciler: deleted pods in incomplete group are finalized",
        () -> assertThat(PodGroup.compose(List.of(
            new PodGroup.Member(grouped("p1", "group", "3"), QUEUE, false, false, false),
            new PodGroup.Member(grouped("p2", "group", "3"), QUEUE, false, false, false))))
            .isEqualTo(new PodGroup.NotComposed("'group' group has fewer runnable pods than expected"))));
  }
}
