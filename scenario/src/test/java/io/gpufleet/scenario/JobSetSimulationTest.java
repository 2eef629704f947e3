package io.gpufleet.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.sim.Simulation;
import io.gpufleet.sim.SimulationResult;
import io.gpufleet.sim.record.RunRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A JobSet ({@code jobset.x-k8s.io/v1alpha2}, kubernetes-sigs/jobset) in the simulator: its controller
 * makes {@code <jobset>-<replicatedJob>-<index>} Jobs (pkg/controllers/jobset_controller.go
 * {@code constructJobsFromTemplate}), the Job controller runs them, and the JobSet is Completed
 * ("AllJobsCompleted") when the last of them completes (successPolicy operator All, the webhook's default).
 */
class JobSetSimulationTest {

  static final String SCENARIO = """
      apiVersion: gpufleet.io/v1alpha1
      kind: Scenario
      metadata: {name: jobset}
      spec:
        cluster:
        - apiVersion: v1
          kind: Node
          metadata: {name: node-1}
          status:
            allocatable: {cpu: "8", memory: 32Gi, pods: "110"}
        steps:
        - title: a JobSet of a driver and two workers' Jobs
          actions:
          - apply:
            - apiVersion: jobset.x-k8s.io/v1alpha2
              kind: JobSet
              metadata: {name: train}
              spec:
                EXTRA
                replicatedJobs:
                - name: driver
                  template:
                    spec:
                      template:
                        metadata: {annotations: {gpufleet.io/run-for: 10m}}
                        spec:
                          restartPolicy: Never
                          containers: [{name: c, image: busybox, resources: {requests: {cpu: "1"}}}]
                - name: workers
                  replicas: 2
                  template:
                    spec:
                      parallelism: 2
                      completions: 2
                      template:
                        metadata: {annotations: {gpufleet.io/run-for: 20m}}
                        spec:
                          restartPolicy: Never
                          containers: [{name: c, image: busybox, resources: {requests: {cpu: "1"}}}]
          - wait: 1h
      """;

  static ScenarioFile read(String extra) {
    return ScenarioReader.read("s.yaml", SCENARIO.replace("EXTRA", extra),
        ScenarioSources.directory(Path.of(".")));
  }

  static List<String> errors(String extra) {
    return ScenarioReaderTest.errors(SCENARIO.replace("EXTRA", extra));
  }

  static List<String> warnings(ScenarioFile f) {
    return f.warnings().stream().map(ManifestProblem::toString).toList();
  }

  @Test
  void itsJobsRunAndItCompletesWithTheLastOfThem() {
    ScenarioFile f = read("suspend: false");
    assertThat(warnings(f)).noneMatch(w -> w.contains("JobSet"));
    SimulationResult r = Simulation.run(f.scenario());
    List<String> created = r.record().of(RunRecord.Kind.SCENARIO).stream()
        .filter(e -> e.message().equals("created")).map(RunRecord.Entry::subject).toList();
    assertThat(created).containsExactlyInAnyOrder("Job/default/train-driver-0", "Job/default/train-workers-0",
        "Job/default/train-workers-1");
    List<RunRecord.Entry> scheduled = r.record().of(RunRecord.Kind.POD_SCHEDULED);
    assertThat(scheduled).hasSize(5);
    assertThat(scheduled).extracting(RunRecord.Entry::subject).allMatch(s -> s.startsWith("default/train-"));
    List<RunRecord.Entry> done = r.record().about("JobSet/default/train");
    assertThat(done).extracting(RunRecord.Entry::message)
        .containsExactly("JobSet Completed: AllJobsCompleted: jobset completed successfully");
    Instant lastJob = r.record().of(RunRecord.Kind.SCENARIO).stream()
        .filter(e -> e.message().startsWith("Job complete")).map(RunRecord.Entry::time).max(Instant::compareTo)
        .orElseThrow();
    Instant driverDone = r.record().about("Job/default/train-driver-0").stream()
        .filter(e -> e.message().startsWith("Job complete")).map(RunRecord.Entry::time).findFirst().orElseThrow();
    // Not when the 10-minute driver completes: when the 20-minute workers' last Job does.
    assertThat(done.getFirst().time()).isEqualTo(lastJob).isAfterOrEqualTo(driverDone.plus(Duration.ofMinutes(10)));
  }

  @Test
  void aSuspendedJobSetRunsNothing() {
    ScenarioFile f = read("suspend: true");
    assertThat(warnings(f)).anyMatch(w -> w.contains("JobSet \"train\" is suspended"));
    SimulationResult r = Simulation.run(f.scenario());
    assertThat(r.record().of(RunRecord.Kind.POD_SCHEDULED)).isEmpty();
  }

  @Test
  void unmodelledFieldsAreWarningsByName() {
    assertThat(warnings(read("failurePolicy: {maxRestarts: 3}")))
        .anyMatch(w -> w.contains("spec.failurePolicy") && w.contains("JobSet failurePolicy is not modelled"));
    assertThat(warnings(read("successPolicy: {operator: Any}")))
        .anyMatch(w -> w.contains("JobSet successPolicy other than operator All"));
    assertThat(warnings(read("successPolicy: {operator: All}"))).noneMatch(w -> w.contains("successPolicy"));
  }

  @Test
  void badValuesAreErrorsAtTheirLine() {
    // The CRD's enum (+kubebuilder:validation:Enum=All;Any) and the webhook's ValidateCreate.
    assertThat(errors("successPolicy: {operator: Some}"))
        .anyMatch(e -> e.contains("Unsupported value: \"Some\": supported values: \"All\", \"Any\""));
    assertThat(errors("successPolicy: {operator: All, targetReplicatedJobs: [leader]}"))
        .anyMatch(e -> e.contains("invalid replicatedJob name 'leader' does not appear in .spec.ReplicatedJobs"));
    assertThat(errors("suspend: sometimes")).isNotEmpty();
  }
}
