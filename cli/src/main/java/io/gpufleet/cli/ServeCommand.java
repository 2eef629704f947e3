package io.gpufleet.cli;

import io.gpufleet.manifest.yaml.ManifestProblem;
import io.gpufleet.scenario.ScenarioFile;
import io.gpufleet.scenario.ScenarioReader;
import io.gpufleet.scenario.ScenarioSources;
import io.gpufleet.web.server.Dashboard;
import io.gpufleet.web.server.Limits;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code gpufleet serve}: the dashboard of a scenario's run, on a local web server. */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = {
        "Plays a scenario (default: the built-in lab) and serves a dashboard of its run.",
        "The dashboard shows the cluster at any moment (nodes, GPUs and their sharing, pods), the timeline",
        "with the scenario's steps, node lifecycle lanes, charts, the event log, and what-if re-runs",
        "compared side by side.",
        "Listens on 127.0.0.1 unless --address says otherwise; prints the URL; runs until stopped (Ctrl-C)."})
final class ServeCommand implements Callable<Integer> {

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", arity = "0..1", paramLabel = "SCENARIO",
      description = "The scenario file (default: the lab); or give the cluster's manifests with -f or --kubeconfig.")
  Path file;

  @picocli.CommandLine.Mixin ManifestInputOptions input;

  @Option(names = "--for", paramLabel = "DURATION", defaultValue = "1m",
      description = "With -f or --kubeconfig: how long the cluster runs with no changes (default ${DEFAULT-VALUE}).")
  String runFor;

  @Option(names = "--address", paramLabel = "HOST", defaultValue = "127.0.0.1",
      description = "The address to listen on (default ${DEFAULT-VALUE}: this machine only).")
  String address;

  @Option(names = "--port", paramLabel = "PORT", defaultValue = "8080",
      description = "The port (default ${DEFAULT-VALUE}; 0 picks a free one).")
  int port;

  @Override
  public Integer call() throws IOException, InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    Listening l = listen(spec.commandLine().getErr());
    String host = address.contains(":") && !address.startsWith("[") ? "[" + address + "]" : address;
    out.println("gpufleet serve: " + l.scenario().scenario().name() + " at http://" + host + ":" + l.dashboard().port()
        + "/");
    out.println("(Ctrl-C stops it)");
    out.flush();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      l.dashboard().close();
      stopped.countDown();
    }));
    stopped.await();
    return ExitCodes.OK;
  }

  /** The dashboard serving, and the scenario it plays. */
  record Listening(ScenarioFile scenario, Dashboard dashboard) {}

  /**
   * Checks the options, plays the scenario and starts the dashboard, with a when view where the
   * cluster was given as manifests (-f, --kubeconfig): the cluster when asks about is known then.
   */
  Listening listen(PrintWriter err) throws IOException {
    if (port < 0 || port > 65_535) {
      throw new UserError("--port: expected 0 to 65535, found " + port);
    }
    if (!address.matches("[A-Za-z0-9.:\\-\\[\\]]{1,253}")) {
      throw new UserError("--address: expected a host name or IP address, found \"" + address + "\"");
    }
    if (file == null && !input.given() && input.admissionChanged()) {
      throw new UserError("--enable-admission-plugins and --disable-admission-plugins apply to manifests (-f, "
          + "--kubeconfig); the built-in lab runs with EKS's admission plugins");
    }
    if (file == null && !input.given() && input.gpuCatalog != null) {
      throw new UserError("--gpu-catalog applies to manifests (-f, --kubeconfig); the built-in lab uses the built-in "
          + "GPU catalogue");
    }
    ScenarioFile scenario = file == null && !input.given()
        ? ScenarioReader.read("builtin:lab.yaml", LabCommand.builtIn("lab.yaml"),
            ScenarioSources.classpath(LabCommand.class, LabCommand.FOLDER))
        : SimulateCommand.scenario(file, input, runFor);
    for (ManifestProblem w : scenario.warnings()) {
      err.println(w);
    }
    err.flush();
    try {
      return new Listening(scenario, input.given()
          ? Dashboard.start(scenario, address, port, Limits.DEFAULTS, WhenCommand.forecaster(input))
          : Dashboard.start(scenario, address, port, Limits.DEFAULTS));
    } catch (RuntimeException e) {
      // Jetty wraps a bind failure (port taken, address not ours); say it in a line.
      throw new UserError("cannot listen on " + address + ":" + port + ": " + rootMessage(e));
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
  }
}
