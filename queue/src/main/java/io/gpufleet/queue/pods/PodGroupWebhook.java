package io.gpufleet.queue.pods;

import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.validation.FieldError;
import io.gpufleet.model.validation.LabelSyntax;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Kueue's pod webhook on a managed pod's group metadata ({@code pkg/controller/jobs/pod/pod_webhook.go}
 * validatePodGroupMetadata, with the WorkloadIdentifierAnnotations gate off: the group name is the
 * label): a total count needs a group name and a group name a total count, the name must be a DNS-1123
 * subdomain ({@code jobframework.ValidateLabelAsCRDName}) and the count a whole number above zero
 * ({@code pod_controller.go} groupTotalCount). The pod is refused on any of these.
 */
public final class PodGroupWebhook {

  /** {@code podconstants.GroupNameLabel}. */
  public static final String GROUP_NAME_LABEL = "kueue.x-k8s.io/pod-group-name";
  /** {@code podconstants.GroupTotalCountAnnotation}. */
  public static final String GROUP_TOTAL_COUNT_ANNOTATION = "kueue.x-k8s.io/pod-group-total-count";
  /** {@code podconstants.SchedulingGateName}: the webhook gates every pod Kueue manages until admission. */
  public static final String SCHEDULING_GATE = "kueue.x-k8s.io/admission";
  /** {@code pod_controller.go} FrameworkName: the name {@code integrations.frameworks} enables it by. */
  public static final String FRAMEWORK = "pod";

  static final String NAME_PATH = "metadata.labels[" + GROUP_NAME_LABEL + "]";
  static final String COUNT_PATH = "metadata.annotations[" + GROUP_TOTAL_COUNT_ANNOTATION + "]";
  private static final String BOTH = "both the '" + GROUP_TOTAL_COUNT_ANNOTATION + "' annotation and the '"
      + GROUP_NAME_LABEL + "' label should be set";

  private PodGroupWebhook() {}

  /** The errors {@code validatePodGroupMetadata} returns for a pod with this metadata; empty when it may be created. */
  public static List<FieldError> validate(ObjectMeta meta) {
    List<FieldError> errors = new ArrayList<>();
    Optional<String> count = meta.annotations().get(GROUP_TOTAL_COUNT_ANNOTATION);
    Optional<String> name = groupName(meta);
    if (name.isEmpty()) {
      if (count.isPresent()) {
        errors.add(FieldError.required(NAME_PATH, BOTH));
      }
      return errors;
    }
    List<String> nameErrors = LabelSyntax.dns1123SubdomainErrors(name.get());
    if (!nameErrors.isEmpty()) {
      errors.add(FieldError.invalid(NAME_PATH, name.get(), String.join(",", nameErrors)));
    }
    if (count.isEmpty()) {
      errors.add(FieldError.required(COUNT_PATH, BOTH));
      return errors;
    }
    parseTotalCount(count.get()).err().ifPresent(e -> errors.add(FieldError.invalid(COUNT_PATH, count.get(), e)));
    return errors;
  }

  /** {@code utilpod.GetPodGroupName}: the label's value, empty when unset or empty. */
  public static Optional<String> groupName(ObjectMeta meta) {
    return meta.labels().get(GROUP_NAME_LABEL).filter(n -> !n.isEmpty());
  }

  /** A parsed total count: the value, or Go's error text. */
  public record TotalCount(int value, Optional<String> err) {}

  /**
   * {@code groupTotalCount}: {@code strconv.Atoi} (a sign allowed, the error text as Go's), then
   * above zero.
   */
  public static TotalCount parseTotalCount(String text) {
    long v;
    try {
      v = Long.parseLong(text);
    } catch (NumberFormatException e) {
      boolean digits = text.matches("[+-]?[0-9]+");
      return new TotalCount(0, Optional.of("strconv.Atoi: parsing \"" + text + "\": "
          + (digits ? "value out of range" : "invalid syntax")));
    }
    if (v < 1) {
      return new TotalCount(0, Optional.of("incorrect annotation value '" + GROUP_TOTAL_COUNT_ANNOTATION + "=" + text
          + "': group total count should be greater than zero"));
    }
    // The pods of a group larger than an int could not all exist; counted as the most an int holds.
    return new TotalCount((int) Math.min(v, Integer.MAX_VALUE), Optional.empty());
  }
}
