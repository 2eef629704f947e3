package io.gpufleet.model.validation;

/**
 * One validation failure at a field path, worded as the API server words it, e.g.
 * {@code spec.containers[0].resources.requests[nvidia.com/gpu]: Invalid value: "0.5": must be an integer}.
 */
public record FieldError(String path, Kind kind, String value, String detail) {

  public enum Kind {
    REQUIRED("Required value"),
    INVALID("Invalid value"),
    UNSUPPORTED("Unsupported value"),
    DUPLICATE("Duplicate value"),
    FORBIDDEN("Forbidden");

    private final String text;

    Kind(String text) {
      this.text = text;
    }

    public String text() {
      return text;
    }
  }

  public static FieldError required(String path, String detail) {
    return new FieldError(path, Kind.REQUIRED, null, detail);
  }

  public static FieldError invalid(String path, String value, String detail) {
    return new FieldError(path, Kind.INVALID, value, detail);
  }

  public static FieldError unsupported(String path, String value, String detail) {
    return new FieldError(path, Kind.UNSUPPORTED, value, detail);
  }

  public static FieldError forbidden(String path, String detail) {
    return new FieldError(path, Kind.FORBIDDEN, null, detail);
  }

  /** The text after the path: {@code Invalid value: "0.5": must be an integer}. */
  public String message() {
    StringBuilder b = new StringBuilder(kind.text());
    if (value != null) {
      b.append(": \"").append(value).append('"');
    }
    if (detail != null && !detail.isEmpty()) {
      b.append(": ").append(detail);
    }
    return b.toString();
  }

  @Override
  public String toString() {
    return path + ": " + message();
  }
}
