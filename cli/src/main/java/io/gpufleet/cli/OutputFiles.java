package io.gpufleet.cli;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * The one way a command writes files: every file goes into one output directory under a plain name
 * (no separator, never {@code .} or {@code ..}), is written to a temporary file there first and
 * renamed into place only once every file of the run has been written, so a failed run leaves no
 * partial results. A rename replaces a symbolic link at the target rather than writing through it.
 * Failures are {@link UserError}s that name the file and the operating system's reason in words.
 */
final class OutputFiles {
  private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
  private static final FileAttribute<Set<PosixFilePermission>> READABLE =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--"));

  private final Path dir;
  private final Map<String, Content> files = new LinkedHashMap<>();

  /** A file's bytes, written to its temporary file's stream (buffered) when the files are written. */
  @FunctionalInterface
  interface Content {
    void writeTo(OutputStream out) throws IOException;
  }

  private OutputFiles(Path dir) {
    this.dir = dir;
  }

  /** Files to be written into {@code dir}, which is created (with its parents) if it is missing. */
  static OutputFiles in(Path dir) {
    return new OutputFiles(dir);
  }

  /** One file, {@code file}, written on its own into its parent directory (the working directory if none). */
  static Path writeOne(Path file, String text) {
    Path name = file.getFileName();
    if (name == null) {
      throw new UserError("cannot write " + file + ": not a file name");
    }
    Path parent = file.getParent();
    return in(parent == null ? Path.of("") : parent).add(name.toString(), text).write().getFirst();
  }

  /** Adds the file {@code name} with {@code text} (UTF-8); the name must be one plain path segment. */
  OutputFiles add(String name, String text) {
    return add(name, out -> out.write(text.getBytes(StandardCharsets.UTF_8)));
  }

  /** Adds the file {@code name} with the text (UTF-8) {@code text} makes when the files are written. */
  OutputFiles addMade(String name, Supplier<String> text) {
    return add(name, out -> out.write(text.get().getBytes(StandardCharsets.UTF_8)));
  }

  /** Adds the file {@code name} whose bytes {@code content} writes (made while it is written, not held whole). */
  OutputFiles add(String name, Content content) {
    requirePlainName(name);
    if (files.putIfAbsent(name, content) != null) {
      throw new IllegalArgumentException("the same output file twice: " + name);
    }
    return this;
  }

  /**
   * A name derived from user input (a scenario's name, say) made safe as one path segment: characters
   * other than letters, digits, {@code .}, {@code _} and {@code -} become {@code _}, and a name of only
   * dots is refused. {@code what} says where the name came from, for the error.
   */
  static String safeName(String name, String what) {
    String cleaned = name.replaceAll("[^A-Za-z0-9._-]", "_");
    if (cleaned.isEmpty() || cleaned.chars().allMatch(c -> c == '.')) {
      throw new UserError(what + " \"" + name + "\" cannot name an output folder; give --out DIR");
    }
    return cleaned;
  }

  /** Writes every added file, then moves them all into place; returns their paths in the order added. */
  List<Path> write() {
    createDirectory();
    List<Path> targets = new ArrayList<>();
    for (String name : files.keySet()) {
      Path target = dir.resolve(name);
      if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
        throw new UserError("cannot write " + target + ": it is a directory");
      }
      targets.add(target);
    }
    List<Path> temps = new ArrayList<>();
    try {
      int i = 0;
      for (String name : files.keySet()) {
        Path target = targets.get(i++);
        try {
          // Created exclusively (O_EXCL), so a link planted at a guessable name is never followed;
          // readable by others as a plainly written file would be (the umask still applies).
          temps.add(POSIX ? Files.createTempFile(dir, "." + name + ".", ".tmp", READABLE)
              : Files.createTempFile(dir, "." + name + ".", ".tmp"));
        } catch (IOException e) {
          throw new UserError("cannot write " + target + ": " + reason(e));
        }
      }
      writeContents(targets, temps);
      for (int k = 0; k < temps.size(); k++) {
        move(temps.get(k), targets.get(k));
        temps.set(k, null);
      }
      return List.copyOf(targets);
    } finally {
      for (Path t : temps) {
        if (t != null) {
          try {
            Files.deleteIfExists(t);
          } catch (IOException ignored) {
            // Best effort: the error that brought us here is the one to report.
          }
        }
      }
    }
  }

  /**
   * Makes and writes each file's content into its temporary file, each on a thread of its own: a
   * large run's files (the record, the report, the pods' table) take comparable time and share
   * nothing, so on a machine of several cores they are written side by side. The first failure in
   * the order the files were added is the one reported, as when they were written in turn.
   */
  private void writeContents(List<Path> targets, List<Path> temps) {
    List<Content> contents = List.copyOf(files.values());
    List<Future<?>> done = new ArrayList<>();
    try (ExecutorService threads = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().name("gpufleet-out-", 0)
        .factory())) {
      for (int k = 0; k < contents.size(); k++) {
        Content content = contents.get(k);
        Path temp = temps.get(k);
        done.add(threads.submit(() -> {
          try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(temp), 1 << 16)) {
            content.writeTo(out);
          }
          return null;
        }));
      }
    }
    for (int k = 0; k < done.size(); k++) {
      try {
        done.get(k).get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new UserError("cannot write " + targets.get(k) + ": interrupted");
      } catch (ExecutionException e) {
        switch (e.getCause()) {
          case IOException io -> throw new UserError("cannot write " + targets.get(k) + ": " + reason(io));
          case RuntimeException r -> throw r;
          case Error err -> throw err;
          default -> throw new IllegalStateException(e.getCause());
        }
      }
    }
  }

  private void createDirectory() {
    try {
      Files.createDirectories(dir);
    } catch (FileAlreadyExistsException e) {
      throw new UserError("cannot write into " + dir + ": it is not a directory");
    } catch (IOException e) {
      throw new UserError("cannot create " + dir + ": " + reason(e));
    }
  }

  private static void move(Path temp, Path target) {
    try {
      try {
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new UserError("cannot write " + target + ": " + reason(e));
    }
  }

  private static void requirePlainName(String name) {
    if (name.isEmpty() || name.equals(".") || name.equals("..") || name.contains("/") || name.contains("\\")
        || name.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("not a plain file name: \"" + name + "\"");
    }
  }

  /** The operating system's reason in plain words, without Java's exception class names. */
  static String reason(IOException e) {
    return switch (e) {
      case AccessDeniedException a -> "permission denied";
      case NoSuchFileException n -> "no such file or directory";
      case NotDirectoryException n -> "not a directory";
      case DirectoryNotEmptyException d -> "it is a directory";
      case FileAlreadyExistsException f -> "a file is in the way";
      case FileSystemException f when f.getReason() != null -> f.getReason().toLowerCase(Locale.ROOT);
      default -> e.getMessage() == null ? "input/output error" : e.getMessage();
    };
  }
}
