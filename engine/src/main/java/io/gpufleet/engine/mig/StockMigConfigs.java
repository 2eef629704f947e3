package io.gpufleet.engine.mig;

import io.gpufleet.model.deviceplugin.MigPartedConfig;
import io.gpufleet.model.gpu.GpuInventory;
import io.gpufleet.model.gpu.GpuModel;
import io.gpufleet.model.gpu.MigLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The GPU Operator's stock MIG manager config, the {@code default-mig-parted-config} ConfigMap,
 * entry for entry as NVIDIA ships it ({@code NVIDIA/gpu-operator}
 * {@code assets/state-mig-manager/0400_configmap.yaml} at {@code a22dbf67}): every node gets the
 * same file, and each entry's {@code device-filter} (PCI device IDs) decides which GPUs it applies
 * to. A config naming a profile the GPU lacks fails at apply time, as mig-parted does; one whose
 * entries select none of the node's GPUs changes nothing. The verbatim upstream file is a test
 * resource that a test decodes and compares with this data.
 */
public final class StockMigConfigs {
  private StockMigConfigs() {}

  /** The config's own comment: "H100-80GB, H800-80GB, A100-80GB, A800-80GB". */
  private static final List<String> H100_A100_80GB = List.of("0x233010DE", "0x233110DE", "0x232210DE",
      "0x20B210DE", "0x20B510DE", "0x20F310DE", "0x20F510DE", "0x232410DE");
  /** "A100-40GB, A800-40GB". */
  private static final List<String> A100_40GB = List.of("0x20B010DE", "0x20B110DE", "0x20F110DE", "0x20F610DE");
  /** "H100-96GB, PG506-96GB, GH200, H20". */
  private static final List<String> H100_96GB = List.of("0x234210DE", "0x233D10DE", "0x20B610DE", "0x232910DE");

  private static final MigPartedConfig STOCK = build();

  /** The whole stock config, every layout for every GPU model. */
  public static MigPartedConfig stock() {
    return STOCK;
  }

  /**
   * The stock configs a node with this GPU model runs against: the one file, the same for every
   * model (the device filters inside it pick the entries). Kept per model so callers need not know.
   */
  public static MigPartedConfig forModel(GpuModel gpu) {
    return STOCK;
  }

  /** The stock configs with the user's on top (a user's config replaces a stock one of the same name). */
  public static MigPartedConfig withUserConfigs(GpuModel gpu, MigPartedConfig user) {
    TreeMap<String, List<MigPartedConfig.Entry>> configs = new TreeMap<>(forModel(gpu).configs());
    configs.putAll(user.configs());
    return new MigPartedConfig(configs);
  }

  /**
   * The stock layouts that apply cleanly to one GPU of this model and turn MIG on: the names a user
   * of that GPU can label a node with, and the layout each gives (in name order).
   */
  public static Map<String, MigLayout> layoutsFor(GpuModel gpu) {
    Map<String, MigLayout> out = new LinkedHashMap<>();
    if (!gpu.migCapable()) {
      return out;
    }
    GpuInventory one = new GpuInventory("stock", gpu, 1);
    for (String name : STOCK.configs().keySet()) {
      if (MigConfigPlanner.plan(STOCK, name, one, MigLayout.NONE) instanceof LayoutPlan.Planned p
          && p.layout().migEnabled(0)) {
        out.put(name, p.layout());
      }
    }
    return out;
  }

