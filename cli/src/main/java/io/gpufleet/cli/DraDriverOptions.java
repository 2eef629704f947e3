package io.gpufleet.cli;

import io.gpufleet.engine.dra.GpuClaimPreparation;
import picocli.CommandLine.Option;

/**
 * {@code --dra-feature-gates}: NVIDIA's DRA driver's feature gates (its chart's {@code featureGates}),
 * for the commands that show what the driver publishes and prepares ({@code schedule}, {@code smi}).
 */
final class DraDriverOptions {

  @Option(names = "--dra-feature-gates", paramLabel = "GATE=BOOL,...",
      description = "NVIDIA DRA driver feature gates (TimeSlicingSettings, MPSSupport, DynamicMIG; all off by "
          + "default, as upstream): whether a claim's GpuConfig sharing applies, and whether MIG-capable cards are "
          + "published as partitionable devices (docs/commands.md).")
  String draFeatureGates;

  /** {@code GATE=true|false}, comma-separated; an unknown gate or value is an error by name. */
  GpuClaimPreparation.FeatureGates gates() {
    GpuClaimPreparation.FeatureGates gates = GpuClaimPreparation.FeatureGates.DEFAULTS;
    if (draFeatureGates == null || draFeatureGates.isBlank()) {
      return gates;
    }
    for (String item : draFeatureGates.split(",")) {
      String[] kv = item.strip().split("=", 2);
      String value = kv.length == 2 ? kv[1].strip() : "";
      if (!value.equals("true") && !value.equals("false")) {
        throw new UserError("--dra-feature-gates: expected GATE=true or GATE=false, found \"" + item.strip() + "\"");
      }
      gates = gates.with(kv[0].strip(), Boolean.parseBoolean(value)).orElseThrow(() -> new UserError(
          "--dra-feature-gates: expected one of " + String.join(", ", GpuClaimPreparation.FeatureGates.NAMES)
              + ", found \"" + kv[0].strip() + "\""));
    }
    return gates;
  }
}
