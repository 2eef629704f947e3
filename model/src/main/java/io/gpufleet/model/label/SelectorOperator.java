package io.gpufleet.model.label;

import io.gpufleet.model.wire.WireEnum;
import java.util.Optional;

/**
 * Operators of label selector and node selector requirements. {@code Gt} and {@code Lt} exist
 * only for node selectors (node affinity) and compare the label as an integer.
 */
public enum SelectorOperator implements WireEnum {
  IN,
  NOT_IN,
  EXISTS,
  DOES_NOT_EXIST,
  GT,
  LT;

  public static Optional<SelectorOperator> fromWire(String s) {
    return WireEnum.fromWire(SelectorOperator.class, s);
  }

  @Override
  public String toString() {
    return wireName();
  }
}
