package io.gpufleet.model.gpu;

/**
 * A line of a GPU catalogue that cannot be read, with where: the file, the line and the column
 * (1-based) of the key or value at fault. The message reads {@code file:line:column: detail}.
 */
public final class GpuCatalogFormatException extends IllegalArgumentException {
  private final String file;
  private final int line;
  private final int column;
  private final String detail;

  public GpuCatalogFormatException(String file, int line, int column, String detail, Throwable cause) {
    super(file + ":" + line + ":" + column + ": " + detail, cause);
    this.file = file;
    this.line = line;
    this.column = column;
    this.detail = detail;
  }

  public String file() {
    return file;
  }

  public int line() {
    return line;
  }

  public int column() {
    return column;
  }

  /** What was expected and found, without the place. */
  public String detail() {
    return detail;
  }
}
