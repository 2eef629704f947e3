package io.gpufleet.engine.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.model.meta.OwnerReference;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * The private map keys of ControllerSelectors and Ownership write out equals and hashCode (so that
 * no ObjectMethods bootstrap runs when a small command starts); they behave as a record's generated
 * ones: equal exactly when every component is, hashed as ObjectMethods hashes ({@code 31 * h +
 * Objects.hashCode(c)} from 0), so no map's order and no output changes.
 */
class WrittenOutKeysTest {

  @Test
  void controllerSelectorsKey() throws Exception {
    check(ControllerSelectors.class, List.of("default", new OwnerReference("ReplicaSet", "web-5d8f")),
        List.of("other", new OwnerReference("StatefulSet", "db")));
  }

  @Test
  void ownershipKey() throws Exception {
    check(Ownership.class, List.of("Deployment", "default", "web"), List.of("Job", "batch", "train"));
  }

  /** Builds the class's Key from {@code values}, and from them with each component in turn taken from {@code others}. */
  private static void check(Class<?> owner, List<Object> values, List<Object> others) throws Exception {
    Class<?> key = Class.forName(owner.getName() + "$Key");
    RecordComponent[] components = key.getRecordComponents();
    Class<?>[] types = new Class<?>[components.length];
    for (int i = 0; i < components.length; i++) {
      types[i] = components[i].getType();
    }
    Constructor<?> make = key.getDeclaredConstructor(types);
    make.setAccessible(true);
    Object k = make.newInstance(values.toArray());
    Object copy = make.newInstance(values.toArray());
    assertThat(k).isEqualTo(copy).isNotSameAs(copy);
    assertThat(k.hashCode()).isEqualTo(generatedHash(values)).isEqualTo(copy.hashCode());
    assertThat(k).isNotEqualTo(null).isNotEqualTo("not a key");
    for (int i = 0; i < components.length; i++) {
      Object[] changed = values.toArray();
      changed[i] = others.get(i);
      Object c = make.newInstance(changed);
      assertThat(k).as(components[i].getName()).isNotEqualTo(c);
      assertThat(c).as(components[i].getName()).isNotEqualTo(k);
      assertThat(c.hashCode()).as(components[i].getName()).isEqualTo(generatedHash(List.of(changed)));
    }
  }

  private static int generatedHash(List<Object> values) {
    int h = 0;
    for (Object v : values) {
      h = 31 * h + Objects.hashCode(v);
    }
    return h;
  }
}
