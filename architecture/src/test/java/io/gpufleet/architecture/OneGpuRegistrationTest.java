package io.gpufleet.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * One way a GPU node registers: the device plugin's advertisement, GFD's labels and the MIG
 * manager's planning are called only inside the engine's device-plugin and MIG packages, whose
 * {@code GpuOperator} every command, the autoscaler and the simulator go through.
 */
class OneGpuRegistrationTest {

  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.gpufleet");
  }

  @Test
  void onlyTheEngineAdvertisesLabelsAndPlansMigLayouts() {
    noClasses().that().resideOutsideOfPackages("io.gpufleet.engine.deviceplugin..", "io.gpufleet.engine.mig..")
        .should().callMethodWhere(com.tngtech.archunit.base.DescribedPredicate.describe(
            "the registration internals (Advertisement.of, GfdLabels.of, DevicePlugin.register, "
                + "MigConfigPlanner.plan, StockMigConfigs)",
            call -> {
              String owner = call.getTargetOwner().getName();
              String name = call.getName();
              return owner.equals("io.gpufleet.engine.deviceplugin.Advertisement") && name.equals("of")
                  || owner.equals("io.gpufleet.engine.deviceplugin.GfdLabels") && name.equals("of")
                  || owner.equals("io.gpufleet.engine.deviceplugin.DevicePlugin") && name.equals("register")
                  || owner.equals("io.gpufleet.engine.mig.MigConfigPlanner")
                  || owner.equals("io.gpufleet.engine.mig.StockMigConfigs");
            }))
        .check(classes);
  }
}
