package io.gpufleet.model.resource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpufleet.testing.property.Gen;
import io.gpufleet.testing.property.Property;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class QuantityTest {

  /** Input, canonical form the API server writes back, milli value, value (rounded up). */
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
      "100m,      100m,     100,            1",
      "1.5,       1500m,    1500,           2",
      "1,         1,        1000,           1",
      "1000m,     1,        1000,           1",
      "2Gi,       2Gi,      2147483648000,  2147483648",
      "1.5Gi,     1536Mi,   1610612736000,  1610612736",
      "1024Mi,    1Gi,      1073741824000,  1073741824",
      "1e3,       1e3,      1000000,        1000",
      "1.5e3,     1500,     1500000,        1500",
      "1E6,       1e6,      1000000000,     1000000",
      "500M,      500M,     500000000000,   500000000",
      "1000,      1k,       1000000,        1000",
      "0.5Ki,     512,      512000,         512",
      "0.1Ki,     102400m,  102400,         103",
      "1n,        1n,       1,              1",
      "0.1n,      1n,       1,              1",
      "12Mi,      12Mi,     12582912000,    12582912",
      "0,         0,        0,              0",
      "0Gi,       0,        0,              0",
      "+3,        3,        3000,           3",
      "-1,        -1,       -1000,          -1",
      "1.0,       1,        1000,           1",
      "23028,     23028,    23028000,       23028",
      "8k,        8k,       8000000,        8000",
  })
  void parsesAndPrintsAsTheApiServer(String in, String canonical, long milli, long value) {
    Quantity q = Quantity.parse(in);
    assertThat(q.toString()).isEqualTo(canonical);
    assertThat(q.milliValue()).isEqualTo(milli);
    assertThat(q.value()).isEqualTo(value);
  }

  @ParameterizedTest
  @ValueSource(strings = {"abc", "1.2.3", " 1", "1 ", "--1", ".", "Gi", "1 Gi", "e3", "1Qi", "1KiB", "\u0661", "\uFF11Gi"})
  void rejectsMalformedQuantitiesWithTheApiServersMessage(String in) {
    assertThatThrownBy(() -> Quantity.parse(in))
        .isInstanceOf(QuantityFormatException.class)
        .hasMessage(Quantity.FORMAT_MESSAGE);
  }

  @ParameterizedTest
  @ValueSource(strings = {"5mm", "1e", "2ki", "1Ti3", "1e+"})
  void rejectsUnknownSuffixes(String in) {
    assertThatThrownBy(() -> Quantity.parse(in))
        .isInstanceOf(QuantityFormatException.class)
        .hasMessage("unable to parse quantity's suffix");
  }

  @org.junit.jupiter.api.Test
  void rejectsEmptyText() {
    assertThatThrownBy(() -> Quantity.parse("")).hasMessage("quantities must be non-empty");
  }

  @org.junit.jupiter.api.Test
  void equalityIsByValueAcrossSuffixes() {
    assertThat(Quantity.parse("1Gi")).isEqualTo(Quantity.parse("1073741824"));
    assertThat(Quantity.parse("1")).isEqualTo(Quantity.parse("1000m"));
    assertThat(Quantity.parse("1k")).isEqualByComparingTo(Quantity.parse("1e3"));
    assertThat(Quantity.parse("2")).isGreaterThan(Quantity.parse("1999m"));
  }

  @org.junit.jupiter.api.Test
  void knowsWholeNumbers() {
    assertThat(Quantity.parse("2").isInteger()).isTrue();
    assertThat(Quantity.parse("1000m").isInteger()).isTrue();
    assertThat(Quantity.parse("500m").isInteger()).isFalse();
    assertThat(Quantity.parse("0.5").isInteger()).isFalse();
  }

  @org.junit.jupiter.api.Test
  void canonicalFormParsesBackToTheSameValue() {
    Gen<String> suffixes = Gen.of("", "m", "k", "M", "G", "Ki", "Mi", "Gi", "n", "u", "e3", "e-3");
    Property.check(20261206L, 1000, Gen.longs(0, 1L << 50), suffixes, (n, suffix) -> {
      Quantity q = Quantity.parse(n + suffix);
      assertThat(Quantity.parse(q.toString())).isEqualTo(q);
    });
  }

  @org.junit.jupiter.api.Test
  void millisRoundTrip() {
    Property.check(20261206L, 1000, Gen.longs(0, 1L << 40),
        millis -> assertThat(Quantity.ofMillis(millis).milliValue()).isEqualTo(millis));
  }
}
