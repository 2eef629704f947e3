package io.gpufleet.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs the command line in-process and captures what it prints. */
record CliRun(int exitCode, String out, String err) {

  static CliRun of(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = Main.commandLine();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int code = cl.execute(args);
    return new CliRun(code, out.toString(), err.toString());
  }

  /** The commands that fit their lines to 120 columns unless given {@code --wide}. */
  private static final java.util.Set<String> FITTED = java.util.Set.of("lab", "simulate", "schedule", "smi", "advise");

  /**
   * As {@link #of}, with {@code --wide} where the command fits its lines to 120 columns: each row
   * whole on one line, as tests that read rows by pattern want it. TerminalWidthTest holds the
   * default to the same text.
   */
  static CliRun wide(String... args) {
    return of(withWide(args));
  }

  static String[] withWide(String... args) {
    if (args.length == 0 || !FITTED.contains(args[0])) {
      return args;
    }
    String[] w = new String[args.length + 1];
    w[0] = args[0];
    w[1] = "--wide";
    System.arraycopy(args, 1, w, 2, args.length - 1);
    return w;
  }
}
