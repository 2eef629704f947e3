package io.gpufleet.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Objects in the simulator own their state: a class reads and changes another's through its
 * methods, never its fields, so every change of the cluster image goes through the API server's
 * named methods, which record what it invalidates. Constants (static final fields, enum constants)
 * and the members of one nest (a class, its nested classes and lambdas) are exempt.
 */
class EncapsulationTest {

  private static JavaClasses sim;

  @BeforeAll
  static void importClasses() {
    sim = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.gpufleet.sim");
  }

  private static JavaClass outermost(JavaClass c) {
    JavaClass out = c;
    while (out.getEnclosingClass().isPresent()) {
      out = out.getEnclosingClass().get();
    }
    return out;
  }

  private static boolean constant(JavaFieldAccess a) {
    return a.getTarget().resolveMember().map(f -> f.getModifiers().contains(JavaModifier.STATIC)
        && f.getModifiers().contains(JavaModifier.FINAL)).orElse(false);
  }

  static final ArchCondition<JavaClass> TOUCH_NO_FOREIGN_FIELDS =
      new ArchCondition<>("read or write no other class's fields (constants and nest-mates aside)") {
        @Override
        public void check(JavaClass c, ConditionEvents events) {
          for (JavaFieldAccess a : c.getFieldAccessesFromSelf()) {
            JavaClass owner = a.getTargetOwner();
            if (outermost(owner).equals(outermost(c)) || constant(a)) {
              continue;
            }
            events.add(SimpleConditionEvent.violated(a, describe(a)));
          }
        }
      };

  private static String describe(JavaAccess<?> a) {
    return a.getOrigin().getFullName() + " " + (a instanceof JavaFieldAccess f ? f.getAccessType().name()
        .toLowerCase(java.util.Locale.ROOT) : "accesses") + "s " + a.getTarget().getFullName() + " "
        + a.getSourceCodeLocation();
  }

  @Test
  void noSimulatorClassReachesIntoAnothersFields() {
    classes().that().resideInAPackage("io.gpufleet.sim..").should(TOUCH_NO_FOREIGN_FIELDS).check(sim);
  }
}
