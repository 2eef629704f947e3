package io.gpufleet.report.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * events.jsonl's blocks, written through the kept arrays, are the bytes {@link String#getBytes} makes
 * of each block: seeded blocks of ASCII, Latin-1, other BMP characters, surrogate pairs and unpaired
 * surrogates, of growing and shrinking lengths through one writer.
 */
class Utf8BlocksTest {

  @Test
  void blocksAreTheirStringsBytes() throws IOException {
    SplittableRandom random = new SplittableRandom(20_261_207);
    RunOutputs.Utf8Blocks blocks = new RunOutputs.Utf8Blocks();
    for (int trial = 0; trial < 500; trial++) {
      StringBuilder b = new StringBuilder();
      int n = random.nextInt(trial % 10 == 0 ? 5000 : 200);
      boolean ascii = random.nextBoolean();
      for (int i = 0; i < n; i++) {
        int kind = ascii ? 0 : random.nextInt(6);
        switch (kind) {
          case 0, 1 -> b.append((char) random.nextInt(0x20, 0x7f));
          case 2 -> b.append((char) random.nextInt(0x80, 0x100));
          case 3 -> b.append((char) random.nextInt(0x100, 0xd800));
          case 4 -> b.appendCodePoint(random.nextInt(0x10000, 0x110000));
          default -> b.append((char) random.nextInt(0xd800, 0xe000));
        }
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      blocks.write(b, out);
      assertThat(out.toByteArray()).as("trial %d", trial).isEqualTo(b.toString().getBytes(StandardCharsets.UTF_8));
    }
  }
}
