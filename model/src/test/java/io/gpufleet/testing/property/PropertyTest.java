package io.gpufleet.testing.property;

import static io.gpufleet.testing.property.Gen.ints;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The runner finds a planted failure, shrinks it to the smallest sample, and draws the same samples every run. */
class PropertyTest {

  @Test
  void aHoldingPropertyRunsEveryTry() {
    List<Integer> seen = new ArrayList<>();
    Property.check(1, 250, ints(0, 9), seen::add);
    assertThat(seen).hasSize(250).allMatch(i -> i >= 0 && i <= 9);
  }

  @Test
  void aPlantedFailureInAListShrinksToTheFewestAndSmallestElementsThatBreakIt() {
    // Fails when some element is 50 or more: the smallest failing list is [50].
    var one = Property.find(7, 200, ints(0, 100).list(0, 50), list -> assertThat(list).allMatch(i -> i < 50));
    assertThat(one).map(Property.Failure::smallest).contains(List.of(50));
    // Fails when the sum reaches 150, which no single element can: found on a longer random list,
    // shrunk to two elements summing to exactly 150.
    var two = Property.find(7, 200, ints(0, 100).list(0, 50), list -> assertThat(sum(list)).isLessThan(150));
    assertThat(two).isPresent();
    assertThat(two.get().edgeCase()).isFalse();
    assertThat(two.get().first().size()).isGreaterThan(2);
    assertThat(two.get().shrinkSteps()).isPositive();
    assertThat(two.get().smallest()).hasSize(2);
    assertThat(sum(two.get().smallest())).isEqualTo(150);
    assertThat(two.get().shrinkLimitReached()).isFalse();
  }

  private static int sum(List<Integer> list) {
    return list.stream().mapToInt(Integer::intValue).sum();
  }

  @Test
  void aPlantedFailureInANumberShrinksToTheBoundary() {
    var failure = Property.find(3, 100, Gen.longs(0, 1L << 40), n -> assertThat(n).isLessThan(123_456L));
    assertThat(failure).map(Property.Failure::smallest).contains(123_456L);
    var negative = Property.find(3, 100, ints(-1_000_000, 1_000_000), n -> assertThat(n).isGreaterThan(-777));
    assertThat(negative).map(Property.Failure::smallest).contains(-777);
  }

  @Test
  void componentsOfATupleShrinkOneByOne() {
    var failure = Property.find(11, 300, Gen.tuple(ints(0, 1000), ints(0, 1000)),
        t -> assertThat(t.<Integer>get(0) + t.<Integer>get(1)).isLessThan(500));
    assertThat(failure).isPresent();
    Tuple smallest = failure.get().smallest();
    assertThat(smallest.<Integer>get(0) + smallest.<Integer>get(1)).isEqualTo(500);
  }

  @Test
  void theReportNamesTheSeedTheTryAndBothSamples() {
    assertThatThrownBy(() -> Property.check(20261206, 100, ints(0, 1000).list(1, 20),
        list -> assertThat(list.stream().mapToInt(Integer::intValue).sum()).isLessThan(300)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("seed 20261206")
        .hasMessageContaining("Smallest failing sample")
        .hasMessageContaining("[300]")
        .hasMessageContaining("First failing sample")
        .hasCauseInstanceOf(AssertionError.class);
  }

  @Test
  void theSameSeedDrawsTheSameSamplesAndAnotherSeedOthers() {
    Gen<List<Integer>> gen = ints(0, 1_000_000).list(0, 30);
    assertThat(samples(42, gen)).isEqualTo(samples(42, gen)).isNotEqualTo(samples(43, gen));
    var a = Property.find(5, 300, gen, l -> assertThat(l).doesNotContain(17));
    var b = Property.find(5, 300, gen, l -> assertThat(l).doesNotContain(17));
    assertThat(a.map(Property.Failure::attempt)).isEqualTo(b.map(Property.Failure::attempt));
  }

  @Test
  void edgeCasesComeFirstAndBoundsAppear() {
    List<Integer> seen = samples(9, ints(0, 1000));
    assertThat(seen.subList(0, 4)).containsExactly(0, 1, 999, 1000);
    List<List<Integer>> lists = samples(9, ints(0, 5).list(0, 10));
    assertThat(lists.getFirst()).isEmpty();
    assertThat(lists).anyMatch(l -> l.size() == 10);
  }

  @Test
  void mostListsAreShortSomeLongAndSomeFull() {
    List<Integer> sizes = new ArrayList<>();
    Property.check(17, 1000, ints(0, 9).list(0, 300), l -> sizes.add(l.size()));
    long shortOnes = sizes.stream().filter(n -> n <= Gen.SHORT).count();
    assertThat(shortOnes).isBetween(820L, 950L);
    assertThat(sizes).contains(0, 300).anyMatch(n -> n > 100 && n < 300);
  }

  @Test
  void uniqueListsStayUniqueWhileShrinking() {
    var failure = Property.find(13, 200, ints(0, 50).uniqueList(2, 12, i -> i % 10),
        l -> {
          assertThat(new HashSet<>(l.stream().map(i -> i % 10).toList())).hasSameSizeAs(l);
          assertThat(l).hasSizeLessThan(4);
        });
    assertThat(failure).isPresent();
    assertThat(failure.get().smallest()).hasSize(4);
  }

  @Test
  void doublesHaveTwoDecimalsWithinTheirRange() {
    List<Double> seen = samples(21, Gen.doubles(0.5, 40));
    assertThat(seen).allMatch(d -> d >= 0.5 && d <= 40 && Math.abs(d * 100 - Math.rint(d * 100)) < 1e-6).contains(0.5, 40.0);
    var failure = Property.find(21, 200, Gen.doubles(0.5, 40), d -> assertThat(d).isLessThan(12.5));
    assertThat(failure).map(Property.Failure::smallest).contains(12.5);
  }

  @Test
  void nullsAndSubsetsAndChoices() {
    Set<Object> seen = new HashSet<>(samples(2, Gen.of("a", "b", "c").orNull(0.5)));
    assertThat(seen).containsExactlyInAnyOrder(null, "a", "b", "c");
    assertThat(samples(2, Gen.subsetOf(List.of(1, 2, 3)))).allMatch(s -> List.of(1, 2, 3).containsAll(s))
        .contains(List.of(), List.of(1, 2, 3));
    var failure = Property.find(2, 100, Gen.subsetOf(List.of(1, 2, 3, 4)), s -> assertThat(s).doesNotContain(3));
    assertThat(failure).map(Property.Failure::smallest).contains(List.of(3));
  }

  private static <T> List<T> samples(long seed, Gen<T> gen) {
    List<T> seen = new ArrayList<>();
    Property.check(seed, 200, gen, seen::add);
    return seen;
  }
}
