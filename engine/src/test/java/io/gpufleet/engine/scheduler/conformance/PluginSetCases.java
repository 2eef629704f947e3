package io.gpufleet.engine.scheduler.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.scheduler.SchedulerProfile;
import io.gpufleet.model.scheduling.SchedulerConfiguration;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * How a profile's plugins merge with the defaults: {@code pkg/scheduler/apis/config/v1/default_plugins_test.go}
 * TestMergePlugins (mergePluginSet). Upstream merges abstract plugin sets ("DefaultPlugin1",
 * "CustomPlugin") at the Filter point; the twin's profiles configure score plugins, so each case maps
 * the default plugins onto kube-scheduler's default score plugins in order (DefaultPlugin1 / Plugin1 →
 * TaintToleration, DefaultPlugin2 / Plugin2 → NodeAffinity, Plugin3 → ImageLocality) and a custom plugin
 * onto ImageLocality re-enabled, and checks upstream's merged set as the profile's score plugins:
 * which are on and, where the case writes weights, their weights. An enabled plugin is an entry of
 * {@code scoreWeights} (0: no weight written), as the decoder reads {@code enabled}. Cases that need a
 * plugin the twin cannot run (an out-of-tree "CustomPlugin" alone, a plugin enabled twice) are not
 * translated.
 */
final class PluginSetCases {
  private PluginSetCases() {}

  static final String PLUGIN = "profile plugins";
  static final String FILE = "pkg/scheduler/apis/config/v1/default_plugins_test.go";
  private static final String TT = "TaintToleration";
  private static final String NA = "NodeAffinity";
  private static final String IL = "ImageLocality";

  static List<UpstreamCase> cases() {
    List<UpstreamCase> c = new ArrayList<>();
    String t = "TestMergePlugins/";
    c.add(on(t + "ApplyNilCustomPlugin", config(Map.of(), Set.of()),
        names -> assertThat(names).containsKeys(TT, NA)));
    c.add(on(t + "InsertAfterDefaultPlugins2", config(Map.of(IL, 0, NA, 0), Set.of()),
        names -> assertThat(names).containsKeys(TT, IL, NA)));
    c.add(on(t + "InsertBeforeAllPlugins", config(Map.of(IL, 0, TT, 0, NA, 0), Set.of("*")),
        names -> assertThat(names.keySet()).containsExactlyInAnyOrder(IL, TT, NA)));
    c.add(on(t + "ReorderDefaultPlugins", config(Map.of(NA, 0, TT, 0), Set.of("*")),
        names -> assertThat(names.keySet()).containsExactlyInAnyOrder(NA, TT)));
    c.add(on(t + "CustomPluginOverrideDefaultPlugin", config(Map.of(TT, 2, IL, 3), Set.of()),
        names -> assertThat(names).containsEntry(TT, 2L).containsEntry(IL, 3L).containsKey(NA)));
    c.add(on(t + "OrderPreserveAfterOverride", config(Map.of(NA, 2, TT, 1), Set.of()),
        names -> assertThat(names).containsEntry(TT, 1L).containsEntry(NA, 2L).containsKey(IL)));
    c.add(on(t + "override default MultiPoint plugins with custom value", config(Map.of(TT, 5), Set.of()),
        names -> assertThat(names).containsEntry(TT, 5L)));
    c.add(on(t + "multipoint with only disabled gets merged", config(Map.of(), Set.of(TT)),
        names -> assertThat(names).doesNotContainKey(TT).containsKeys(NA, IL)));
    return c;
  }

  private static SchedulerConfiguration config(Map<String, Integer> enabled, Set<String> disabled) {
    SchedulerConfiguration d = SchedulerConfiguration.defaults();
    return new SchedulerConfiguration(d.schedulerName(), d.percentageOfNodesToScore(), d.strategy(), d.resources(),
        d.shape(), enabled, disabled, d.balancedResources(), d.ignoredResources(), d.ignoredResourceGroups());
  }

  /** The profile's score plugins that are on (weight above 0), by name, with their weights. */
  private static UpstreamCase on(String name, SchedulerConfiguration config,
      java.util.function.Consumer<Map<String, Long>> check) {
    return UpstreamCase.of(PLUGIN, FILE, name, () -> {
      Map<String, Long> on = new TreeMap<>();
      for (SchedulerProfile.WeightedScore ws : SchedulerProfile.of(config).scores()) {
        if (ws.weight() > 0) {
          on.put(ws.plugin().pluginName(), ws.weight());
        }
      }
      check.accept(on);
    });
  }
}
