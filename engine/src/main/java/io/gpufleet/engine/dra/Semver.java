package io.gpufleet.engine.dra;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A semantic version as {@code github.com/blang/semver/v4} parses and orders it: the value of a DRA
 * {@code version} attribute in CEL and of Kubernetes' {@code semver()} (its {@code semverlib.go}),
 * with blang's error messages. Build metadata is kept but, as semver 2.0 says, not compared.
 */
record Semver(BigInteger major, BigInteger minor, BigInteger patch, List<String> pre, List<String> build)
    implements Comparable<Semver> {

  /** A parse failure, worded as blang/semver words it. */
  static final class Invalid extends Exception {
    Invalid(String message) {
      super(message);
    }
  }

  private static final String NUMBERS = "0123456789";
  private static final String ALPHANUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-" + NUMBERS;

  Semver {
    pre = List.copyOf(pre);
    build = List.copyOf(build);
  }

  /** {@code semver.Parse}. */
  static Semver parse(String s) throws Invalid {
    if (s.isEmpty()) {
      throw new Invalid("Version string empty");
    }
    String[] parts = s.split("\\.", 3);
    if (parts.length != 3) {
      throw new Invalid("No Major.Minor.Patch elements found");
    }
    BigInteger major = number(parts[0], "major", "Major");
    BigInteger minor = number(parts[1], "minor", "Minor");
    String patch = parts[2];
    List<String> build = new ArrayList<>();
    List<String> pre = new ArrayList<>();
    int plus = patch.indexOf('+');
    if (plus >= 0) {
      build.addAll(List.of(patch.substring(plus + 1).split("\\.", -1)));
      patch = patch.substring(0, plus);
    }
    int dash = patch.indexOf('-');
    if (dash >= 0) {
      pre.addAll(List.of(patch.substring(dash + 1).split("\\.", -1)));
      patch = patch.substring(0, dash);
    }
    BigInteger p = number(patch, "patch", "Patch");
    for (String pr : pre) {
      if (pr.isEmpty()) {
        throw new Invalid("Prerelease is empty");
      }
      if (only(pr, NUMBERS)) {
        if (leadingZero(pr)) {
          throw new Invalid("Prerelease number must not contain leading zeroes \"" + pr + "\"");
        }
      } else if (!only(pr, ALPHANUM)) {
        throw new Invalid("Invalid character(s) found in prerelease \"" + pr + "\"");
      }
    }
    for (String b : build) {
      if (b.isEmpty()) {
        throw new Invalid("Build meta data is empty");
      }
      if (!only(b, ALPHANUM)) {
        throw new Invalid("Invalid character(s) found in build meta data \"" + b + "\"");
      }
    }
    return new Semver(major, minor, p, pre, build);
  }

  /**
   * {@code semverlib.go}'s {@code normalizeAndParse}: a leading {@code v} dropped, leading zeros of
   * each part removed, missing minor and patch filled with 0.
   */
  static Semver normalizeAndParse(String s) throws Invalid {
    String t = s.startsWith("v") ? s.substring(1) : s;
    List<String> parts = new ArrayList<>(List.of(t.split("\\.", 3)));
    for (int i = 0; i < parts.size(); i++) {
      String p = parts.get(i);
      if (p.length() > 1) {
        p = p.replaceFirst("^0+", "");
        if (p.isEmpty() || NUMBERS.indexOf(p.charAt(0)) < 0) {
          p = "0" + p;
        }
        parts.set(i, p);
      }
    }
    if (parts.size() < 3) {
      String last = parts.getLast();
      if (last.contains("+") || last.contains("-")) {
        throw new Invalid("short version cannot contain PreRelease/Build meta data");
      }
      while (parts.size() < 3) {
        parts.add("0");
      }
    }
    return parse(String.join(".", parts));
  }

  private static BigInteger number(String part, String name, String capitalised) throws Invalid {
    if (!only(part, NUMBERS)) {
      throw new Invalid("Invalid character(s) found in " + name + " number \"" + part + "\"");
    }
    if (leadingZero(part)) {
      throw new Invalid(capitalised + " number must not contain leading zeroes \"" + part + "\"");
    }
    if (part.isEmpty()) {
      // strconv.ParseUint's error for an empty part ("1..2").
      throw new Invalid("strconv.ParseUint: parsing \"\": invalid syntax");
    }
    return new BigInteger(part);
  }

  private static boolean only(String s, String set) {
    return s.chars().allMatch(c -> set.indexOf(c) >= 0);
  }

  private static boolean leadingZero(String s) {
    return s.length() > 1 && s.charAt(0) == '0';
  }

  /** {@code Version.Compare}: numbers, then a pre-release below its release, pre-release parts in order. */
  @Override
  public int compareTo(Semver o) {
    int c = major.compareTo(o.major);
    if (c == 0) {
      c = minor.compareTo(o.minor);
    }
    if (c == 0) {
      c = patch.compareTo(o.patch);
    }
    if (c != 0) {
      return Integer.signum(c);
    }
    if (pre.isEmpty() || o.pre.isEmpty()) {
      return pre.isEmpty() == o.pre.isEmpty() ? 0 : pre.isEmpty() ? 1 : -1;
    }
    for (int i = 0; i < Math.min(pre.size(), o.pre.size()); i++) {
      int p = comparePre(pre.get(i), o.pre.get(i));
      if (p != 0) {
        return p;
      }
    }
    return Integer.compare(pre.size(), o.pre.size());
  }

  private static int comparePre(String a, String b) {
    boolean an = only(a, NUMBERS);
    boolean bn = only(b, NUMBERS);
    if (an && bn) {
      return Integer.signum(new BigInteger(a).compareTo(new BigInteger(b)));
    }
    if (an != bn) {
      return an ? -1 : 1;
    }
    return Integer.signum(a.compareTo(b));
  }

  /** Equal when {@link #compareTo} says so (build metadata aside), as CEL's {@code ==} on Semver. */
  @Override
  public boolean equals(Object o) {
    return o instanceof Semver s && compareTo(s) == 0;
  }

  @Override
  public int hashCode() {
    return Objects.hash(major, minor, patch, pre);
  }

  @Override
  public String toString() {
    return major + "." + minor + "." + patch + (pre.isEmpty() ? "" : "-" + String.join(".", pre))
        + (build.isEmpty() ? "" : "+" + String.join(".", build));
  }
}
