package io.gpufleet.web.server;

/** A request the dashboard refuses, answered with its status and this message; never a stack trace. */
final class BadRequest extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;

  BadRequest(int status, String message) {
    super(message);
    this.status = status;
  }

  int status() {
    return status;
  }
}
