package io.gpufleet.model.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Locale;
import org.junit.jupiter.api.Test;

class MoneyTest {

  @Test
  void aComputedPriceIsNotPrintedAsTheDoubleItIs() {
    double spot = 0.1 + 0.2; // 0.30000000000000004 as a double
    assertThat(String.valueOf(spot)).isEqualTo("0.30000000000000004");
    assertThat(Money.perHour(spot)).isEqualTo("$0.30/h");
    assertThat(Money.perHour(0.6843199999999999)).isEqualTo("$0.68432/h");
  }

  @Test
  void everyCataloguePriceIsPrintedAsPublished() {
    for (InstanceType t : InstanceCatalog.builtIn().types()) {
      String published = java.math.BigDecimal.valueOf(t.onDemandPrice()).stripTrailingZeros().toPlainString();
      assertThat(Money.perHour(t.onDemandPrice())).as(t.name())
          .matches("\\$" + java.util.regex.Pattern.quote(published) + "0?/h");
    }
  }

  @Test
  void pricesKeepCentsAndDropOtherTrailingZeros() {
    assertThat(Money.perHour(6.88)).isEqualTo("$6.88/h");
    assertThat(Money.perHour(2)).isEqualTo("$2.00/h");
    assertThat(Money.perHour(1.006)).isEqualTo("$1.006/h");
    assertThat(Money.perHour(0.0000004)).isEqualTo("$0.00/h");
    assertThat(Money.perHour(0.0000005)).isEqualTo("$0.000001/h");
  }

  @Test
  void sumsAreCentsAndMonthsWholeDollarsWhateverTheLocale() {
    Locale before = Locale.getDefault();
    try {
      Locale.setDefault(Locale.GERMANY);
      assertThat(Money.dollars(1234.565)).isEqualTo("$1234.57");
      assertThat(Money.dollars(-0.001)).isEqualTo("$0.00");
      assertThat(Money.dollars(-3.5)).isEqualTo("-$3.50");
      assertThat(Money.wholeDollars(2936.5)).isEqualTo("$2,937");
      assertThat(Money.wholeDollars(-1500)).isEqualTo("-$1,500");
    } finally {
      Locale.setDefault(before);
    }
  }

  @Test
  void anAmountThatIsNotANumberIsRefused() {
    assertThatThrownBy(() -> Money.perHour(Double.NaN)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("finite");
  }
}
