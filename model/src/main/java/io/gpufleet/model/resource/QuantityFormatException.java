package io.gpufleet.model.resource;

/** Text that is not a Kubernetes quantity; the message is the API server's. */
public final class QuantityFormatException extends IllegalArgumentException {
  private final String text;

  public QuantityFormatException(String text, String message) {
    super(message);
    this.text = text;
  }

  /** The text that failed to parse. */
  public String text() {
    return text;
  }
}
