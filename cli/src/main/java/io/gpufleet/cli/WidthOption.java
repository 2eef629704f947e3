package io.gpufleet.cli;

import io.gpufleet.report.table.Wrap;
import picocli.CommandLine.Option;

/**
 * {@code --wide} ({@code @Mixin}): by default every line a command prints fits
 * {@value io.gpufleet.report.table.Wrap#TERMINAL} columns, its tables wrapping their widest cells onto
 * more lines and long lines folding under their text; {@code --wide} prints each line whole.
 */
final class WidthOption {

  @Option(names = "--wide", description = "Print each line whole, however long (default: every line fits "
      + Wrap.TERMINAL + " columns; long cells wrap onto more lines, nothing is cut off).")
  boolean wide;

  /** The columns a line may take. */
  int columns() {
    return wide ? Wrap.UNLIMITED : Wrap.TERMINAL;
  }
}
