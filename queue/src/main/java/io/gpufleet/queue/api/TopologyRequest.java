package io.gpufleet.queue.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A pod set's topology request ({@code PodSetTopologyRequest}), read from its pod template's
 * annotations by Kueue's job framework ({@code pkg/controller/jobframework/tas.go}): a level all
 * pods must share ({@code kueue.x-k8s.io/podset-required-topology}), a level they should share
 * ({@code podset-preferred-topology}), or only TAS's capacity accounting
 * ({@code podset-unconstrained-topology: "true"}). A pod set with a request asks for TAS explicitly
 * ({@code IsExplicitlyRequestingTAS}), an unconstrained {@code "false"} too, which then names no level.
 */
public record TopologyRequest(Optional<String> required, Optional<String> preferred, boolean unconstrained) {

  public static final String REQUIRED_ANNOTATION = "kueue.x-k8s.io/podset-required-topology";
  public static final String PREFERRED_ANNOTATION = "kueue.x-k8s.io/podset-preferred-topology";
  public static final String UNCONSTRAINED_ANNOTATION = "kueue.x-k8s.io/podset-unconstrained-topology";

  public static TopologyRequest required(String level) {
    return new TopologyRequest(Optional.of(level), Optional.empty(), false);
  }

  public static TopologyRequest preferred(String level) {
    return new TopologyRequest(Optional.empty(), Optional.of(level), false);
  }

  public static TopologyRequest unconstrainedRequest() {
    return new TopologyRequest(Optional.empty(), Optional.empty(), true);
  }

  /**
   * A pod template's TAS annotations read: the request, if any, and each problem as "annotation:
   * message" (no annotation for one about the annotations together).
   */
  public record Parsed(Optional<TopologyRequest> request, List<String> errors, List<String> notModelled) {}

  /** Annotations Kueue reads for TAS that the twin does not act on (slices, pod-set groups). */
  public static final List<String> NOT_MODELLED = List.of("kueue.x-k8s.io/podset-slice-required-topology",
      "kueue.x-k8s.io/podset-slice-size", "kueue.x-k8s.io/podset-slice-required-topology-constraints",
      "kueue.x-k8s.io/podset-group-name");

  /**
   * Reads a pod template's annotations as {@code jobframework.NewPodSetTopologyRequest} does, checked
   * as {@code ValidateTASPodSetRequest} checks them ({@code pkg/controller/jobframework/tas_validation.go}):
   * at most one of the three, levels that are label names, unconstrained a boolean.
   */
  public static Parsed fromAnnotations(Map<String, String> annotations) {
    List<String> errors = new ArrayList<>();
    Optional<String> req = Optional.ofNullable(annotations.get(REQUIRED_ANNOTATION));
    Optional<String> pref = Optional.ofNullable(annotations.get(PREFERRED_ANNOTATION));
    Optional<String> unc = Optional.ofNullable(annotations.get(UNCONSTRAINED_ANNOTATION));
    int found = (req.isPresent() ? 1 : 0) + (pref.isPresent() ? 1 : 0) + (unc.isPresent() ? 1 : 0);
    if (found > 1) {
      errors.add(": must not contain more than one topology annotation: [\"" + REQUIRED_ANNOTATION
          + "\", \"" + PREFERRED_ANNOTATION + "\", \"" + UNCONSTRAINED_ANNOTATION + "\"]");
    }
    req.filter(v -> !LABEL_NAME.matcher(v).matches()).ifPresent(v -> errors.add(REQUIRED_ANNOTATION + ": "
        + labelNameMessage(v)));
    pref.filter(v -> !LABEL_NAME.matcher(v).matches()).ifPresent(v -> errors.add(PREFERRED_ANNOTATION + ": "
        + labelNameMessage(v)));
    boolean unconstrained = false;
    if (unc.isPresent()) {
      Optional<Boolean> b = parseBool(unc.get());
      if (b.isEmpty()) {
        errors.add(UNCONSTRAINED_ANNOTATION + ": Invalid value: \"" + unc.get() + "\": must be a boolean value");
      }
      unconstrained = b.orElse(false);
    }
    List<String> notModelled = NOT_MODELLED.stream().filter(annotations::containsKey).toList();
    if (!errors.isEmpty() || found == 0) {
      return new Parsed(Optional.empty(), errors, notModelled);
    }
    return new Parsed(Optional.of(new TopologyRequest(req, pref, unconstrained)), errors, notModelled);
  }

  /** A qualified label name ({@code metavalidation.ValidateLabelName}): optional DNS prefix, then a name of at most 63. */
  private static final java.util.regex.Pattern LABEL_NAME = java.util.regex.Pattern.compile(
      "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$");

  private static String labelNameMessage(String v) {
    return "Invalid value: \"" + v + "\": name part must consist of alphanumeric characters, '-', '_' or '.', and "
        + "must start and end with an alphanumeric character";
  }

  /** Go's {@code strconv.ParseBool}. */
  private static Optional<Boolean> parseBool(String v) {
    return switch (v) {
      case "1", "t", "T", "TRUE", "true", "True" -> Optional.of(true);
      case "0", "f", "F", "FALSE", "false", "False" -> Optional.of(false);
      default -> Optional.empty();
    };
  }
}
