package io.gpufleet.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module boundaries of docs/architecture.md, as rules over the compiled classes.
 * Maven's classpaths already keep a module from compiling against one it does not declare; these
 * rules also hold the packages to them and keep clocks, files and global state out of the core.
 */
class LayeringTest {

  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.gpufleet");
  }

  private static void onlyDependsOn(String pkg, String... allowed) {
    String[] all = new String[allowed.length + 2];
    all[0] = pkg;
    all[1] = "java..";
    System.arraycopy(allowed, 0, all, 2, allowed.length);
    // A module with no classes yet (autoscaler, today) keeps its rule trivially.
    noClasses().that().resideInAPackage(pkg)
        .should().dependOnClassesThat().resideOutsideOfPackages(all)
        .allowEmptyShould(true) // emptiness is checked once, in everyLayerHasClasses
        .check(classes);
  }

  /** A rule over an empty package proves nothing: every layer named here must hold classes. */
  @Test
  void everyLayerHasClasses() {
    for (String layer : java.util.List.of("model", "engine", "queue", "autoscaler", "sim", "manifest", "cluster", "scenario", "report", "nvml", "lint",
        "k8s", "web", "cli")) {
      org.assertj.core.api.Assertions.assertThat(classes.stream()
              .anyMatch(c -> c.getPackageName().startsWith("io.gpufleet." + layer)))
          .as("classes in io.gpufleet.%s", layer).isTrue();
    }
  }

  @Test
  void modelDependsOnTheJdkOnly() {
    onlyDependsOn("io.gpufleet.model..");
  }

  @Test
  void engineDependsOnModelOnly() {
    // CEL for DRA device selectors is google's implementation (dev.cel), not one of our own; its type
    // API takes Guava's immutable collections.
    onlyDependsOn("io.gpufleet.engine..", "io.gpufleet.model..", "dev.cel..", "com.google.common.collect..");
  }

  /** Kueue's admission decides from values of the model only; the simulator and the command line will sit on it. */
  @Test
  void queueDependsOnModelOnly() {
    onlyDependsOn("io.gpufleet.queue..", "io.gpufleet.model..");
  }

  @Test
  void autoscalerDependsOnEngineAndModel() {
    onlyDependsOn("io.gpufleet.autoscaler..", "io.gpufleet.engine..", "io.gpufleet.model..");
  }

  @Test
  void simulatorKnowsNoYamlAndNoTerminal() {
    onlyDependsOn("io.gpufleet.sim..", "io.gpufleet.autoscaler..", "io.gpufleet.engine..", "io.gpufleet.queue..",
        "io.gpufleet.model..");
  }

  @Test
  void manifestHoldsNoSchedulingLogic() {
    noClasses().that().resideInAPackage("io.gpufleet.manifest..")
        .should().dependOnClassesThat().resideInAnyPackage(
            "io.gpufleet.engine..", "io.gpufleet.autoscaler..", "io.gpufleet.sim..", "io.gpufleet.report..",
            "io.gpufleet.cli..", "io.gpufleet.queue.quota..", "io.gpufleet.queue.admission..")
        .check(classes);
  }

  @Test
  void theScenarioFormatSitsBetweenManifestsAndTheSimulator() {
    noClasses().that().resideInAPackage("io.gpufleet.scenario..")
        .should().dependOnClassesThat().resideInAnyPackage("io.gpufleet.report..", "io.gpufleet.cli..")
        .check(classes);
    noClasses().that().resideInAnyPackage("io.gpufleet.manifest..", "io.gpufleet.sim..", "io.gpufleet.report..")
        .should().dependOnClassesThat().resideInAPackage("io.gpufleet.scenario..")
        .check(classes);
  }

  /** The one cluster assembly sits on manifests and the engine; the simulator and the engine know nothing of it. */
  @Test
  void theClusterAssemblySitsOnManifestsAndTheEngine() {
    onlyDependsOn("io.gpufleet.cluster..", "io.gpufleet.manifest..", "io.gpufleet.engine..", "io.gpufleet.model..");
    noClasses().that().resideInAnyPackage("io.gpufleet.model..", "io.gpufleet.engine..", "io.gpufleet.autoscaler..",
            "io.gpufleet.sim..", "io.gpufleet.manifest..", "io.gpufleet.report..")
        .should().dependOnClassesThat().resideInAPackage("io.gpufleet.cluster..")
        .check(classes);
  }

  /**
   * One cluster, one answer: the commands (cli) and the dashboard (web) build no cluster of their own.
   * Configuring the GPU Operator from ConfigMaps, finding a node's cards, registering a node, admitting
   * objects and making the controllers' pods happen in the cluster assembly, which every command reads.
   */
  @Test
  void commandsBuildNoClusterOfTheirOwn() {
    noClasses().that().resideInAnyPackage("io.gpufleet.cli..", "io.gpufleet.web..")
        .should().callMethodWhere(CLUSTER_ASSEMBLY_STEPS)
        .check(classes);
    // Lint reads the device-plugin ConfigMaps for its own findings, but no node registers in it.
    noClasses().that().resideInAPackage("io.gpufleet.lint..")
        .should().callMethodWhere(com.tngtech.archunit.base.DescribedPredicate.describe(
            "finding a node's cards or registering it (NodeGpus.of, GpuOperator.register*)",
            call -> call.getTargetOwner().getName().equals("io.gpufleet.engine.deviceplugin.NodeGpus")
                && call.getName().equals("of")
                || call.getTargetOwner().getName().equals("io.gpufleet.engine.deviceplugin.GpuOperator")
                && call.getName().startsWith("register")))
        .check(classes);
  }

  private static final com.tngtech.archunit.base.DescribedPredicate<com.tngtech.archunit.core.domain.JavaMethodCall>
      CLUSTER_ASSEMBLY_STEPS = com.tngtech.archunit.base.DescribedPredicate.describe(
          "the cluster assembly's steps (DevicePluginManifests.namedConfigs/migParted, NodeGpus.of, "
              + "GpuOperator.register*, InitialPods, PriorityAdmission, Admission.admit, NvidiaDraDriver.published)",
          call -> {
            String owner = call.getTargetOwner().getName();
            String name = call.getName();
            return owner.equals("io.gpufleet.manifest.deviceplugin.DevicePluginManifests")
                    && (name.equals("namedConfigs") || name.equals("migParted"))
                || owner.equals("io.gpufleet.engine.deviceplugin.NodeGpus") && name.equals("of")
                || owner.equals("io.gpufleet.engine.deviceplugin.GpuOperator") && name.startsWith("register")
                || owner.equals("io.gpufleet.engine.workload.InitialPods")
                || owner.equals("io.gpufleet.manifest.kube.PriorityAdmission")
                || owner.equals("io.gpufleet.manifest.apiserver.Admission") && name.equals("admit")
                || owner.equals("io.gpufleet.engine.dra.NvidiaDraDriver") && name.equals("published");
          });

  /** The FFM bindings see the model and the engine (for GFD's labels); only the command line sees them. */
  @Test
  void nvmlDependsOnModelAndEngineAndOnlyTheCommandLineOnIt() {
    onlyDependsOn("io.gpufleet.nvml..", "io.gpufleet.engine..", "io.gpufleet.model..", "tools.jackson..");
    noClasses().that().resideOutsideOfPackages("io.gpufleet.nvml..", "io.gpufleet.cli..")
        .should().dependOnClassesThat().resideInAPackage("io.gpufleet.nvml..")
        .check(classes);
  }

  /**
   * Lint reads through manifest, sees the GPU nodes as the cluster assembly registers them and asks
   * the engine for facts; only the command line sees it.
   */
  @Test
  void lintSitsOnManifestAndTheEngineAndOnlyTheCommandLineOnIt() {
    onlyDependsOn("io.gpufleet.lint..", "io.gpufleet.manifest..", "io.gpufleet.cluster..", "io.gpufleet.engine..",
        "io.gpufleet.report..", "io.gpufleet.model..");
    noClasses().that().resideOutsideOfPackages("io.gpufleet.lint..", "io.gpufleet.cli..")
        .should().dependOnClassesThat().resideInAPackage("io.gpufleet.lint..")
        .check(classes);
  }

  /** Live clusters come in through fabric8 into manifests' form; only the command line reaches the import. */
  @Test
  void k8sDependsOnModelAndManifestAndOnlyTheCommandLineOnIt() {
    onlyDependsOn("io.gpufleet.k8s..", "io.gpufleet.model..", "io.gpufleet.manifest..", "io.fabric8..",
        "tools.jackson..", "javax.net..");
    noClasses().that().resideOutsideOfPackages("io.gpufleet.k8s..", "io.gpufleet.cli..")
        .should().dependOnClassesThat().resideInAPackage("io.gpufleet.k8s..")
        .check(classes);
  }

  /**
   * The dashboard renders runs of the simulator through the report's views and reads scenarios;
   * it sits under the command line only, and nothing but the command line reaches it.
   */
  @Test
  void webSitsOnTheSimulatorAndReportsAndOnlyTheCommandLineOnIt() {
    onlyDependsOn("io.gpufleet.web..", "io.gpufleet.sim..", "io.gpufleet.report..", "io.gpufleet.scenario..",
        "io.gpufleet.autoscaler..", "io.gpufleet.engine..", "io.gpufleet.model..", "io.javalin..",
        "tools.jackson..");
    noClasses().that().resideOutsideOfPackages("io.gpufleet.web..", "io.gpufleet.cli..")
        .should().dependOnClassesThat().resideInAPackage("io.gpufleet.web..")
        .check(classes);
  }

  @Test
  void reportDoesNotReachTheCommandLine() {
    noClasses().that().resideInAPackage("io.gpufleet.report..")
        .should().dependOnClassesThat().resideInAnyPackage("io.gpufleet.cli..", "io.gpufleet.manifest..")
        .check(classes);
  }

  @Test
  void theCoreReadsNoWallClock() {
    noClasses().that().resideInAnyPackage(
            "io.gpufleet.model..", "io.gpufleet.engine..", "io.gpufleet.queue..", "io.gpufleet.autoscaler..",
            "io.gpufleet.sim..")
        .should().callMethod(System.class, "currentTimeMillis")
        .orShould().callMethod(System.class, "nanoTime")
        .orShould().callMethod(java.time.Instant.class, "now")
        .orShould().callMethod(java.time.Clock.class, "systemUTC")
        .orShould().callMethod(java.time.Clock.class, "systemDefaultZone")
        .check(classes);
  }

  @Test
  void theCoreDoesNoFileIo() {
    noClasses().that().resideInAnyPackage(
            "io.gpufleet.model..", "io.gpufleet.engine..", "io.gpufleet.queue..", "io.gpufleet.autoscaler..",
            "io.gpufleet.sim..")
        .should().dependOnClassesThat().resideInAnyPackage("java.nio.file..", "java.net..")
        .orShould().dependOnClassesThat().haveFullyQualifiedName("java.io.File")
        .orShould().dependOnClassesThat().haveFullyQualifiedName("java.io.FileInputStream")
        .orShould().dependOnClassesThat().haveFullyQualifiedName("java.io.FileOutputStream")
        .check(classes);
  }

  @Test
  void noStaticMutableState() {
    fields().that().areStatic().and().areDeclaredInClassesThat().resideInAPackage("io.gpufleet..")
        .should().beFinal()
        .check(classes);
  }

  @Test
  void coreRandomnessIsSeededAndPassedIn() {
    noClasses().that().resideInAnyPackage(
            "io.gpufleet.model..", "io.gpufleet.engine..", "io.gpufleet.queue..", "io.gpufleet.autoscaler..",
            "io.gpufleet.sim..")
        .should().callMethod(Math.class, "random")
        .orShould().callConstructor(java.util.Random.class)
        .check(classes);
  }

  /**
   * One way a GPU node registers: the device plugin's advertisement, GFD's labels and the MIG
   * manager's planning are called only inside the engine's device-plugin and MIG packages, whose
   * {@code GpuOperator} every command, the autoscaler and the simulator go through.
   */
  @Test
  void onlyTheEngineAdvertisesLabelsAndPlansMigLayouts() {
    noClasses().that().resideOutsideOfPackages("io.gpufleet.engine.deviceplugin..", "io.gpufleet.engine.mig..")
        .should().callMethodWhere(com.tngtech.archunit.base.DescribedPredicate.describe(
            "the registration internals (Advertisement.of, GfdLabels.of, DevicePlugin.register, "
                + "MigConfigPlanner, StockMigConfigs)",
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
