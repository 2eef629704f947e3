package io.gpufleet.lint;

import java.util.Objects;

/** One input's name (a file path, {@code -}, a cluster context) and its manifest text. */
public record Source(String name, String text) {
  public Source {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(text, "text");
  }
}
