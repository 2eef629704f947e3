package io.gpufleet.model.label;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.gpufleet.model.meta.OwnerReference;
import io.gpufleet.model.taint.Taint;
import io.gpufleet.model.taint.TaintEffect;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The records whose equals and hashCode are written out (so that no ObjectMethods bootstrap runs at
 * start-up) behave as the records' generated ones: equal exactly when every component is equal, and
 * hashed as {@code java.lang.runtime.ObjectMethods} hashes (each component's {@code Objects.hashCode},
 * combined as {@code 31 * h + c} from 0), so that no hash order, and no output, changes.
 */
class RecordMethodsTest {

  static Stream<Record> records() {
    return Stream.of(
        new OwnerReference("ReplicaSet", "web-5d8f"),
        new Labels(new TreeMap<>(Map.of("app", "web", "tier", "front"))),
        new LabelSelector(Labels.of("app", "web"), List.of(Requirement.exists("tier"))),
        new Taint("nvidia.com/gpu", "true", TaintEffect.NO_SCHEDULE));
  }

  @ParameterizedTest
  @MethodSource("records")
  void aCopyIsEqualAndHashedAsTheGeneratedHashCode(Record r) throws Exception {
    Record copy = rebuilt(r, -1, null);
    assertEquals(r, copy);
    assertEquals(copy, r);
    assertEquals(generatedHash(r), r.hashCode());
    assertEquals(r.hashCode(), copy.hashCode());
  }

  @ParameterizedTest
  @MethodSource("records")
  void anyOneComponentChangedMakesItUnequal(Record r) throws Exception {
    RecordComponent[] components = r.getClass().getRecordComponents();
    for (int i = 0; i < components.length; i++) {
      Object other = otherValue(components[i].getAccessor().invoke(r));
      Record changed = rebuilt(r, i, other);
      assertNotEquals(r, changed, components[i].getName());
      assertNotEquals(changed, r, components[i].getName());
      assertEquals(generatedHash(changed), changed.hashCode(), components[i].getName());
    }
    assertNotEquals(r, null);
    assertNotEquals(r, "not a record");
  }

  /** {@code ObjectMethods.makeHashCode}: {@code 31 * result + hash(component)}, from 0. */
  private static int generatedHash(Record r) throws Exception {
    int h = 0;
    for (RecordComponent c : r.getClass().getRecordComponents()) {
      h = 31 * h + Objects.hashCode(c.getAccessor().invoke(r));
    }
    return h;
  }

  /** {@code r} made again from its components, component {@code changed} (if >= 0) replaced by {@code value}. */
  private static Record rebuilt(Record r, int changed, Object value) throws Exception {
    RecordComponent[] components = r.getClass().getRecordComponents();
    Class<?>[] types = new Class<?>[components.length];
    Object[] args = new Object[components.length];
    for (int i = 0; i < components.length; i++) {
      types[i] = components[i].getType();
      args[i] = i == changed ? value : components[i].getAccessor().invoke(r);
    }
    Constructor<?> canonical = r.getClass().getDeclaredConstructor(types);
    return (Record) canonical.newInstance(args);
  }

  /** A value of the same type that is not equal to {@code v}. */
  private static Object otherValue(Object v) {
    Object other = switch (v) {
      case String s -> s + "-other";
      case TaintEffect e -> e == TaintEffect.NO_SCHEDULE ? TaintEffect.NO_EXECUTE : TaintEffect.NO_SCHEDULE;
      case Labels l -> Labels.of("other", "label");
      case SortedMap<?, ?> m -> new TreeMap<>(Map.of("other", "label"));
      case List<?> l -> List.of();
      default -> throw new IllegalArgumentException("no other value for " + v.getClass());
    };
    assertNotEquals(v, other);
    return other;
  }
}
