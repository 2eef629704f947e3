package io.gpufleet.model.gpu.share;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpufleet.testing.property.Gen;
import io.gpufleet.testing.property.Property;
import org.junit.jupiter.api.Test;

class GpuDemandTest {

  @Test
  void aTraceRowBecomesNoneAFractionOrWholeCards() {
    assertThat(GpuDemand.of(0, 0)).isEqualTo(GpuDemand.NONE);
    assertThat(GpuDemand.of(1, 460)).isEqualTo(new GpuDemand.Fraction(460));
    assertThat(GpuDemand.of(1, 1000)).isEqualTo(new GpuDemand.Whole(1));
    assertThat(GpuDemand.of(8, 1000)).isEqualTo(new GpuDemand.Whole(8));
  }

  @Test
  void aFractionIsOnOneCardAndWholeCardsAreWhole() {
    assertThat(new GpuDemand.Fraction(460).cards()).isEqualTo(1);
    assertThat(new GpuDemand.Fraction(460).totalMilli()).isEqualTo(460);
    assertThat(new GpuDemand.Whole(4).totalMilli()).isEqualTo(4000);
    assertThatThrownBy(() -> GpuDemand.of(2, 500)).hasMessageContaining("takes them whole");
    assertThatThrownBy(() -> new GpuDemand.Fraction(1000)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new GpuDemand.Fraction(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new GpuDemand.Whole(0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void totalIsCardsTimesMilliPerCard() {
    Property.check(20261206L, 1000, Gen.ints(1, 64), Gen.ints(1, 999), (cards, milli) -> {
      GpuDemand whole = GpuDemand.of(cards, 1000);
      GpuDemand fraction = GpuDemand.of(1, milli);
      assertThat(whole.totalMilli()).isEqualTo(cards * 1000L);
      assertThat(fraction.totalMilli()).isEqualTo((long) milli);
    });
  }
}
