package io.gpufleet.engine.dra;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import io.gpufleet.model.resource.Quantity;
import io.gpufleet.model.resource.QuantityFormatException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The two Kubernetes CEL libraries a DRA selector needs beyond standard CEL, with upstream's names,
 * overload ids and behaviour ({@code k8s.io/apiserver/pkg/cel/library}): {@code quantity.go}
 * ({@code quantity}, {@code isQuantity}, {@code sign}, {@code isGreaterThan}, {@code isLessThan},
 * {@code compareTo}, {@code asInteger}, {@code isInteger}, {@code asApproximateFloat}, {@code add},
 * {@code sub}) and {@code semverlib.go} ({@code semver} with and without normalisation,
 * {@code isSemver}, {@code major}, {@code minor}, {@code patch}, {@code isGreaterThan},
 * {@code isLessThan}, {@code compareTo}). Not ported: quantity's {@code mul}, {@code div},
 * {@code divInt}.
 */
final class CelLibraries {
  private CelLibraries() {}

  static final OpaqueType QUANTITY = OpaqueType.create("kubernetes.Quantity");
  static final OpaqueType SEMVER = OpaqueType.create("kubernetes.Semver");

  private static Map<String, List<CelOverloadDecl>> overloads() {
    Map<String, List<CelOverloadDecl>> f = new LinkedHashMap<>();
    global(f, "quantity", "string_to_quantity", QUANTITY, SimpleType.STRING);
    global(f, "isQuantity", "is_quantity_string", SimpleType.BOOL, SimpleType.STRING);
    global(f, "sign", "quantity_sign", SimpleType.INT, QUANTITY);
    member(f, "isGreaterThan", "quantity_is_greater_than", SimpleType.BOOL, QUANTITY, QUANTITY);
    member(f, "isLessThan", "quantity_is_less_than", SimpleType.BOOL, QUANTITY, QUANTITY);
    member(f, "compareTo", "quantity_compare_to", SimpleType.INT, QUANTITY, QUANTITY);
    member(f, "asApproximateFloat", "quantity_get_float", SimpleType.DOUBLE, QUANTITY);
    member(f, "asInteger", "quantity_get_int", SimpleType.INT, QUANTITY);
    member(f, "isInteger", "quantity_is_integer", SimpleType.BOOL, QUANTITY);
    member(f, "add", "quantity_add", QUANTITY, QUANTITY, QUANTITY);
    member(f, "add", "quantity_add_int", QUANTITY, QUANTITY, SimpleType.INT);
    member(f, "sub", "quantity_sub", QUANTITY, QUANTITY, QUANTITY);
    member(f, "sub", "quantity_sub_int", QUANTITY, QUANTITY, SimpleType.INT);
    global(f, "semver", "string_to_semver", SEMVER, SimpleType.STRING);
    global(f, "semver", "string_bool_to_semver", SEMVER, SimpleType.STRING, SimpleType.BOOL);
    global(f, "isSemver", "is_semver_string", SimpleType.BOOL, SimpleType.STRING);
    global(f, "isSemver", "is_semver_string_bool", SimpleType.BOOL, SimpleType.STRING, SimpleType.BOOL);
    member(f, "isGreaterThan", "semver_is_greater_than", SimpleType.BOOL, SEMVER, SEMVER);
    member(f, "isLessThan", "semver_is_less_than", SimpleType.BOOL, SEMVER, SEMVER);
    member(f, "compareTo", "semver_compare_to", SimpleType.INT, SEMVER, SEMVER);
    member(f, "major", "semver_major", SimpleType.INT, SEMVER);
    member(f, "minor", "semver_minor", SimpleType.INT, SEMVER);
    member(f, "patch", "semver_patch", SimpleType.INT, SEMVER);
    return f;
  }

  static List<CelFunctionDecl> declarations() {
    List<CelFunctionDecl> out = new ArrayList<>();
    overloads().forEach((name, list) -> out.add(CelFunctionDecl.newFunctionDeclaration(name, list)));
    return out;
  }

