package io.gpufleet.manifest;

import io.gpufleet.manifest.yaml.Location;
import io.gpufleet.manifest.yaml.ManifestException;
import io.gpufleet.manifest.yaml.ManifestProblem;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * kubectl's {@code -f} conventions: {@code -f} repeated, {@code -f -} for stdin, {@code -f DIR}
 * for the directory's {@code .json}, {@code .yaml} and {@code .yml} files in name order (its
 * subdirectories too with {@code -R}), each in the order given. A file named explicitly is read
 * whatever its extension, as kubectl does. Input must be UTF-8 text.
 *
 * <p>Source: kubectl's {@code FileVisitor} walk and {@code FileExtensions} in
 * k8s.io/cli-runtime/pkg/resource/visitor.go ({@code ExpandPathsToFileVisitors}).
 */
public final class ManifestInput {
  private ManifestInput() {}

  /** The extensions kubectl reads from a directory. */
  static final List<String> EXTENSIONS = List.of(".json", ".yaml", ".yml");

  /** Expands {@code -f} arguments into the texts they name, in kubectl's order. */
  public static List<ManifestSource> expand(List<String> filenames, boolean recursive, InputStream stdin) {
    List<ManifestSource> out = new ArrayList<>();
    boolean stdinRead = false;
    for (String name : filenames) {
      if (name.equals("-")) {
        if (stdinRead) {
          throw problem(name, "standard input can be read only once (\"-f -\" is given twice)");
        }
        stdinRead = true;
        out.add(new ManifestSource("-", decode("-", readStdin(stdin))));
        continue;
      }
      if (name.startsWith("http://") || name.startsWith("https://")) {
        throw problem(name, "reading manifests from a URL is not supported; download the file and pass its path");
      }
      Path path = Path.of(name);
      if (Files.isDirectory(path)) {
        List<Path> files = directory(path, recursive);
        if (files.isEmpty()) {
          throw problem(name, "the directory holds no .json, .yaml or .yml file"
              + (recursive ? "" : " (add -R to read its subdirectories)"));
        }
        for (Path f : files) {
          out.add(read(f));
        }
      } else {
        out.add(read(path));
      }
    }
    return out;
  }

  /** The manifest files of a directory as {@code kubectl -f DIR} reads them (with {@code -R}: {@code recursive}). */
  public static List<Path> filesIn(Path dir, boolean recursive) {
    return directory(dir, recursive);
  }

  private static List<Path> directory(Path dir, boolean recursive) {
    try (Stream<Path> walk = recursive ? Files.walk(dir) : Files.list(dir)) {
      return walk.filter(Files::isRegularFile)
          .filter(p -> EXTENSIONS.stream().anyMatch(e -> p.getFileName().toString().toLowerCase(Locale.ROOT)
              .endsWith(e)))
          .sorted().toList();
    } catch (IOException | UncheckedIOException e) {
      throw problem(dir.toString(), "cannot list the directory: " + reason(e));
    }
  }

  /** One file's text, with a one-line error that keeps the operating system's reason. */
  public static ManifestSource read(Path file) {
    String name = file.toString();
    try {
      return new ManifestSource(name, decode(name, Files.readAllBytes(file)));
    } catch (IOException e) {
      throw problem(name, reason(e));
    }
  }

  private static byte[] readStdin(InputStream stdin) {
    try {
      return stdin.readAllBytes();
    } catch (IOException e) {
      throw problem("-", "cannot read standard input: " + reason(e));
    }
  }

  /** UTF-8 strictly: a stray byte is an error that says where, never a replacement character. */
  static String decode(String name, byte[] bytes) {
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
    } catch (MalformedInputException e) {
      int offset = firstBadByte(bytes);
      return fail(name, "not UTF-8 text (invalid byte 0x" + String.format(Locale.ROOT, "%02x", bytes[offset] & 0xff)
          + " at byte offset " + offset + ")");
    } catch (CharacterCodingException e) {
      return fail(name, "not UTF-8 text");
    }
  }

  private static int firstBadByte(byte[] bytes) {
    var decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    var result = decoder.decode(in, CharBuffer.allocate(bytes.length + 1), true);
    return result.isError() ? in.position() : 0;
  }

  private static String fail(String name, String message) {
    throw problem(name, message);
  }

  static String reason(Exception e) {
    return switch (e) {
      case NoSuchFileException n -> "no such file or directory";
      case AccessDeniedException a -> "permission denied";
      case FileSystemException f when f.getReason() != null -> f.getReason();
      default -> e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    };
  }

  private static ManifestException problem(String name, String message) {
    return new ManifestException(ManifestProblem.error(Location.unknown(name), "", message));
  }
}
