package io.gpufleet.model.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PrintableTest {

  @Test
  void controlCharactersBecomeEscapesNotBytes() {
    assertThat(Printable.cut("a\u001b[31mred\u0007\u0000b", 80)).isEqualTo("a\\x1b[31mred\\x07\\x00b");
    assertThat(Printable.cut("two\nlines\r\tand\u007f", 80)).isEqualTo("two\\nlines\\r\\tand\\x7f");
  }

  @Test
  void c1ControlsAndBidiOverridesAreEscaped() {
    assertThat(Printable.cut("x\u009by\u202ez", 80)).isEqualTo("x\\u009by\\u202ez");
  }

  @Test
  void ordinaryTextIncludingNonAsciiIsKept() {
    assertThat(Printable.cut("Größe 東京 \uD83D\uDE80", 80)).isEqualTo("Größe 東京 \uD83D\uDE80");
  }

  @Test
  void longTextIsCutAtCharactersNotEscapes() {
    assertThat(Printable.cut("abcdef", 4)).isEqualTo("abcd...");
    assertThat(Printable.cut("\u001b\u001b\u001b", 2)).isEqualTo("\\x1b\\x1b...");
    assertThat(Printable.cut("abcd", 4)).isEqualTo("abcd");
    assertThat(Printable.cut(null, 4)).isEmpty();
  }
}
