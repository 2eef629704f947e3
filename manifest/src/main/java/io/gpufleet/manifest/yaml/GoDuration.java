package io.gpufleet.manifest.yaml;

import java.time.Duration;

/** Go's duration syntax for the manifest readers: the model's {@link io.gpufleet.model.time.GoDuration}. */
public final class GoDuration {
  private GoDuration() {}

  /** The duration, or null when the text is not one. */
  public static Duration parse(String text) {
    return io.gpufleet.model.time.GoDuration.parse(text);
  }
}
