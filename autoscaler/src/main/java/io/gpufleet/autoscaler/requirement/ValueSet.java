package io.gpufleet.autoscaler.requirement;

import java.util.Collection;
import java.util.Collections;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The values a label may take under a set of requirements on one key, as Karpenter reasons about
 * them when it intersects pod, NodePool and instance-type requirements (reference §1.1, §1.4): a
 * finite set ({@code In}) or the complement of one ({@code NotIn}, {@code Exists}), optional
 * integer bounds ({@code Gt}, {@code Lt}), and whether the label may be absent ({@code NotIn},
 * {@code DoesNotExist}). Immutable.
 */
public final class ValueSet {

  private static final long NO_LOWER = Long.MIN_VALUE;
  private static final long NO_UPPER = Long.MAX_VALUE;

  private final boolean absentAllowed;
  private final boolean complement;
  private final SortedSet<String> values;
  private final long greaterThan;
  private final long lessThan;

  private ValueSet(boolean absentAllowed, boolean complement, SortedSet<String> values, long greaterThan,
      long lessThan) {
    this.absentAllowed = absentAllowed;
    this.complement = complement;
    this.values = values;
    this.greaterThan = greaterThan;
    this.lessThan = lessThan;
  }

  public static ValueSet in(Collection<String> values) {
    return new ValueSet(false, false, sorted(values), NO_LOWER, NO_UPPER);
  }

  public static ValueSet in(String value) {
    TreeSet<String> s = new TreeSet<>();
    s.add(value);
    return new ValueSet(false, false, Collections.unmodifiableSortedSet(s), NO_LOWER, NO_UPPER);
  }

  public static ValueSet notIn(Collection<String> values) {
    return new ValueSet(true, true, sorted(values), NO_LOWER, NO_UPPER);
  }

  public static ValueSet exists() {
    return new ValueSet(false, true, Collections.emptySortedSet(), NO_LOWER, NO_UPPER);
  }

  public static ValueSet doesNotExist() {
    return new ValueSet(true, false, Collections.emptySortedSet(), NO_LOWER, NO_UPPER);
  }

  public static ValueSet greaterThan(long n) {
    return new ValueSet(false, true, Collections.emptySortedSet(), n, NO_UPPER);
  }

  public static ValueSet lessThan(long n) {
    return new ValueSet(false, true, Collections.emptySortedSet(), NO_LOWER, n);
  }

  private static SortedSet<String> sorted(Collection<String> values) {
    return Collections.unmodifiableSortedSet(new TreeSet<>(values));
  }

  public boolean absentAllowed() {
    return absentAllowed;
  }

  /** True for {@code In}-like sets: the values are all there is. */
  public boolean isFinite() {
    return !complement;
  }

  public SortedSet<String> values() {
    return values;
  }

  /** Whether a label with this value (null: absent) satisfies the set. */
  public boolean admits(String value) {
    if (value == null) {
      return absentAllowed;
    }
    if (greaterThan != NO_LOWER || lessThan != NO_UPPER) {
      long v;
      try {
        v = Long.parseLong(value);
      } catch (NumberFormatException e) {
        return false;
      }
      if (v <= greaterThan || v >= lessThan) {
        return false;
      }
    }
    return complement != values.contains(value);
  }

  /** The values both sets admit. */
  public ValueSet intersect(ValueSet o) {
    boolean absent = absentAllowed && o.absentAllowed;
    long gt = Math.max(greaterThan, o.greaterThan);
    long lt = Math.min(lessThan, o.lessThan);
    TreeSet<String> v;
    boolean comp;
    if (!complement && !o.complement) {
      v = new TreeSet<>(values);
      v.retainAll(o.values);
      comp = false;
    } else if (!complement) {
      v = new TreeSet<>(values);
      v.removeAll(o.values);
      comp = false;
    } else if (!o.complement) {
      v = new TreeSet<>(o.values);
      v.removeAll(values);
      comp = false;
    } else {
      v = new TreeSet<>(values);
      v.addAll(o.values);
      comp = true;
    }
    if (!comp && (gt != NO_LOWER || lt != NO_UPPER)) {
      v.removeIf(s -> !withinBounds(s, gt, lt));
    }
    return new ValueSet(absent, comp, Collections.unmodifiableSortedSet(v), gt, lt);
  }

  private static boolean withinBounds(String s, long gt, long lt) {
    try {
      long v = Long.parseLong(s);
      return v > gt && v < lt;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /** True when no label, present or absent, satisfies the set. */
  public boolean isEmpty() {
    if (absentAllowed) {
      return false;
    }
    if (!complement) {
      return values.isEmpty();
    }
    if (greaterThan == NO_LOWER && lessThan == NO_UPPER) {
      return false;
    }
    // Integers strictly between the bounds, less the excluded ones among them.
    long lo = greaterThan == NO_LOWER ? Long.MIN_VALUE : greaterThan + 1;
    long hi = lessThan == NO_UPPER ? Long.MAX_VALUE : lessThan - 1;
    if (lo > hi) {
      return true;
    }
    long span = hi - lo + 1;
    if (span <= 0 || span > values.size()) {
      return false;
    }
    long excluded = values.stream().filter(s -> withinBounds(s, greaterThan, lessThan)).count();
    return excluded >= span;
  }

  /** Karpenter's rendering: {@code In [a b]}, {@code NotIn [a]}, {@code Exists >2}, {@code DoesNotExist}. */
  public String describe() {
    StringBuilder b = new StringBuilder();
    if (!complement) {
      b.append(values.isEmpty() ? "DoesNotExist" : "In " + bracket());
    } else if (values.isEmpty()) {
      b.append("Exists");
    } else {
      b.append("NotIn ").append(bracket());
    }
    if (greaterThan != NO_LOWER) {
      b.append(" >").append(greaterThan);
    }
    if (lessThan != NO_UPPER) {
      b.append(" <").append(lessThan);
    }
    return b.toString();
  }

  private String bracket() {
    return "[" + String.join(" ", values) + "]";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ValueSet v && v.absentAllowed == absentAllowed && v.complement == complement
        && v.greaterThan == greaterThan && v.lessThan == lessThan && v.values.equals(values);
  }

  @Override
  public int hashCode() {
    return values.hashCode() * 31 + Boolean.hashCode(complement) + 7 * Long.hashCode(greaterThan ^ lessThan);
  }

  @Override
  public String toString() {
    return describe();
  }
}
