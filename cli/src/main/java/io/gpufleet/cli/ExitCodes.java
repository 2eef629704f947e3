package io.gpufleet.cli;

/** The exit codes of every gpufleet command. */
final class ExitCodes {
  private ExitCodes() {}

  static final int OK = 0;
  /** The run completed but an expectation failed. */
  static final int EXPECTATION_FAILED = 1;
  /** Bad input: a malformed file, an unknown option, an impossible request. */
  static final int BAD_INPUT = 2;
  /** A bug in gpufleet. */
  static final int INTERNAL = 3;
  /** probe and bench-sharing: no usable GPU or driver here (issue 15 asks for 3, the code INTERNAL shares). */
  static final int NO_GPU = 3;
}
