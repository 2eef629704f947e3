package io.gpufleet.engine.perf;

import io.gpufleet.model.advise.Boundness;
import io.gpufleet.model.deviceplugin.SharingMode;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.testing.property.Gen;
import io.gpufleet.testing.property.Property;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What must hold for any tenants: the direction of every effect, and who may share. */
class SharingModelPropertiesTest {

  private static final Calibration C = Calibration.H200_2026_11_30;
  private static final SharingModel MODEL = new SharingModel(C);
  private static final Device H100 = Device.whole(GpuCatalog.builtIn().byId("H100-80GB").orElseThrow());

  /** Fixed, so every build runs the same samples. */
  private static final long SEED = 20261206L;

  static Gen<ServiceDemand> demands() {
    Gen<ServiceDemand> memory = Gen.doubles(0.5, 50).map(d -> new ServiceDemand(0, d, Boundness.MEMORY));
    Gen<ServiceDemand> launch = Gen.doubles(1, 50)
        .map(s -> new ServiceDemand(s * (1 - C.launchBoundGpuShare()), s * C.launchBoundGpuShare(), Boundness.LAUNCH));
    return Gen.oneOf(memory, launch);
  }

  private static CardForecast forecast(SharingMode mode, ServiceDemand d, int n, double rate, double scv) {
    List<Tenant> tenants = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      tenants.add(new Tenant("t" + i, d, 1024, rate, scv));
    }
    return MODEL.openLoop(new Colocation(H100, mode, tenants));
  }

  private static double p99(SharingMode mode, ServiceDemand d, int n, double rate) {
    return forecast(mode, d, n, rate, 1.0).worstP99Ms();
  }

  @Test
  void moreTenantsNeverLowerP99UnderTimeSlicing() {
    Property.check(SEED, 200, demands(), Gen.ints(1, 7), Gen.doubles(0.5, 150),
        this::moreTenantsNeverLowerP99UnderTimeSlicing);
  }

  private void moreTenantsNeverLowerP99UnderTimeSlicing(ServiceDemand d, int n, double rate) {
    double fewer = p99(new SharingMode.TimeSlicing(Math.max(2, n)), d, n, rate);
    double more = p99(new SharingMode.TimeSlicing(n + 1), d, n + 1, rate);
    assertThat(more).isGreaterThanOrEqualTo(fewer * (1 - 1e-9));
  }

  @Test
  void moreLoadNeverLowersP99() {
    Property.check(SEED, 200, demands(), Gen.ints(1, 6), Gen.doubles(0.5, 100), Gen.ints(0, 2),
        this::moreLoadNeverLowersP99);
  }

  private void moreLoadNeverLowersP99(ServiceDemand d, int n, double rate, int which) {
    SharingMode mode = switch (which) {
      case 0 -> new SharingMode.TimeSlicing(Math.max(2, n));
      case 1 -> SharingMode.Mps.devicePlugin(n);
      default -> SharingMode.Mps.unlimited(n);
    };
    assertThat(p99(mode, d, n, rate * 1.2)).isGreaterThanOrEqualTo(p99(mode, d, n, rate) * (1 - 1e-9));
  }

  @Test
  void burstierArrivalsNeverLowerP99() {
    Property.check(SEED, 200, demands(), Gen.ints(1, 4), Gen.doubles(0.5, 60), this::burstierArrivalsNeverLowerP99);
  }

  private void burstierArrivalsNeverLowerP99(ServiceDemand d, int n, double rate) {
    SharingMode mode = new SharingMode.TimeSlicing(Math.max(2, n));
    double poisson = forecast(mode, d, n, rate, 1.0).worstP99Ms();
    double bursty = forecast(mode, d, n, rate, 4.0).worstP99Ms();
    assertThat(bursty).isGreaterThanOrEqualTo(poisson * (1 - 1e-9));
  }

  @Test
  void unlimitedMpsIsNeverSlowerThanTimeSlicing() {
    Property.check(SEED, 200, demands(), Gen.ints(2, 8), Gen.doubles(0.5, 100),
        this::unlimitedMpsIsNeverSlowerThanTimeSlicing);
  }

  private void unlimitedMpsIsNeverSlowerThanTimeSlicing(ServiceDemand d, int n, double rate) {
    assertThat(p99(SharingMode.Mps.unlimited(n), d, n, rate))
        .isLessThanOrEqualTo(p99(new SharingMode.TimeSlicing(n), d, n, rate) * (1 + 1e-9));
  }

  @Test
  void backToBackThroughputNeverExceedsWhatTheCardCanServe() {
    Property.check(SEED, 100, demands(), Gen.ints(1, 12), this::backToBackThroughputNeverExceedsWhatTheCardCanServe);
  }

  private void backToBackThroughputNeverExceedsWhatTheCardCanServe(ServiceDemand d, int n) {
    List<Tenant> tenants = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      tenants.add(new Tenant("t" + i, d, 1024, 1, 1));
    }
    SharingMode mode = new SharingMode.TimeSlicing(Math.max(2, n));
    double x = MODEL.closedLoop(new Colocation(H100, mode, tenants)).aggregateThroughput();
    double work = Contention.of(mode, C).cardWork(d, n > 1);
    assertThat(x).isLessThanOrEqualTo(1000 / work * (1 + 1e-6));
    assertThat(x).isLessThanOrEqualTo(n * 1000 / d.aloneMs() * (1 + 1e-6));
  }

  @Test
  void theDevicePluginsCapSlowsMemoryBoundClientsLessThanTheirSmShareAndNeverLaunchBoundOnes() {
    Property.check(SEED, 100, demands(), Gen.ints(2, 8),
        this::theDevicePluginsCapSlowsMemoryBoundClientsLessThanTheirSmShareAndNeverLaunchBoundOnes);
  }

  private void theDevicePluginsCapSlowsMemoryBoundClientsLessThanTheirSmShareAndNeverLaunchBoundOnes(
      ServiceDemand d, int n) {
    List<Tenant> tenants = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      tenants.add(new Tenant("t" + i, d, 1024, 1, 1.0));
    }
    double capped = MODEL.closedLoop(new Colocation(H100, SharingMode.Mps.devicePlugin(n), tenants)).aggregateThroughput();
    double uncapped = MODEL.closedLoop(new Colocation(H100, SharingMode.Mps.unlimited(n), tenants)).aggregateThroughput();
    assertThat(capped).isLessThanOrEqualTo(uncapped * (1 + 1e-9));
    if (d.bound() == Boundness.LAUNCH) {
      assertThat(capped).isCloseTo(uncapped, org.assertj.core.api.Assertions.within(1e-9 * uncapped));
    } else {
      // N clients at 100/N % of the SMs together do better than one client with all of them.
      assertThat(capped).isGreaterThan(1000.0 / d.gpuMs());
    }
  }

  @Test
  void exclusiveNeverShares() {
    ServiceDemand d = new ServiceDemand(0, 5, Boundness.MEMORY);
    assertThatThrownBy(() -> new Colocation(H100, new SharingMode.Exclusive(),
        List.of(new Tenant("a", d, 1024, 1, 1), new Tenant("b", d, 1024, 1, 1))))
        .hasMessageContaining("at most 1 tenant");
  }

  @Test
  void aMigInstanceRunsOnlyOnItsOwnSlice() {
    var gpu = GpuCatalog.builtIn().byId("H100-80GB").orElseThrow();
    Device slice = Device.slice(gpu, gpu.migProfile("1g.10gb").orElseThrow());
    ServiceDemand d = new ServiceDemand(0, 5, Boundness.MEMORY);
    assertThatThrownBy(() -> new Colocation(slice, SharingMode.Mig.alone("3g.40gb"), List.of(new Tenant("a", d, 1024, 1, 1))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(slice.bandwidthGBps()).isEqualTo(3350.0 / 8);
  }
}
