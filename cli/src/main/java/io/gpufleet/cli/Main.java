package io.gpufleet.cli;

import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code gpufleet} command: subcommands are wired here and nowhere else. */
@Command(
    name = "gpufleet",
    mixinStandardHelpOptions = true,
    version = {"gpufleet 0.1.0", "follows Kubernetes " + io.gpufleet.model.meta.KubernetesVersion.FOLLOWS},
    description = "A digital twin of a Kubernetes GPU platform: scheduler, device plugin, autoscaler, in deterministic discrete-event time.",
    subcommands = {
        LabCommand.class,
        SimulateCommand.class,
        ScheduleCommand.class,
        NodeCommand.class,
        SmiCommand.class,
        ImportCommand.class,
        ReplayCommand.class,
        AdviseCommand.class,
        LintCommand.class,
        ServeCommand.class,
        ProbeCommand.class,
        BenchSharingCommand.class,
        CommandLine.HelpCommand.class})
public final class Main implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  public static void main(String[] args) {
    System.exit(new Main().execute(args));
  }

  /** Runs the command line as the {@code gpufleet} script would; returns its exit code. */
  public int execute(String... args) {
    return run(System.out, System.err, args);
  }

  /**
   * Runs the command line with its output and errors written to {@code out} and {@code err} in
   * UTF-8, as kubectl and other Go tools write, whatever the platform's locale: the bytes of a run
   * never depend on {@code LANG}.
   */
  static int run(OutputStream out, OutputStream err, String... args) {
    CommandLine cl = commandLine();
    PrintWriter o = new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true);
    PrintWriter e = new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true);
    cl.setOut(o);
    cl.setErr(e);
    int code = cl.execute(args);
    o.flush();
    e.flush();
    return code;
  }

  static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new Main());
    cl.setExecutionExceptionHandler((e, cmd, parsed) -> Cli.handle(e, cmd));
    return cl;
  }
}
