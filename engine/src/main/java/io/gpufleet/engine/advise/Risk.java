package io.gpufleet.engine.advise;

import java.util.Objects;

/**
 * Something an option gives up, in one sentence, with where the fact comes from.
 *
 * @param id     stable key for JSON ({@code no-memory-isolation})
 * @param text   the sentence a report prints
 * @param source where it is documented
 */
public record Risk(String id, String text, String source) {
  public Risk {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(source, "source");
  }
}
