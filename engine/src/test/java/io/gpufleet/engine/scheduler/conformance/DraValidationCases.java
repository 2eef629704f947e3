package io.gpufleet.engine.scheduler.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.dra.ClaimStatus;
import io.gpufleet.model.dra.DeviceRequest;
import io.gpufleet.model.dra.ResourceClaimSpec;
import io.gpufleet.model.validation.FieldError;
import io.gpufleet.model.validation.ResourceClaimValidation;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The API server's validation of a ResourceClaim, from {@code pkg/apis/resource/validation/validation_resourceclaim_test.go}
 * (stored copy): TestValidateClaim's "CEL-length" (a selector over {@code CELSelectorExpressionMaxLength},
 * 10 KiB, is {@code field.TooLong}) and TestValidateClaimStatusUpdate's cases on the status the twin reads
 * from a dump ({@code status.allocation.devices.results[].request}, {@code status.reservedFor}, at most
 * {@code ResourceClaimReservedForMaxSize} = 256 consumers). Upstream's fixtures: {@code validClaim} (one
 * request {@code foo} of class {@code foo}), {@code validAllocatedClaim} (one result: request, driver, pool
 * and device {@code foo}), consumers {@code pods/foo-<i>} with uid {@code <i>}. Upstream compares the
 * error list by path, type and detail; so do these. Not translated: the cases about updates (immutable
 * allocation, {@code deletionTimestamp}), the allocation's {@code config}, device status and admin access,
 * which the twin does not read.
 */
final class DraValidationCases {
  private DraValidationCases() {}

  static final String FILE = "pkg/apis/resource/validation/validation_resourceclaim_test.go";
  private static final String PLUGIN = "DRA API validation";
  private static final String GOOD = "foo";
  private static final String BAD = "!@#$%^";

  /** {@code validClaimSpec}. */
  private static final ResourceClaimSpec SPEC = new ResourceClaimSpec(List.of(
      new DeviceRequest(GOOD, GOOD, List.of(), DeviceRequest.AllocationMode.EXACT_COUNT, 1)));

  private static final ClaimStatus.AllocatedDevice RESULT = new ClaimStatus.AllocatedDevice(GOOD, GOOD, GOOD, GOOD);

  private static List<ClaimStatus.Consumer> pods(int n) {
    List<ClaimStatus.Consumer> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(new ClaimStatus.Consumer("", "pods", "foo-" + i, String.valueOf(i)));
    }
    return out;
  }

  private static ClaimStatus allocated(List<ClaimStatus.Consumer> reservedFor) {
    return new ClaimStatus(Optional.of(List.of(RESULT)), reservedFor);
  }

  private static Runnable expect(ClaimStatus status, FieldError... errors) {
    return () -> assertThat(ResourceClaimValidation.status(status, SPEC)).containsExactly(errors);
  }

  static List<UpstreamCase> cases() {
    List<UpstreamCase> c = new ArrayList<>();
    // TestValidateClaim: a second request whose selectors are exactly at the limit and one byte over it.
    c.add(UpstreamCase.of(PLUGIN, FILE, "CEL-length", () -> {
      String expression = "device.driver == \"\"";
      String atLimit = expression.replace("\"\"", "\"" + "x".repeat(
          ResourceClaimValidation.CEL_SELECTOR_EXPRESSION_MAX_LENGTH - expression.length()) + "\"");
      String over = expression.replace("\"\"", "\"" + "x".repeat(
          ResourceClaimValidation.CEL_SELECTOR_EXPRESSION_MAX_LENGTH - expression.length() + 1) + "\"");
      List<String> selectors = List.of(atLimit, over);
      List<FieldError> errors = new ArrayList<>();
      for (int i = 0; i < selectors.size(); i++) {
        ResourceClaimValidation.celExpressionLength("spec.devices.requests[1].exactly.selectors[" + i
            + "].cel.expression", selectors.get(i)).ifPresent(errors::add);
      }
      assertThat(errors).containsExactly(FieldError.tooLong("spec.devices.requests[1].exactly.selectors[1].cel"
          + ".expression", 10240));
      assertThat(errors.getFirst().message()).isEqualTo("Too long: may not be more than 10240 bytes");
    }));
    // TestValidateClaimStatusUpdate.
    c.add(UpstreamCase.of(PLUGIN, FILE, "valid-add-allocation-empty",
        expect(new ClaimStatus(Optional.of(List.of()), List.of()))));
    c.add(UpstreamCase.of(PLUGIN, FILE, "valid-add-allocation-non-empty", expect(allocated(List.of()))));
    c.add(UpstreamCase.of(PLUGIN, FILE, "invalid-add-allocation-bad-request", expect(new ClaimStatus(Optional.of(
        List.of(new ClaimStatus.AllocatedDevice(BAD, GOOD, GOOD, GOOD))), List.of()),
        FieldError.invalid("status.allocation.devices.results[0].request", BAD, "a lowercase RFC 1123 label must "
            + "consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric "
            + "character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"),
        FieldError.invalid("status.allocation.devices.results[0].request", BAD, "must be the name of a request in "
            + "the claim or the name of a request and a subrequest separated by '/'"))));
    c.add(UpstreamCase.of(PLUGIN, FILE, "add-reservation", expect(allocated(pods(256)))));
    c.add(UpstreamCase.of(PLUGIN, FILE, "add-reservation-and-allocation", expect(allocated(pods(256)))));
    c.add(UpstreamCase.of(PLUGIN, FILE, "invalid-reserved-for-too-large", () -> {
      assertThat(ResourceClaimValidation.status(allocated(pods(257)), SPEC))
          .containsExactly(FieldError.tooMany("status.reservedFor", 257, 256));
      assertThat(FieldError.tooMany("status.reservedFor", 257, 256).message())
          .isEqualTo("Too many: 257: must have at most 256 items");
    }));
    c.add(UpstreamCase.of(PLUGIN, FILE, "invalid-reserved-for-duplicate", expect(allocated(List.of(
        new ClaimStatus.Consumer("", "pods", "foo", "1"), new ClaimStatus.Consumer("", "pods", "foo", "1"))),
        FieldError.duplicate("status.reservedFor[1].uid", "1"))));
    c.add(UpstreamCase.of(PLUGIN, FILE, "invalid-reserved-for-no-allocation", expect(new ClaimStatus(
        Optional.empty(), List.of(new ClaimStatus.Consumer("", "pods", "foo", "1"))),
        FieldError.forbidden("status.reservedFor", "may not be specified when `allocated` is not set"))));
    c.add(UpstreamCase.of(PLUGIN, FILE, "invalid-reserved-for-no-resource", expect(allocated(List.of(
        new ClaimStatus.Consumer("", "", "foo", "1"))), FieldError.required("status.reservedFor[0].resource", ""))));
    c.add(UpstreamCase.of(PLUGIN, FILE, "invalid-reserved-for-no-name", expect(allocated(List.of(
        new ClaimStatus.Consumer("", "pods", "", "1"))), FieldError.required("status.reservedFor[0].name", ""))));
    c.add(UpstreamCase.of(PLUGIN, FILE, "invalid-reserved-for-no-uid", expect(allocated(List.of(
        new ClaimStatus.Consumer("", "pods", "foo", ""))), FieldError.required("status.reservedFor[0].uid", ""))));
    return c;
  }
}
