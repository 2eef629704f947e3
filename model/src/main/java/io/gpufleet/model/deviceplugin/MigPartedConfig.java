package io.gpufleet.model.deviceplugin;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A mig-parted config ({@code version: v1}, {@code mig-configs}): named layouts, each a list of
 * entries that pick GPUs by PCI device ID and index and say what to create on them
 * (k8s-gpu-semantics §2.4).
 */
public record MigPartedConfig(SortedMap<String, List<Entry>> configs) {

  /** The node label the MIG manager watches. */
  public static final String CONFIG_LABEL = "nvidia.com/mig.config";
  /** The label it reports progress in: {@code pending}, {@code rebooting}, {@code success}, {@code failed}. */
  public static final String STATE_LABEL = "nvidia.com/mig.config.state";

  public MigPartedConfig {
    TreeMap<String, List<Entry>> m = new TreeMap<>();
    configs.forEach((k, v) -> m.put(k, List.copyOf(v)));
    configs = Collections.unmodifiableSortedMap(m);
  }

  public static MigPartedConfig of(Map<String, List<Entry>> configs) {
    return new MigPartedConfig(new TreeMap<>(configs));
  }

  public Optional<List<Entry>> config(String name) {
    return Optional.ofNullable(configs.get(name));
  }

  /**
   * One entry. {@code deviceFilter} empty matches every GPU model; {@code devices} empty means
   * {@code all}; {@code migDevices} maps a profile name to how many instances to create.
   */
  public record Entry(List<String> deviceFilter, Optional<List<Integer>> devices, boolean migEnabled,
      SortedMap<String, Integer> migDevices) {
    public Entry {
      deviceFilter = List.copyOf(deviceFilter);
      devices = devices == null ? Optional.empty() : devices.map(List::copyOf);
      migDevices = Collections.unmodifiableSortedMap(new TreeMap<>(migDevices));
    }

    public static Entry all(boolean migEnabled, Map<String, Integer> migDevices) {
      return new Entry(List.of(), Optional.empty(), migEnabled, new TreeMap<>(migDevices));
    }
  }
}
