package io.gpufleet.engine.dra;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.dra.GpuClaimPreparation.FeatureGates;
import io.gpufleet.engine.dra.GpuClaimPreparation.Outcome;
import io.gpufleet.engine.dra.GpuClaimPreparation.PreparedDevice;
import io.gpufleet.engine.dra.GpuClaimPreparation.Sharing;
import io.gpufleet.model.dra.DeviceConfig;
import io.gpufleet.model.dra.GpuConfig;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.dra.ResourceClaimSpec;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** NVIDIA's kubelet plugin preparing a claim: which config a device takes, and the driver's checks and words. */
class GpuClaimPreparationTest {

  static final FeatureGates OFF = FeatureGates.DEFAULTS;
  static final FeatureGates TIME_SLICING = new FeatureGates(true, false);
  static final FeatureGates MPS = new FeatureGates(false, true);

  static final Allocation TWO = new Allocation("default/c", "n", List.of(
      new Allocation.Result("a", GpuConfig.DRIVER, "n", "gpu-0"),
      new Allocation.Result("b", GpuConfig.DRIVER, "n", "gpu-1")));
  static final Map<String, String> UUIDS = Map.of("gpu-0", "GPU-0000", "gpu-1", "GPU-1111");

  static DeviceConfig config(List<String> requests, GpuConfig.Sharing sharing) {
    return new DeviceConfig(requests, GpuConfig.DRIVER, new GpuConfig(Optional.of(sharing)));
  }

  static GpuConfig.Sharing timeSliced(String interval) {
    return new GpuConfig.Sharing("TimeSlicing", Optional.of(new GpuConfig.TimeSlicing(Optional.of(interval))),
        Optional.empty());
  }

  static GpuConfig.Sharing mps(Integer percentage, Long pinned, Map<String, Long> perDevice) {
    return new GpuConfig.Sharing("MPS", Optional.empty(), Optional.of(new GpuConfig.Mps(
        Optional.ofNullable(percentage), Optional.ofNullable(pinned), perDevice)));
  }

  static Outcome prepare(FeatureGates gates, DeviceConfig... configs) {
    ResourceClaim claim = new ResourceClaim("default", "c", new ResourceClaimSpec(List.of(), List.of(configs)));
    return GpuClaimPreparation.prepare(claim, TWO, gates, UUIDS);
  }

  static List<Sharing> sharing(Outcome o) {
    return ((Outcome.Prepared) o).devices().stream().map(PreparedDevice::sharing).toList();
  }

  static String failure(Outcome o) {
    return ((Outcome.Failed) o).message();
  }

  @Test
  void withTheGatesOffAClaimWithoutConfigGetsTheCardsUntouched() {
    assertThat(sharing(prepare(OFF))).containsExactly(new Sharing.Unset(), new Sharing.Unset());
  }

  @Test
  void withTimeSlicingSettingsOnTheDefaultConfigTimeSlicesWithTheDefaultInterval() {
    assertThat(sharing(prepare(TIME_SLICING))).containsOnly(new Sharing.TimeSliced("Default"));
  }

  @Test
  void aSharingStrategyWhoseGateIsOffFailsPreparationInTheDriversWords() {
    assertThat(failure(prepare(OFF, config(List.of(), timeSliced("Long"))))).isEqualTo("error validating GPU config: "
        + "\"TimeSlicing\" is selected as the GPU sharing strategy, but the \"TimeSlicingSettings\" feature gate is "
        + "not enabled");
    assertThat(failure(prepare(TIME_SLICING, config(List.of(), mps(null, null, Map.of())))))
        .isEqualTo("error validating GPU config: \"MPS\" is selected as the GPU sharing strategy, but the "
            + "\"MPSSupport\" feature gate is not enabled");
  }