  static List<CelFunctionBinding> bindings() {
    return List.of(
        CelFunctionBinding.from("string_to_quantity", String.class, CelLibraries::quantity),
        CelFunctionBinding.from("is_quantity_string", String.class, Quantity::isValid),
        CelFunctionBinding.from("quantity_sign", Quantity.class, q -> (long) q.signum()),
        CelFunctionBinding.from("quantity_is_greater_than", Quantity.class, Quantity.class, (a, b) -> a.compareTo(b) > 0),
        CelFunctionBinding.from("quantity_is_less_than", Quantity.class, Quantity.class, (a, b) -> a.compareTo(b) < 0),
        CelFunctionBinding.from("quantity_compare_to", Quantity.class, Quantity.class,
            (a, b) -> (long) Integer.signum(a.compareTo(b))),
        CelFunctionBinding.from("quantity_get_float", Quantity.class, q -> q.amount().doubleValue()),
        CelFunctionBinding.from("quantity_get_int", Quantity.class, CelLibraries::asInteger),
        CelFunctionBinding.from("quantity_is_integer", Quantity.class, q -> integer(q) != null),
        CelFunctionBinding.from("quantity_add", Quantity.class, Quantity.class, Quantity::plus),
        CelFunctionBinding.from("quantity_add_int", Quantity.class, Long.class, (a, b) -> a.plus(Quantity.of(b))),
        CelFunctionBinding.from("quantity_sub", Quantity.class, Quantity.class, Quantity::minus),
        CelFunctionBinding.from("quantity_sub_int", Quantity.class, Long.class, (a, b) -> a.minus(Quantity.of(b))),
        CelFunctionBinding.from("string_to_semver", String.class, s -> semver(s, false)),
        CelFunctionBinding.from("string_bool_to_semver", String.class, Boolean.class, CelLibraries::semver),
        CelFunctionBinding.from("is_semver_string", String.class, s -> isSemver(s, false)),
        CelFunctionBinding.from("is_semver_string_bool", String.class, Boolean.class, CelLibraries::isSemver),
        CelFunctionBinding.from("semver_is_greater_than", Semver.class, Semver.class, (a, b) -> a.compareTo(b) > 0),
        CelFunctionBinding.from("semver_is_less_than", Semver.class, Semver.class, (a, b) -> a.compareTo(b) < 0),
        CelFunctionBinding.from("semver_compare_to", Semver.class, Semver.class, (a, b) -> (long) a.compareTo(b)),
        CelFunctionBinding.from("semver_major", Semver.class, v -> v.major().longValue()),
        CelFunctionBinding.from("semver_minor", Semver.class, v -> v.minor().longValue()),
        CelFunctionBinding.from("semver_patch", Semver.class, v -> v.patch().longValue()));
  }

  private static Quantity quantity(String s) throws CelEvaluationException {
    try {
      return Quantity.parse(s);
    } catch (QuantityFormatException e) {
      throw new CelEvaluationException(e.getMessage());
    }
  }

  /** {@code Quantity.AsInt64}: the whole value if it is one and fits, else null. */
  private static Long integer(Quantity q) {
    BigDecimal a = q.amount().stripTrailingZeros();
    if (a.scale() > 0) {
      return null;
    }
    try {
      return a.longValueExact();
    } catch (ArithmeticException e) {
      return null;
    }
  }

  private static long asInteger(Quantity q) throws CelEvaluationException {
    Long v = integer(q);
    if (v == null) {
      throw new CelEvaluationException("cannot convert value to integer");
    }
    return v;
  }

  private static Semver semver(String s, boolean normalize) throws CelEvaluationException {
    try {
      return normalize ? Semver.normalizeAndParse(s) : Semver.parse(s);
    } catch (Semver.Invalid e) {
      throw new CelEvaluationException(e.getMessage());
    }
  }

  private static boolean isSemver(String s, boolean normalize) {
    try {
      semver(s, normalize);
      return true;
    } catch (CelEvaluationException e) {
      return false;
    }
  }

  private static void global(Map<String, List<CelOverloadDecl>> f, String name, String id, CelType result,
      CelType... params) {
    f.computeIfAbsent(name, n -> new ArrayList<>()).add(CelOverloadDecl.newGlobalOverload(id, result, params));
  }

  private static void member(Map<String, List<CelOverloadDecl>> f, String name, String id, CelType result,
      CelType... params) {
    f.computeIfAbsent(name, n -> new ArrayList<>()).add(CelOverloadDecl.newMemberOverload(id, result, params));
  }
}
