package io.gpufleet.model.cloud;

/** A line of an instance table that cannot be read, with where it is. */
public final class CatalogFormatException extends IllegalArgumentException {
  private final String source;
  private final int line;

  public CatalogFormatException(String source, int line, String message) {
    super(source + ":" + line + ": " + message);
    this.source = source;
    this.line = line;
  }

  public String source() {
    return source;
  }

  public int line() {
    return line;
  }
}
