package io.gpufleet.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The README and {@code docs/*.md} name only paths that exist. A backticked word (or a word of a
 * {@code ./command} line in a code block) is a repository path when its first segment is a top-level
 * entry of the repository; {@code out/} and {@code target/} are what commands and builds write, and
 * {@code ../} leaves the repository, so neither is checked. Relative Markdown links must resolve from
 * the page that holds them, {@code #anchors} included. The "where to change what" map is held
 * stricter: every row names at least one path, and every path-like word in it must resolve.
 */
class DocsPathsTest {

  private static final Pattern CODE_SPAN = Pattern.compile("`([^`]+)`");
  private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
  private static final Set<String> WRITTEN_BY_COMMANDS = Set.of("out", "target");
  private static final String MAP = "docs/where-to-change-what.md";

  private static Path repo;
  private static Set<String> roots;

  @BeforeAll
  static void findRepository() throws IOException {
    repo = Path.of("").toAbsolutePath().getParent();
    roots = new TreeSet<>();
    try (Stream<Path> top = Files.list(repo)) {
      top.map(p -> p.getFileName().toString()).filter(n -> !WRITTEN_BY_COMMANDS.contains(n)).forEach(roots::add);
    }
  }

  /** A path-like word in a page, where it was written. */
  record Mention(String page, int line, String path) {
    @Override
    public String toString() {
      return page + ":" + line + ": " + path;
    }
  }

  @Test
  void everyPathTheDocsNameExists() throws IOException {
    List<String> pages = pages();
    assertThat(pages).as("the docs split").contains("README.md", MAP, "docs/conformance.md");
    List<Mention> missing = new ArrayList<>();
    int checked = 0;
    for (String page : pages) {
      for (Mention m : repoPaths(page, Files.readString(repo.resolve(page)), roots)) {
        checked++;
        if (!exists(m.path())) {
          missing.add(m);
        }
      }
    }
    assertThat(checked).as("paths found in the docs").isPositive();
    assertThat(missing).as("paths the docs name that do not exist").isEmpty();
  }

  @Test
  void relativeLinksAndTheirAnchorsResolve() throws IOException {
    List<String> broken = new ArrayList<>();
    for (String page : pages()) {
      Path dir = repo.resolve(page).getParent();
      String text = Files.readString(repo.resolve(page));
      Matcher m = LINK.matcher(text);
      while (m.find()) {
        String target = m.group(1);
        if (target.matches("^[a-z]+:.*")) {
          continue; // https:, mailto:
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path resolved = file.isEmpty() ? repo.resolve(page) : dir.resolve(file).normalize();
        int line = lineOf(text, m.start());
        if (!Files.exists(resolved)) {
          broken.add(page + ":" + line + ": " + target + " (no such file)");
        } else if (hash >= 0 && !anchors(Files.readString(resolved)).contains(target.substring(hash + 1))) {
          broken.add(page + ":" + line + ": " + target + " (no such heading)");
        }
      }
    }
    assertThat(broken).as("relative links in the docs").isEmpty();
  }

  @Test
  void everyRowOfTheMapNamesAnExistingPath() throws IOException {
    String[] lines = Files.readString(repo.resolve(MAP)).split("\n", -1);
    List<String> problems = new ArrayList<>();
    int rows = 0;
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      if (!line.startsWith("|") || line.startsWith("|---") || i + 1 < lines.length && lines[i + 1].startsWith("|---")) {
        continue; // not a row, or the header
      }
      rows++;
      List<String> paths = new ArrayList<>();
      Matcher m = CODE_SPAN.matcher(line);
      while (m.find()) {
        String word = m.group(1);
        if (word.contains("/") && !word.contains(" ")) {
          paths.add(word);
        }
      }
      String topic = line.split("\\|")[1].trim();
      if (paths.isEmpty()) {
        problems.add(MAP + ":" + (i + 1) + ": '" + topic + "' names no path");
      }
      for (String p : paths) {
        if (!exists(p)) {
          problems.add(MAP + ":" + (i + 1) + ": '" + topic + "' names " + p + ", which does not exist");
        }
      }
    }
    assertThat(rows).as("rows of the map").isGreaterThanOrEqualTo(8);
    assertThat(problems).isEmpty();
  }

  @Test
  void theCheckerFindsAMissingPathInProseCodeAndCommands() {
    String page = """
        See `model/src/main/java/io/gpufleet/model/NoSuchFile.java` and `nvidia.com/gpu`.

        ```
        ./gpufleet simulate examples/no-such-scenario.yaml   # a comment naming out/x
        $ ./gpufleet schedule -f examples/scheduling/gpu-taint.yaml
        ```
        Outside: `../shared/reference/x.md`, `out/openb/sweep-table.md`, `scripts/bench SchedulerBench`.
        """;
    List<Mention> found = repoPaths("page.md", page, Set.of("model", "examples", "scripts"));
    assertThat(found).extracting(Mention::path).containsExactly(
        "model/src/main/java/io/gpufleet/model/NoSuchFile.java",
        "examples/no-such-scenario.yaml",
        "examples/scheduling/gpu-taint.yaml",
        "scripts/bench");
    assertThat(found).extracting(Mention::line).containsExactly(1, 4, 5, 7);
  }

  @Test
  void anchorsAreGitHubsHeadingSlugs() {
    assertThat(anchors("""
        ## Choosing the sharing mode: gpufleet advise
        ### The performance model (`io.gpufleet.engine.perf`)
        ```
        # not a heading inside code
        ```
        """)).containsExactly("choosing-the-sharing-mode-gpufleet-advise", "the-performance-model-iogpufleetengineperf");
  }

  /** README.md and every page under docs/, repository-relative, in a fixed order. */
  private static List<String> pages() throws IOException {
    List<String> pages = new ArrayList<>(List.of("README.md"));
    try (Stream<Path> docs = Files.list(repo.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).map(p -> "docs/" + p.getFileName()).sorted().forEach(pages::add);
    }
    return pages;
  }

  private boolean exists(String path) {
    Path p = repo.resolve(path);
    return path.endsWith("/") ? Files.isDirectory(p) : Files.exists(p);
  }

  /** The repository paths a page names: in code spans, and in the command lines of code blocks. */
  static List<Mention> repoPaths(String page, String text, Set<String> roots) {
    List<Mention> found = new ArrayList<>();
    boolean inBlock = false;
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      if (line.startsWith("```")) {
        inBlock = !inBlock;
        continue;
      }
      List<String> words = new ArrayList<>();
      if (inBlock) {
        String command = line.startsWith("$ ") ? line.substring(2) : line;
        if (command.startsWith("./")) {
          int comment = command.indexOf(" #");
          words.addAll(List.of((comment < 0 ? command : command.substring(0, comment)).trim().split("\\s+")));
        }
      } else {
        Matcher m = CODE_SPAN.matcher(line);
        while (m.find()) {
          words.addAll(List.of(m.group(1).trim().split("\\s+")));
        }
      }
      for (String word : words) {
        String path = asRepoPath(word, roots);
        if (path != null) {
          found.add(new Mention(page, i + 1, path));
        }
      }
    }
    return found;
  }

  /** The word as a repository path, or null when it is not one (a label, a placeholder, outside). */
  private static String asRepoPath(String word, Set<String> roots) {
    String w = word.replaceAll("^[(\"']+|[)\"',;:]+$", "");
    if (w.startsWith("./")) {
      w = w.substring(2);
    }
    if (w.endsWith(".") && !w.endsWith("..")) {
      w = w.substring(0, w.length() - 1);
    }
    if (!w.contains("/") || w.startsWith("../") || w.matches(".*[<>*{}$=|].*")) {
      return null;
    }
    return roots.contains(w.substring(0, w.indexOf('/'))) ? w : null;
  }

  /** GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces as hyphens. */
  static Set<String> anchors(String markdown) {
    Set<String> anchors = new TreeSet<>();
    boolean inBlock = false;
    for (String line : markdown.split("\n")) {
      if (line.startsWith("```")) {
        inBlock = !inBlock;
      } else if (!inBlock && line.matches("#{1,6} .*")) {
        String title = line.replaceFirst("^#+ ", "").trim().toLowerCase(Locale.ROOT);
        anchors.add(title.replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'));
      }
    }
    return anchors;
  }

  private static int lineOf(String text, int offset) {
    return (int) text.substring(0, offset).chars().filter(c -> c == '\n').count() + 1;
  }
}
