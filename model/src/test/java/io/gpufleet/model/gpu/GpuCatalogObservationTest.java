package io.gpufleet.model.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The catalogue's H200 MIG profiles against {@code nvidia-smi mig -lgip} as printed on a real H200
 * (the raw output is kept in {@code data/h200-mig-lgip.txt}): every observed row, and nothing else.
 */
class GpuCatalogObservationTest {

  private static final Path OBSERVED = Path.of("..", "data", "h200-mig-lgip.txt");
  // "|   0  MIG 1g.18gb         19     7/7        16.00      No     16     1     0   |" then "|  ...  1     1     0   |"
  private static final Pattern ROW = Pattern.compile(
      "\\|\\s+\\d+\\s+MIG (\\S+)\\s+(\\d+)\\s+\\d+/(\\d+)\\s+([\\d.]+)\\s+\\S+\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+\\|");
  private static final Pattern SECOND = Pattern.compile("\\|\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+\\|");

  record Observed(String name, int gi, int max, double gib, int sm, MigEngines engines) { }

  @Test
  void everyH200ProfileIsAsTheRealCardPrintsIt() throws IOException {
    List<Observed> observed = parse(Files.readAllLines(OBSERVED, StandardCharsets.UTF_8));
    GpuModel h200 = GpuCatalog.builtIn().byId("H200-141GB").orElseThrow();

    assertThat(observed).hasSize(7);
    assertThat(h200.migProfiles()).extracting(MigProfile::name)
        .containsExactlyInAnyOrderElementsOf(observed.stream().map(Observed::name).toList());
    for (Observed o : observed) {
      MigProfile p = h200.migProfile(o.name()).orElseThrow();
      assertThat(p.giProfileId()).as(o.name() + " GI id").hasValue(o.gi());
      assertThat(p.maxInstances()).as(o.name() + " max").isEqualTo(o.max());
      assertThat(p.memoryGiB()).as(o.name() + " GiB").hasValue(o.gib());
      assertThat(p.multiprocessors()).as(o.name() + " SMs").hasValue(o.sm());
      assertThat(p.engines()).as(o.name() + " engines").hasValue(o.engines());
    }
  }

  private static List<Observed> parse(List<String> lines) {
    List<Observed> out = new ArrayList<>();
    for (int i = 0; i + 1 < lines.size(); i++) {
      Matcher m = ROW.matcher(lines.get(i));
      if (!m.find()) {
        continue;
      }
      Matcher s = SECOND.matcher(lines.get(i + 1));
      assertThat(s.find()).as("engine row after " + m.group(1)).isTrue();
      // -lgip: SM DEC ENC on the first line, CE JPEG OFA on the second.
      out.add(new Observed(m.group(1), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
          Double.parseDouble(m.group(4)), Integer.parseInt(m.group(5)),
          new MigEngines(Integer.parseInt(s.group(1)), Integer.parseInt(m.group(6)), Integer.parseInt(m.group(7)),
              Integer.parseInt(s.group(2)), Integer.parseInt(s.group(3)))));
    }
    return out;
  }
}
