package io.gpufleet.engine.placement;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/** The placement policies a replay can run, by the names users type. */
public enum PolicyKind {
  RANDOM("Random", m -> new RandomFit(), "random", "randomfit"),
  DOT_PRODUCT("DotProduct", m -> new DotProduct(), "dotproduct", "dotprod"),
  GPU_CLUSTERING("GpuClustering", m -> new GpuClustering(), "gpuclustering"),
  GPU_PACKING("GpuPacking", m -> new GpuPacking(), "gpupacking"),
  BEST_FIT("BestFit", m -> new BestFit(), "bestfit"),
  FGD("FGD", FragmentationGradientDescent::new, "fgd", "fragmentationgradientdescent"),
  FGD_CPU("FGD-CPU", CpuAwareFragmentationGradientDescent::new, "fgdcpu", "cpuawarefgd",
      "cpuawarefragmentationgradientdescent");

  /** The six policies of the FGD paper, in its order. */
  public static final List<PolicyKind> PAPER = List.of(RANDOM, DOT_PRODUCT, GPU_CLUSTERING, GPU_PACKING, BEST_FIT, FGD);

  /** The paper's six and ours. */
  public static final List<PolicyKind> ALL = List.of(values());

  private final String title;
  private final Function<Fragmentation, PlacementPolicy> factory;
  private final List<String> aliases;

  PolicyKind(String title, Function<Fragmentation, PlacementPolicy> factory, String... aliases) {
    this.title = title;
    this.factory = factory;
    this.aliases = List.of(aliases);
  }

  public String title() {
    return title;
  }

  /** A fresh policy for one run; {@code measure} is that run's fragmentation measure. */
  public PlacementPolicy create(Fragmentation measure) {
    return factory.apply(measure);
  }

  /** The policy a user named, ignoring case. */
  public static Optional<PolicyKind> parse(String name) {
    String n = name.trim().toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
    return Arrays.stream(values()).filter(k -> k.aliases.contains(n)).findFirst();
  }

  /** The names {@link #parse} accepts, one per policy, as the commands spell them (fgd-cpu), for error messages. */
  public static String names() {
    return String.join(", ", Arrays.stream(values()).map(k -> k.title.toLowerCase(Locale.ROOT)).toList());
  }
}
