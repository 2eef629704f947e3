package io.gpufleet.cli.nvidiaconformance;

import static io.gpufleet.cli.nvidiaconformance.Configs.accepted;
import static io.gpufleet.cli.nvidiaconformance.Configs.migParted;
import static io.gpufleet.cli.nvidiaconformance.Configs.refused;

import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;

/**
 * NVIDIA/mig-parted {@code api/spec/v1/spec_test.go}: TestSpec and TestMigConfigSpec, by their
 * {@code Description}. A TestMigConfigSpec entry is written as the one entry of a config
 * {@code c}; its "Empty" case (an empty document decoded as one entry) has no counterpart there.
 */
final class MigPartedSpecCases {
  private MigPartedSpecCases() {}

  static final String AREA = "mig-parted config";
  static final String FILE = "api/spec/v1/spec_test.go";

  private static UpstreamCase spec(String name, String yaml, boolean ok) {
    return UpstreamCase.of(AREA, FILE, "TestSpec/" + name, () -> {
      if (ok) {
        accepted(migParted(yaml));
      } else {
        refused(migParted(yaml));
      }
    });
  }

  private static UpstreamCase entry(String name, boolean ok, String words, String... lines) {
    StringBuilder b = new StringBuilder("version: v1\nmig-configs:\n  c:\n");
    for (int i = 0; i < lines.length; i++) {
      b.append(i == 0 ? "  - " : "    ").append(lines[i]).append('\n');
    }
    return UpstreamCase.of(AREA, FILE, "TestMigConfigSpec/" + name, () -> {
      if (ok) {
        accepted(migParted(b.toString()));
      } else if (words.isEmpty()) {
        refused(migParted(b.toString()));
      } else {
        refused(migParted(b.toString()), words);
      }
    });
  }

  static List<UpstreamCase> cases() {
    List<UpstreamCase> c = new ArrayList<>();
    String disabled = "mig-configs:\n  all-disabled:\n  - devices: all\n    mig-enabled: false\n";
    c.add(spec("Empty", "", true));
    c.add(spec("Well formed", "version: v1\n" + disabled, true));
    c.add(spec("Only version field", "version: v1\n", true));
    c.add(spec("Well formed - wrong version", "version: v2\n" + disabled, false));
    c.add(spec("Only version field - wrong versiomn", "version: v2\n", false));
    c.add(spec("Missing version field", disabled, false));
    c.add(spec("Erroneous field", "bogus: field\nversion: v1\n" + disabled, false));
    c.add(spec("Empty 'mig-configs'", "version: v1\nmig-configs: {}\n", false));
    c.add(entry("Well formed", true, "", "devices: all", "mig-enabled: true", "mig-devices:", "  \"1g.5gb\": 2"));
    c.add(entry("Well formed with filter", true, "", "device-filter: MODEL", "devices: all", "mig-enabled: true",
        "mig-devices:", "  \"1g.5gb\": 2"));
    c.add(entry("Well formed with multi-filter", true, "", "device-filter: [MODEL1, MODEL2]", "devices: all",
        "mig-enabled: true", "mig-devices:", "  \"1g.5gb\": 2"));
    c.add(entry("Missing 'devices'", false, "missing required field: devices", "mig-enabled: true", "mig-devices:",
        "  \"1g.5gb\": 2"));
    c.add(entry("Missing 'mig-enabled'", false, "missing required field: mig-enabled", "devices: all",
        "mig-devices:", "  \"1g.5gb\": 2"));
    c.add(entry("Missing 'mig-devices', enabled: false", true, "", "devices: all", "mig-enabled: false"));
    c.add(entry("Missing 'mig-devices', enabled: true", false,
        "missing required field 'mig-devices' when 'mig-enabled' is true", "devices: all", "mig-enabled: true"));
    c.add(entry("'mig-devices' formatted correctly", true, "", "devices: all", "mig-enabled: true", "mig-devices:",
        "  \"1g.5gb\": 2"));
    c.add(entry("'mig-devices' formatted incorrectly", false, "invalid format for 'bogus'", "devices: all",
        "mig-enabled: true", "mig-devices:", "  \"bogus\": 2"));
    c.add(entry("Erroneous field", false, "", "bogus: field", "devices: all", "mig-enabled: false"));
    c.add(entry("'devices' string == all", true, "", "devices: all", "mig-enabled: false"));
    c.add(entry("'devices' string != all", false, "invalid string input for 'devices': bogus", "devices: bogus",
        "mig-enabled: false"));
    c.add(entry("'devices' []int", true, "", "devices: [0,1,2,3]", "mig-enabled: false"));
    c.add(entry("'devices' not string for []int", false, "", "devices: {}", "mig-enabled: false"));
    return c;
  }
}
