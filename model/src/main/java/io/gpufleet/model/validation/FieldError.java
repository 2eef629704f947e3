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
    FORBIDDEN("Forbidden"),
    TOO_LONG("Too long"),
    TOO_MANY("Too many");

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

  public static FieldError duplicate(String path, String value) {
    return new FieldError(path, Kind.DUPLICATE, value, "");
  }

  /** apimachinery's {@code field.TooLong} with no value: {@code Too long: may not be more than 10240 bytes}. */
  public static FieldError tooLong(String path, int max) {
    return new FieldError(path, Kind.TOO_LONG, null, "may not be more than " + max + " bytes");
  }

  /** apimachinery's {@code field.TooMany}: {@code Too many: 257: must have at most 256 items}. */
  public static FieldError tooMany(String path, int actual, int max) {
    return new FieldError(path, Kind.TOO_MANY, null, actual + ": must have at most " + max + " items");
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
