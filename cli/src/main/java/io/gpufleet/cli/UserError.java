package io.gpufleet.cli;

/** A mistake in what the user asked for: printed as one line, exit code 2, no stack trace. */
final class UserError extends RuntimeException {
  UserError(String message) {
    super(message);
  }
}