  @Test
  void unknownStrategiesAndIntervalsAndPercentagesOutOfRangeAreRefused() {
    assertThat(failure(prepare(TIME_SLICING, config(List.of(), new GpuConfig.Sharing("Exclusive", Optional.empty(),
        Optional.empty()))))).isEqualTo("error validating GPU config: unknown GPU sharing strategy: Exclusive, "
            + "supported GPU sharing strategies: TimeSlicing, MPS");
    assertThat(failure(prepare(TIME_SLICING, config(List.of(), timeSliced("Huge"))))).isEqualTo("error validating GPU "
        + "config: unknown time-slice interval: Huge, supported time-slice intervals: Default, Short, Medium, Long");
    assertThat(failure(prepare(MPS, config(List.of(), mps(101, null, Map.of()))))).isEqualTo("error validating GPU "
        + "config: active thread percentage must not be greater than 100");
    assertThat(failure(prepare(MPS, config(List.of(), mps(-1, null, Map.of()))))).isEqualTo("error validating GPU "
        + "config: active thread percentage must not be negative");
  }

  @Test
  void theLastConfigThatAppliesToARequestWinsWhetherItNamesTheRequestOrNone() {
    // prepareDevices walks the configs backwards and takes the first that names the request or names none.
    Outcome o = prepare(TIME_SLICING, config(List.of("a"), timeSliced("Long")), config(List.of(), timeSliced("Short")));
    assertThat(sharing(o)).containsExactly(new Sharing.TimeSliced("Short"), new Sharing.TimeSliced("Short"));
    Outcome later = prepare(TIME_SLICING, config(List.of(), timeSliced("Short")), config(List.of("a"), timeSliced("Long")),
        config(List.of("a"), timeSliced("Medium")));
    assertThat(sharing(later)).containsExactly(new Sharing.TimeSliced("Medium"), new Sharing.TimeSliced("Short"));
  }

  @Test
  void mpsLimitsTakeTheDefaultThenPerDeviceOverridesByIndexInMegabytes() {
    Outcome o = prepare(MPS, config(List.of(), mps(25, 10L << 30, Map.of("1", 2L << 30))));
    assertThat(sharing(o)).containsExactly(new Sharing.Mps(Optional.of(25), Optional.of("10240M")),
        new Sharing.Mps(Optional.of(25), Optional.of("2048M")));
    assertThat(((Outcome.Prepared) o).devices().getFirst().containerEnv())
        .containsExactly("CUDA_MPS_PIPE_DIRECTORY=/tmp/nvidia-mps");
    assertThat(failure(prepare(MPS, config(List.of(), mps(null, null, Map.of("7", 1L << 30))))))
        .endsWith("error transforming DefaultPerDevicePinnedMemoryLimit into string: invalid device: invalid device "
            + "index: 7");
    assertThat(failure(prepare(MPS, config(List.of(), mps(null, 1024L, Map.of())))))
        .endsWith("invalid limit: default value set too low: 1024");
  }

  @Test
  void mpsIsRefusedUnderDynamicMigAsTheDriverRefusesIt() {
    FeatureGates both = new FeatureGates(false, true, true);
    assertThat(failure(prepare(both, config(List.of(), mps(25, null, Map.of()))))).isEqualTo("error applying config: "
        + "MPS is not yet supported when using featureGates.DynamicMIG=true");
  }

  @Test
  void aStrategyWithTheOtherStrategysConfigFailsWhenApplied() {
    GpuConfig.Sharing both = new GpuConfig.Sharing("TimeSlicing", Optional.of(new GpuConfig.TimeSlicing(
        Optional.of("Long"))), Optional.of(new GpuConfig.Mps(Optional.empty(), Optional.empty(), Map.of())));
    assertThat(failure(prepare(TIME_SLICING, config(List.of(), both)))).isEqualTo("error applying config: error "
        + "getting timeslice config for requests '[a b]' in claim 'default/c': cannot use MpsConfig with the "
        + "'TimeSlicing' strategy");
  }

  @Test
  void configsForOtherDriversAreNotTheNvidiaDrivers() {
    DeviceConfig other = new DeviceConfig(List.of(), "other.example.com", new GpuConfig(Optional.of(timeSliced("Huge"))));
    assertThat(sharing(prepare(OFF, other))).containsOnly(new Sharing.Unset());
  }
}
