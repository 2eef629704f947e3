package io.gpufleet.manifest.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The reading order of locations across files, as findings and diagnostics are sorted in it. */
class LocationTest {

  /** The order as first written: a file's place by a scan of the list, per comparison. */
  private static int byScan(List<String> files, Location a, Location b) {
    int c = Integer.compare(files.indexOf(a.file()), files.indexOf(b.file()));
    if (c == 0) {
      c = Integer.compare(a.line(), b.line());
    }
    return c != 0 ? c : Integer.compare(a.column(), b.column());
  }

  @Test
  void filesAsGivenThenLineThenColumn() {
    Comparator<Location> order = Location.inFiles(List.of("b.yaml", "a.yaml"));
    List<Location> sorted = new ArrayList<>(List.of(new Location("a.yaml", 1, 1), new Location("b.yaml", 9, 3),
        new Location("b.yaml", 9, 1), new Location("other.yaml", 5, 5), new Location("b.yaml", 2, 7)));
    sorted.sort(order);
    // A file not in the list comes first, as its place (-1) is before every listed file's.
    assertThat(sorted).containsExactly(new Location("other.yaml", 5, 5), new Location("b.yaml", 2, 7),
        new Location("b.yaml", 9, 1), new Location("b.yaml", 9, 3), new Location("a.yaml", 1, 1));
  }

  @Test
  void agreesWithAScanOfTheFilesOnSeededLocations() {
    SplittableRandom random = new SplittableRandom(33);
    for (int round = 0; round < 200; round++) {
      List<String> files = new ArrayList<>();
      int n = random.nextInt(1, 8);
      for (int i = 0; i < n; i++) {
        files.add("f" + random.nextInt(10) + ".yaml"); // repeats: a file's first place counts
      }
      Comparator<Location> order = Location.inFiles(files);
      for (int i = 0; i < 50; i++) {
        Location a = new Location("f" + random.nextInt(12) + ".yaml", random.nextInt(4), random.nextInt(3));
        Location b = new Location("f" + random.nextInt(12) + ".yaml", random.nextInt(4), random.nextInt(3));
        assertThat(Integer.signum(order.compare(a, b))).as("%s %s in %s", a, b, files)
            .isEqualTo(Integer.signum(byScan(files, a, b)));
      }
    }
  }
}
