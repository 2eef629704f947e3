package io.gpufleet.model.validation;

import io.gpufleet.model.dra.ClaimStatus;
import io.gpufleet.model.dra.DeviceRequest;
import io.gpufleet.model.dra.ResourceClaimSpec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The API server's checks on a ResourceClaim that the twin reads, in its words. Source:
 * kubernetes/kubernetes {@code pkg/apis/resource/validation/validation.go} ({@code validateCELSelector},
 * {@code validateResourceClaimStatusUpdate}, {@code validateDeviceRequestAllocationResult},
 * {@code validateRequestNameRef}, {@code validateResourceClaimUserReference}) and the limits of
 * {@code pkg/apis/resource/types.go}.
 */
public final class ResourceClaimValidation {
  private ResourceClaimValidation() {}

  /** {@code CELSelectorExpressionMaxLength}: 10 * 1024 bytes. */
  public static final int CEL_SELECTOR_EXPRESSION_MAX_LENGTH = 10 * 1024;

  /** {@code ResourceClaimReservedForMaxSize}: the most consumers {@code status.reservedFor} may list. */
  public static final int RESERVED_FOR_MAX_SIZE = 256;

  private static final String NOT_A_REQUEST =
      "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'";

  /**
   * {@code validateCELSelector}'s first check: an expression over the limit is {@code field.TooLong}
   * (and is not compiled). The length is Go's {@code len}, in bytes.
   */
  public static Optional<FieldError> celExpressionLength(String path, String expression) {
    return expression.getBytes(StandardCharsets.UTF_8).length > CEL_SELECTOR_EXPRESSION_MAX_LENGTH
        ? Optional.of(FieldError.tooLong(path, CEL_SELECTOR_EXPRESSION_MAX_LENGTH)) : Optional.empty();
  }

  /**
   * A recorded {@code status} against the claim's {@code spec}, as {@code validateResourceClaimStatusUpdate}
   * checks a status the API server stores: each result's request names a request (or
   * {@code request/subrequest}) of the claim; {@code reservedFor} needs an allocation, holds at most
   * {@value #RESERVED_FOR_MAX_SIZE} consumers, each with {@code resource}, {@code name} and {@code uid},
   * no uid twice. Paths start at {@code status}.
   */
  public static List<FieldError> status(ClaimStatus status, ResourceClaimSpec spec) {
    List<FieldError> errors = new ArrayList<>();
    Set<String> requestNames = new HashSet<>();
    for (DeviceRequest r : spec.requests()) {
      requestNames.add(r.name());
      for (DeviceRequest sub : r.firstAvailable()) {
        requestNames.add(r.name() + "/" + sub.name());
      }
    }
    if (status.allocation().isPresent()) {
      List<ClaimStatus.AllocatedDevice> results = status.allocation().get();
      for (int i = 0; i < results.size(); i++) {
        requestNameRef(results.get(i).request(), "status.allocation.devices.results[" + i + "].request",
            requestNames, errors);
      }
    }
    String reservedFor = "status.reservedFor";
    List<ClaimStatus.Consumer> consumers = status.reservedFor();
    if (!consumers.isEmpty() && status.allocation().isEmpty()) {
      errors.add(FieldError.forbidden(reservedFor, "may not be specified when `allocated` is not set"));
    }
    if (consumers.size() > RESERVED_FOR_MAX_SIZE) {
      errors.add(FieldError.tooMany(reservedFor, consumers.size(), RESERVED_FOR_MAX_SIZE));
    }
    Set<String> uids = new HashSet<>();
    for (int i = 0; i < consumers.size(); i++) {
      ClaimStatus.Consumer c = consumers.get(i);
      String at = reservedFor + "[" + i + "]";
      if (c.resource().isEmpty()) {
        errors.add(FieldError.required(at + ".resource", ""));
      }
      if (c.name().isEmpty()) {
        errors.add(FieldError.required(at + ".name", ""));
      }
      if (c.uid().isEmpty()) {
        errors.add(FieldError.required(at + ".uid", ""));
      } else if (!uids.add(c.uid())) {
        errors.add(FieldError.duplicate(at + ".uid", c.uid()));
      }
    }
    return errors;
  }

  /** {@code validateRequestNameRef}: DNS labels, at most {@code request/subrequest}, naming a request of the claim. */
  private static void requestNameRef(String name, String path, Set<String> requestNames, List<FieldError> errors) {
    String[] segments = name.split("/", -1);
    if (segments.length > 2) {
      errors.add(FieldError.invalid(path, name, NOT_A_REQUEST));
      return;
    }
    for (String segment : segments) {
      for (String m : LabelSyntax.dns1123LabelErrors(segment)) {
        errors.add(FieldError.invalid(path, segment, m));
      }
    }
    if (!requestNames.contains(name)) {
      errors.add(FieldError.invalid(path, name, NOT_A_REQUEST));
    }
  }
}
