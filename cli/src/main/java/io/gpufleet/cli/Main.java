package io.gpufleet.cli;

import io.gpufleet.model.meta.KubernetesVersion;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;
import java.util.Set;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/** The {@code gpufleet} command: subcommands are wired here and nowhere else. */
@Command(
    name = "gpufleet",
    mixinStandardHelpOptions = true,
    version = {"gpufleet 0.1.0", "follows Kubernetes " + KubernetesVersion.FOLLOWS},
    description = "A digital twin of a Kubernetes GPU platform: scheduler, device plugin, autoscaler, in deterministic discrete-event time.")
public final class Main implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  public static void main(String[] args) {
    startUp();
    int code = new Main().execute(args);
    // Runtime.exit asks the platform's System.Logger whether to log the exit (JDK 17+), and finding
    // that logger reads META-INF/services of every jar on the class path: about 100 jars opened for
    // nothing on every call. A successful call ends by returning instead, unless a thread of its
    // own would keep the JVM alive.
    if (code != ExitCodes.OK || otherThreadKeepsJvmAlive(Thread.currentThread(), Thread.getAllStackTraces().keySet())) {
      System.exit(code);
    }
  }

  /**
   * The types whose built-in converters picocli is told not to register (its
   * {@code picocli.converters.excludes}, a comma-separated list of regular expressions). No option
   * or positional of gpufleet has one of them as its type ({@code PicocliConvertersTest} holds that).
   */
  static final String UNUSED_CONVERTERS = "java\\.(sql|time)\\..*";

  /**
   * Process-wide settings of a real call, made before any picocli class is used: picocli's default
   * factory looks for Groovy's {@code Closure} class (to run closures given in annotations) unless
   * told not to, and a class that is not there is looked for in every jar of the class path. Each
   * command line picocli builds (one per command) registers a converter for each java.sql and
   * java.time type it finds, by Class.forName: 17 look-ups, and some 60 classes initialised, that a
   * call never uses.
   */
  static void startUp() {
    System.setProperty("picocli.disable.closures", "true");
    System.setProperty("picocli.converters.excludes", UNUSED_CONVERTERS);
    // JDK 25's BigDecimal computes 5^(2^16) when it is initialised (its FIVE_TO_2_TO table), in the
    // interpreter this early: a fifth of the main thread's Java samples in a small schedule, which
    // meets it first through Jackson's YAML parser. The AOT cache holds no initialised state of
    // such a class, so a daemon thread initialises it while the main thread builds the command
    // line; the main thread waits for it only if it needs the class before that thread is done.
    Thread.ofPlatform().name("gpufleet-bigdecimal").daemon().start(() -> BigDecimal.ZERO.signum());
  }

  /** Whether any thread but {@code main} is alive and not a daemon: the JVM would wait for it. */
  static boolean otherThreadKeepsJvmAlive(Thread main, Collection<Thread> threads) {
    // A loop, not a stream with a lambda: this runs once, at the end of a call, and the AOT cache's
    // training (Main.run, not main) never links that lambda, so its class was the one a small
    // schedule still made at run time, starting the JDK's class-file writer just to exit.
    for (Thread t : threads) {
      if (t != main && t.isAlive() && !t.isDaemon()) {
        return true;
      }
    }
    return false;
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
    CommandLine cl = commandLine(List.of(args));
    // Every byte a command prints goes through a TerminalWriter: no input reaches the terminal raw.
    PrintWriter o = TerminalWriter.over(out);
    PrintWriter e = TerminalWriter.over(err);
    cl.setOut(o);
    cl.setErr(e);
    int code = cl.execute(args);
    o.flush();
    e.flush();
    return code;
  }

  /**
   * The subcommands, in the order help lists them. A call builds only the model of the subcommand
   * it names (commandLine).
   */
  private static final SequencedMap<String, Supplier<Object>> SUBCOMMANDS =
      subcommands();

  private static SequencedMap<String, Supplier<Object>> subcommands() {
    LinkedHashMap<String, Supplier<Object>> m = new LinkedHashMap<>();
    m.put("lab", LabCommand::new);
    m.put("simulate", SimulateCommand::new);
    m.put("schedule", ScheduleCommand::new);
    m.put("node", NodeCommand::new);
    m.put("smi", SmiCommand::new);
    m.put("when", WhenCommand::new);
    m.put("import", ImportCommand::new);
    m.put("replay", ReplayCommand::new);
    m.put("advise", AdviseCommand::new);
    m.put("lint", LintCommand::new);
    m.put("serve", ServeCommand::new);
    m.put("probe", ProbeCommand::new);
    m.put("bench-sharing", BenchSharingCommand::new);
    // A lambda, not a constructor reference: JDK 25.0.3 crashed assembling a cache with a method
    // handle to a picocli class it could not hold (archiveHeapWriter.cpp, before the build upgraded them).
    m.put("help", () -> new CommandLine.HelpCommand());
    return Collections.unmodifiableSequencedMap(m);
  }

  /** The names of the subcommands, in the order help lists them. */
  static Set<String> subcommandNames() {
    return SUBCOMMANDS.sequencedKeySet();
  }

  /** A new instance of the subcommand {@code name}. */
  static Object newCommand(String name) {
    return SUBCOMMANDS.get(name).get();
  }

  /** The whole command tree. */
  static CommandLine commandLine() {
    return commandLine(List.of());
  }

  /**
   * The tree a call with {@code args} needs: only the subcommand named first, when one is (help
   * excepted, which lists them all); none for a lone {@code --version}; else all of them. Each
   * model is built by {@link CommandSpecs}' code rather than from annotations by reflection.
   */
  static CommandLine commandLine(List<String> args) {
    CommandLine cl = new CommandLine(CommandSpecs.main(new Main()));
    String first = args.isEmpty() ? "" : args.getFirst();
    if (SUBCOMMANDS.containsKey(first) && !first.equals("help")) {
      cl.addSubcommand(first, model(newCommand(first)));
    } else if (!(args.size() == 1 && (first.equals("--version") || first.equals("-V")))) {
      SUBCOMMANDS.forEach((name, command) -> cl.addSubcommand(name, model(command.get())));
    }
    return cl.setExecutionExceptionHandler((e, cmd, parsed) -> Cli.handle(e, cmd));
  }

  /** The command's model written by CommandSpecs, or the command itself for picocli to read (its help). */
  private static Object model(Object command) {
    CommandSpec spec = CommandSpecs.of(command);
    return spec != null ? spec : command;
  }
}
