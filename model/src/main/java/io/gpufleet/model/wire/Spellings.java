package io.gpufleet.model.wire;

import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * The two wire spellings of enum constants, derived once per enum class: the provisioning loop asks
 * for them per offering, so they are not rebuilt from the constant's name on every call. A pure
 * function of the class, so the memo changes no output.
 */
final class Spellings {

  /** {@code WHEN_EMPTY_OR_UNDERUTILIZED} → {@code WhenEmptyOrUnderutilized}. */
  static final ClassValue<String[]> UPPER_CAMEL = of(Spellings::upperCamel);
  /** {@code ON_DEMAND} → {@code on-demand}. */
  static final ClassValue<String[]> LOWER_KEBAB = of(c -> c.toLowerCase(Locale.ROOT).replace('_', '-'));

  private Spellings() {}

  static String upperCamel(String constant) {
    StringBuilder b = new StringBuilder(constant.length());
    for (String word : constant.split("_")) {
      if (!word.isEmpty()) {
        b.append(word.charAt(0)).append(word.substring(1).toLowerCase(Locale.ROOT));
      }
    }
    return b.toString();
  }

  private static ClassValue<String[]> of(UnaryOperator<String> spelling) {
    return new ClassValue<>() {
      @Override
      protected String[] computeValue(Class<?> type) {
        // A constant with a body is an anonymous subclass; its constants are its enum's.
        Class<?> e = type.isEnum() ? type : type.getSuperclass();
        Object[] constants = e.getEnumConstants();
        String[] out = new String[constants.length];
        for (int i = 0; i < constants.length; i++) {
          out[i] = spelling.apply(((Enum<?>) constants[i]).name());
        }
        return out;
      }
    };
  }
}
