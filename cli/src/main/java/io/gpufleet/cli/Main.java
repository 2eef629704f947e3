package io.gpufleet.cli;

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
        ReplayCommand.class,
        AdviseCommand.class,
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
    return commandLine().execute(args);
  }

  static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new Main());
    cl.setExecutionExceptionHandler((e, cmd, parsed) -> Cli.handle(e, cmd));
    return cl;
  }
}
