package io.gpufleet.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpufleet.manifest.yaml.ManifestException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** kubectl's {@code -f} conventions, through the one reader every command uses. */
class ManifestInputTest {

  private static final InputStream NO_STDIN = InputStream.nullInputStream();

  private static String node(String name) {
    return "apiVersion: v1\nkind: Node\nmetadata: {name: " + name + "}\n";
  }

  private static List<String> nodeNames(List<ManifestSource> sources) {
    return new ManifestReader().read(sources).nodes().stream().map(n -> n.name()).toList();
  }

  @Test
  void repeatedFilesAndStdinAreReadInTheOrderGiven(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("a.yaml"), node("a"));
    Files.writeString(dir.resolve("b.txt"), node("b"));
    InputStream stdin = new ByteArrayInputStream(node("from-stdin").getBytes(StandardCharsets.UTF_8));
    List<ManifestSource> sources = ManifestInput.expand(
        List.of(dir.resolve("b.txt").toString(), "-", dir.resolve("a.yaml").toString()), false, stdin);
    // A file named explicitly is read whatever its extension, as kubectl does.
    assertThat(nodeNames(sources)).containsExactly("b", "from-stdin", "a");
    assertThat(sources.get(1).name()).isEqualTo("-");
  }

  @Test
  void aDirectoryGivesItsManifestFilesInNameOrderAndRecursesOnlyWithR(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("b.yml"), node("b"));
    Files.writeString(dir.resolve("a.json"), "{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"a\"}}");
    Files.writeString(dir.resolve("c.yaml"), node("c"));
    Files.writeString(dir.resolve("notes.txt"), "not a manifest: [");
    Files.createDirectory(dir.resolve("sub"));
    Files.writeString(dir.resolve("sub").resolve("d.yaml"), node("d"));

    assertThat(nodeNames(ManifestInput.expand(List.of(dir.toString()), false, NO_STDIN)))
        .containsExactly("a", "b", "c");
    assertThat(nodeNames(ManifestInput.expand(List.of(dir.toString()), true, NO_STDIN)))
        .containsExactly("a", "b", "c", "d");
  }

  @Test
  void anEmptyDirectorySaysWhatItLookedFor(@TempDir Path dir) {
    assertThatThrownBy(() -> ManifestInput.expand(List.of(dir.toString()), false, NO_STDIN))
        .isInstanceOf(ManifestException.class)
        .hasMessage(dir + ": the directory holds no .json, .yaml or .yml file (add -R to read its subdirectories)");
  }

  @Test
  void stdinCanBeNamedOnlyOnce() {
    assertThatThrownBy(() -> ManifestInput.expand(List.of("-", "-"), false, NO_STDIN))
        .hasMessage("-: standard input can be read only once (\"-f -\" is given twice)");
  }

  @Test
  void aMissingFileAndBytesThatAreNotUtf8GiveTheReason(@TempDir Path dir) throws IOException {
    Path missing = dir.resolve("missing.yaml");
    assertThatThrownBy(() -> ManifestInput.expand(List.of(missing.toString()), false, NO_STDIN))
        .hasMessage(missing + ": no such file or directory");
    Path latin1 = dir.resolve("latin1.yaml");
    Files.write(latin1, "metadata: {name: caf\u00e9}".getBytes(StandardCharsets.ISO_8859_1));
    assertThatThrownBy(() -> ManifestInput.expand(List.of(latin1.toString()), false, NO_STDIN))
        .hasMessage(latin1 + ": not UTF-8 text (invalid byte 0xe9 at byte offset 20)");
  }

  @Test
  void aUrlIsRefusedWithWhatToDoInstead() {
    assertThatThrownBy(() -> ManifestInput.expand(List.of("https://example.com/x.yaml"), false, NO_STDIN))
        .hasMessageContaining("reading manifests from a URL is not supported");
  }

  @Test
  void aJsonStreamAndAJsonListAreReadLikeYaml() {
    ManifestBundle b = new ManifestReader().read("dump.json", """
        {"apiVersion": "v1", "kind": "List", "items": [
          {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"}},
          {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n2", "annotations": {"note": "~"}}}
        ]}
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n3"}}
        """);
    // "~" is a string in JSON, not YAML's null.
    assertThat(b.nodes().stream().map(n -> n.name())).containsExactly("n1", "n2", "n3");
    assertThat(b.nodes().get(1).meta().annotations().get("note")).hasValue("~");
  }

  @Test
  void aJsonSyntaxErrorNamesLineAndColumn() {
    assertThatThrownBy(() -> new ManifestReader().read("bad.json", "{\"kind\": \"Node\",\n  oops}"))
        .isInstanceOf(ManifestException.class)
        .hasMessageStartingWith("bad.json:2:3: invalid JSON: ");
  }
}