  private static MigPartedConfig build() {
    Map<String, List<MigPartedConfig.Entry>> s = new LinkedHashMap<>();
    put(s, "all-disabled", disabled());
    put(s, "all-enabled", enabled());
    put(s, "all-1g.5gb", enabled("1g.5gb", 7));
    put(s, "all-1g.5gb.me", enabled("1g.5gb+me", 1));
    put(s, "all-2g.10gb", enabled("2g.10gb", 3));
    put(s, "all-3g.20gb", enabled("3g.20gb", 2));
    put(s, "all-4g.20gb", enabled("4g.20gb", 1));
    put(s, "all-7g.40gb", enabled("7g.40gb", 1));
    put(s, "all-1g.24gb.gfx", enabled("1g.24gb+gfx", 4));
    put(s, "all-1g.24gb.me.all", enabled("1g.24gb+me.all", 1));
    put(s, "all-1g.24gb-me", enabled("1g.24gb-me", 4));
    put(s, "all-2g.48gb", enabled("2g.48gb", 2));
    put(s, "all-2g.48gb.gfx", enabled("2g.48gb+gfx", 2));
    put(s, "all-2g.48gb.me.all", enabled("2g.48gb+me.all", 1));
    put(s, "all-2g.48gb-me", enabled("2g.48gb-me", 2));
    put(s, "all-4g.96gb", enabled("4g.96gb", 1));
    put(s, "all-4g.96gb.gfx", enabled("4g.96gb+gfx", 1));
    put(s, "all-1g.10gb",
        filtered(H100_A100_80GB, "1g.10gb", 7),
        filtered(A100_40GB, "1g.10gb", 4));
    put(s, "all-1g.10gb.me", enabled("1g.10gb+me", 1));
    put(s, "all-1g.20gb", enabled("1g.20gb", 4));
    put(s, "all-1g.23gb", enabled("1g.23gb", 7));
    put(s, "all-1g.23gb.me", enabled("1g.23gb+me", 1));
    put(s, "all-1g.24gb.me", enabled("1g.24gb+me", 1));
    put(s, "all-2g.20gb", enabled("2g.20gb", 3));
    put(s, "all-3g.40gb", enabled("3g.40gb", 2));
    put(s, "all-4g.40gb", enabled("4g.40gb", 1));
    put(s, "all-7g.80gb", enabled("7g.80gb", 1));
    put(s, "all-1g.6gb", enabled("1g.6gb", 4));
    put(s, "all-1g.6gb.me", enabled("1g.6gb+me", 1));
    put(s, "all-2g.12gb", enabled("2g.12gb", 2));
    put(s, "all-2g.12gb.me", enabled("2g.12gb+me", 1));
    put(s, "all-4g.24gb", enabled("4g.24gb", 1));
    put(s, "all-1g.12gb", enabled("1g.12gb", 7));
    put(s, "all-1g.12gb.me", enabled("1g.12gb+me", 1));
    put(s, "all-1g.24gb", enabled("1g.24gb", 4));
    put(s, "all-1g.45gb", enabled("1g.45gb", 4));
    put(s, "all-1g.47gb", enabled("1g.47gb", 4));
    put(s, "all-2g.24gb", enabled("2g.24gb", 3));
    put(s, "all-2g.45gb", enabled("2g.45gb", 3));
    put(s, "all-2g.47gb", enabled("2g.47gb", 3));
    put(s, "all-3g.47gb", enabled("3g.47gb", 2));
    put(s, "all-4g.47gb", enabled("4g.47gb", 1));
    put(s, "all-7g.94gb", enabled("7g.94gb", 1));
    put(s, "all-3g.48gb", enabled("3g.48gb", 2));
    put(s, "all-3g.90gb", enabled("3g.90gb", 2));
    put(s, "all-3g.93gb", enabled("3g.93gb", 2));
    put(s, "all-3g.95gb", enabled("3g.95gb", 2));
    put(s, "all-4g.48gb", enabled("4g.48gb", 1));
    put(s, "all-4g.90gb", enabled("4g.90gb", 1));
    put(s, "all-4g.93gb", enabled("4g.93gb", 1));
    put(s, "all-4g.95gb", enabled("4g.95gb", 1));
    put(s, "all-7g.96gb", enabled("7g.96gb", 1));
    put(s, "all-7g.180gb", enabled("7g.180gb", 1));
    put(s, "all-7g.186gb", enabled("7g.186gb", 1));
    put(s, "all-7g.189gb", enabled("7g.189gb", 1));
    put(s, "all-balanced",
        filtered(List.of("0x294110DE"), "1g.23gb", 2, "2g.47gb", 1, "3g.93gb", 1),
        filtered(List.of("0x2BB510DE"), "1g.24gb", 2, "2g.48gb", 1),
        filtered(List.of("0x290110DE"), "1g.23gb", 2, "2g.45gb", 1, "3g.90gb", 1),
        filtered(List.of("0x234810DE"), "1g.18gb", 2, "2g.36gb", 1, "3g.72gb", 1),
        filtered(List.of("0x233510DE", "0x233B10DE"), "1g.18gb", 2, "2g.35gb", 1, "3g.71gb", 1),
        filtered(List.of("0x232110DE", "0x233A10DE"), "1g.12gb", 2, "2g.24gb", 1, "3g.47gb", 1),
        filtered(H100_A100_80GB, "1g.10gb", 2, "2g.20gb", 1, "3g.40gb", 1),
        filtered(A100_40GB, "1g.5gb", 2, "2g.10gb", 1, "3g.20gb", 1),
        filtered(List.of("0x20B710DE"), "1g.6gb", 2, "2g.12gb", 1),
        filtered(H100_96GB, "1g.12gb", 2, "2g.24gb", 1, "3g.48gb", 1),
        filtered(List.of("0x318210DE"), "1g.34gb", 2, "2g.67gb", 1, "3g.135gb", 1),
        filtered(List.of("0x31C210DE"), "1g.35gb", 2, "2g.70gb", 1, "3g.139gb", 1));
    put(s, "all-1g.18gb", enabled("1g.18gb", 7));
    put(s, "all-1g.18gb.me", enabled("1g.18gb+me", 1));
    put(s, "all-1g.35gb",
        filtered(List.of("0x233510DE"), "1g.35gb", 4),
        filtered(List.of("0x31C210DE"), "1g.35gb", 7));
    put(s, "all-2g.35gb", enabled("2g.35gb", 3));
    put(s, "all-3g.71gb", enabled("3g.71gb", 2));
    put(s, "all-4g.71gb", enabled("4g.71gb", 1));
    put(s, "all-7g.141gb", enabled("7g.141gb", 1));
    put(s, "all-1g.36gb", enabled("1g.36gb", 4));
    put(s, "all-2g.36gb", enabled("2g.36gb", 3));
    put(s, "all-3g.72gb", enabled("3g.72gb", 2));
    put(s, "all-4g.72gb", enabled("4g.72gb", 1));
    put(s, "all-7g.144gb", enabled("7g.144gb", 1));
    put(s, "all-1g.34gb", enabled("1g.34gb", 7));
    put(s, "all-1g.34gb.me", enabled("1g.34gb+me", 1));
    put(s, "all-1g.67gb", enabled("1g.67gb", 4));
    put(s, "all-2g.67gb", enabled("2g.67gb", 3));
    put(s, "all-3g.135gb", enabled("3g.135gb", 2));
    put(s, "all-4g.135gb", enabled("4g.135gb", 1));
    put(s, "all-7g.269gb", enabled("7g.269gb", 1));
    put(s, "all-1g.35gb.me", enabled("1g.35gb+me", 1));
    put(s, "all-1g.70gb", enabled("1g.70gb", 4));
    put(s, "all-2g.70gb", enabled("2g.70gb", 3));
    put(s, "all-3g.139gb", enabled("3g.139gb", 2));
    put(s, "all-4g.139gb", enabled("4g.139gb", 1));
    put(s, "all-7g.278gb", enabled("7g.278gb", 1));
    return MigPartedConfig.of(s);
  }

  private static void put(Map<String, List<MigPartedConfig.Entry>> s, String name, MigPartedConfig.Entry... entries) {
    if (s.put(name, List.of(entries)) != null) {
      throw new IllegalStateException("duplicate stock config " + name);
    }
  }

  private static MigPartedConfig.Entry disabled() {
    return MigPartedConfig.Entry.all(false, Map.of());
  }

  /** {@code devices: all}, no filter, MIG on with {@code profile, count} pairs. */
  private static MigPartedConfig.Entry enabled(Object... profileCounts) {
    return filtered(List.of(), profileCounts);
  }

  private static MigPartedConfig.Entry filtered(List<String> deviceFilter, Object... profileCounts) {
    TreeMap<String, Integer> devices = new TreeMap<>();
    for (int i = 0; i < profileCounts.length; i += 2) {
      devices.put((String) profileCounts[i], (Integer) profileCounts[i + 1]);
    }
    return new MigPartedConfig.Entry(new ArrayList<>(deviceFilter), Optional.empty(), true, devices);
  }
}
