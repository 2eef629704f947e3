package io.gpufleet.manifest.openb;

/**
 * A trace file that does not read as the openb schema, worded for the user:
 * {@code openb_pod_list_default.csv:17: gpu_milli: expected an integer 0..1000, found "abc"}.
 */
public final class OpenbFormatException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String file;
  private final int line;

  public OpenbFormatException(String file, int line, String field, String expected, String found) {
    super(file + ":" + line + ": " + field + ": expected " + expected + ", found " + found);
    this.file = file;
    this.line = line;
  }

  public String file() {
    return file;
  }

  /** 1-based line number in the file (the header is line 1). */
  public int line() {
    return line;
  }
}
