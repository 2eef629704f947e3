package io.gpufleet.model.dra;

/**
 * A device attribute: exactly one of the API's {@code bool}, {@code int}, {@code string},
 * {@code version} ({@code k8s.io/api/resource/v1} {@code DeviceAttribute}).
 */
public sealed interface AttributeValue {

  record Bool(boolean value) implements AttributeValue {}

  record Int(long value) implements AttributeValue {}

  record Str(String value) implements AttributeValue {}

  record Version(String value) implements AttributeValue {}
}
