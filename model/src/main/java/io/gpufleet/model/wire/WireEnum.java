package io.gpufleet.model.wire;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * An enum whose constants are written in manifests, labels or messages under another spelling
 * than the Java constant: {@code NOT_IN} is {@code NotIn}, {@code ON_DEMAND} is {@code on-demand}.
 * The spelling is derived from the constant's name, so it cannot drift from a hand-kept string,
 * and {@link #fromWire} is the one lookup from text back to the constant.
 *
 * <p>Kubernetes API enums are UpperCamelCase, the default. An enum whose wire form is lower-case
 * and hyphenated (Karpenter's capacity types, label values, gpufleet's own profile values)
 * returns {@link #lowerKebab} from {@link #wireName}. Implemented by enums only.
 */
public interface WireEnum {

  /** The constant's Java name; every enum has it. */
  String name();

  /** The constant's position; every enum has it. */
  int ordinal();

  /** The spelling the API writes: UpperCamelCase of the constant ({@code DOES_NOT_EXIST} → {@code DoesNotExist}). */
  default String wireName() {
    return Spellings.UPPER_CAMEL.get(getClass())[ordinal()];
  }

  /** {@code ON_DEMAND} → {@code on-demand}: what a lower-case enum returns from {@link #wireName}. */
  static String lowerKebab(WireEnum constant) {
    return Spellings.LOWER_KEBAB.get(constant.getClass())[constant.ordinal()];
  }

  /** The constant of {@code type} written {@code text} on the wire, exactly (case matters, as in the API). */
  static <E extends Enum<E> & WireEnum> Optional<E> fromWire(Class<E> type, String text) {
    for (E e : type.getEnumConstants()) {
      if (e.wireName().equals(text)) {
        return Optional.of(e);
      }
    }
    return Optional.empty();
  }

  /** The wire names of {@code type} in declaration order, for "expected one of" messages. */
  static <E extends Enum<E> & WireEnum> List<String> wireNames(Class<E> type) {
    return Arrays.stream(type.getEnumConstants()).map(WireEnum::wireName).toList();
  }
}
