package io.gpufleet.report.table;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Lines cut to a width lose no character and run past it nowhere, on seeded random text and tables. */
class WrapTest {

  private static final String ALPHABET = "abcdefghij/-.:=, ";

  private static String text(SplittableRandom r, int length) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < length; i++) {
      b.append(ALPHABET.charAt(r.nextInt(ALPHABET.length())));
    }
    return b.toString().strip();
  }

  private static String nonSpace(String s) {
    return s.replaceAll("\\s+", "");
  }

  @Test
  void piecesFitTheWidthAndKeepEveryCharacterInOrder() {
    SplittableRandom r = new SplittableRandom(31);
    for (int n = 0; n < 2_000; n++) {
      String t = text(r, r.nextInt(0, 200));
      int width = r.nextInt(1, 60);
      List<String> pieces = Wrap.lines(t, width);
      assertThat(pieces).allSatisfy(p -> assertThat(p.length()).isLessThanOrEqualTo(width));
      assertThat(nonSpace(String.join("", pieces))).isEqualTo(nonSpace(t));
    }
  }

  @Test
  void breaksAfterASpaceOrASeparatorBeforeInsideAWord() {
    assertThat(Wrap.lines("0/1 nodes are available: 1 Insufficient nvidia.com/gpu.", 20))
        .containsExactly("0/1 nodes are", "available: 1", "Insufficient", "nvidia.com/gpu.");
    assertThat(Wrap.lines("GPU-12e8b299-c70f-3747-8a5d-5cddc51ce232::0", 24))
        .containsExactly("GPU-12e8b299-c70f-3747-", "8a5d-5cddc51ce232::0");
    assertThat(Wrap.lines("abcdefghijkl", 5)).containsExactly("abcde", "fghij", "kl");
    assertThat(Wrap.lines("fits", 4)).containsExactly("fits");
  }

  @Test
  void aFoldedLineContinuesUnderItsValue() {
    String line = "  service         Deployment/default/vllm-sliced: all wanted Ready +06:10, then at least 4";
    assertThat(Wrap.fold(line, 60)).isEqualTo(
        "  service         Deployment/default/vllm-sliced: all wanted\n"
        + "                  Ready +06:10, then at least 4");
    assertThat(Wrap.fold("  - a risk that goes on and on and on", 20)).isEqualTo(
        "  - a risk that goes\n"
        + "    on and on and on");
    assertThat(Wrap.fold(line, line.length())).isEqualTo(line);
  }

  @Test
  void aTableNarrowsToTheWidthAndEachCellReadsOnDownItsColumn() {
    SplittableRandom r = new SplittableRandom(120);
    for (int n = 0; n < 500; n++) {
      int columns = r.nextInt(1, 7);
      List<String> headers = new ArrayList<>();
      for (int c = 0; c < columns; c++) {
        headers.add("h" + c);
      }
      List<List<String>> rows = new ArrayList<>();
      for (int k = r.nextInt(0, 6); k > 0; k--) {
        List<String> row = new ArrayList<>();
        for (int c = 0; c < columns; c++) {
          row.add(text(r, r.nextInt(0, 80)));
        }
        rows.add(row);
      }
      // Every column can go down to MIN_COLUMN: a width above that sum is always met.
      int width = columns * Table.MIN_COLUMN + 3 * (columns - 1) + r.nextInt(0, 100);
      String out = new Table(headers, rows).render(width);
      assertThat(out.lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(width));
      String wide = new Table(headers, rows).render();
      assertThat(sorted(nonSpace(out))).isEqualTo(sorted(nonSpace(wide)));
      // Each column's cells come back in order from its slice of the lines, nothing from a neighbour.
      int[] start = starts(out.lines().findFirst().orElseThrow(), headers);
      List<String> lines = out.lines().skip(1).toList(); // one-word headers: one header line
      for (int c = 0; c < columns; c++) {
        StringBuilder read = new StringBuilder();
        StringBuilder cells = new StringBuilder();
        for (String l : lines) {
          read.append(slice(l, start, c));
        }
        for (List<String> row : rows) {
          cells.append(row.get(c));
        }
        assertThat(nonSpace(read.toString())).isEqualTo(nonSpace(cells.toString()));
      }
    }
  }

  @Test
  void proseGivesWayBeforeNames() {
    Table t = Table.of("object", "message").row("nvidia-device-plugin/nvidia-device-plugin-n5p2c",
        "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: 0/1 nodes are available");
    String out = t.render(110);
    assertThat(out.lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(110));
    assertThat(out).contains("nvidia-device-plugin/nvidia-device-plugin-n5p2c   0/1 nodes are available");
  }

  private static String sorted(String s) {
    char[] c = s.toCharArray();
    java.util.Arrays.sort(c);
    return new String(c);
  }

  private static int[] starts(String header, List<String> headers) {
    int[] start = new int[headers.size()];
    for (int c = 0; c < headers.size(); c++) {
      start[c] = header.indexOf(headers.get(c).toUpperCase(java.util.Locale.ROOT), c == 0 ? 0 : start[c - 1] + 1);
    }
    return start;
  }

  private static String slice(String line, int[] start, int c) {
    if (line.length() <= start[c]) {
      return "";
    }
    int end = c + 1 < start.length ? Math.min(line.length(), start[c + 1]) : line.length();
    return line.substring(start[c], end);
  }
}
