package io.gpufleet.cli;

import io.gpufleet.model.text.Printable;
import java.io.Console;
import java.io.PrintWriter;

/** A one-line progress bar on stderr when it is a terminal; silent otherwise (pipes, CI, tests). */
final class TerminalProgress implements AutoCloseable {

  private final PrintWriter err;
  private final boolean enabled;
  private int shownPermille = -1;
  private boolean drawn;

  private TerminalProgress(PrintWriter err, boolean enabled) {
    this.err = err;
    this.enabled = enabled;
  }

  static TerminalProgress forTerminal(PrintWriter err) {
    Console console = System.console();
    return new TerminalProgress(err, console != null && console.isTerminal());
  }

  /** A bar that never draws: for work whose progress a caller shows otherwise. */
  static TerminalProgress off(PrintWriter err) {
    return new TerminalProgress(err, false);
  }

  /** Shows {@code done} of {@code total} with a label; redraws only when the bar moves. */
  synchronized void update(long done, long total, String label) {
    if (!enabled || total <= 0) {
      return;
    }
    int permille = (int) Math.min(1000, done * 1000 / total);
    if (permille == shownPermille) {
      return;
    }
    shownPermille = permille;
    int width = 30;
    int filled = permille * width / 1000;
    String line = "[" + "#".repeat(filled) + ".".repeat(width - filled) + "] " + done + "/" + total + "  "
        + Printable.cut(label, 79);
    draw("\r" + (line.length() > 78 ? line.substring(0, 78) : line + " ".repeat(78 - line.length())));
    drawn = true;
  }

  @Override
  public synchronized void close() {
    if (enabled && drawn) {
      draw("\r" + " ".repeat(78) + "\r");
    }
  }

  /** The bar's carriage returns are its own, so they pass the terminal writer's escaping. */
  private void draw(String s) {
    if (err instanceof TerminalWriter t) {
      t.printControl(s);
    } else {
      err.print(s);
      err.flush();
    }
  }
}
