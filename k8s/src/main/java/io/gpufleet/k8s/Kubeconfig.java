package io.gpufleet.k8s;

import io.fabric8.kubernetes.api.model.AuthInfo;
import io.fabric8.kubernetes.api.model.Cluster;
import io.fabric8.kubernetes.api.model.Context;
import io.fabric8.kubernetes.api.model.ExecConfig;
import io.fabric8.kubernetes.api.model.NamedAuthInfo;
import io.fabric8.kubernetes.api.model.NamedCluster;
import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A kubeconfig file and the one context chosen in it, checked before any connection is made: a
 * missing file, text that is not UTF-8, an unknown context, a server address client-go would refuse
 * and a credential plugin that is not installed are each one line naming what exists. Only the named
 * file is read; {@code KUBECONFIG} and {@code ~/.kube/config} are not consulted, so a command reads
 * the cluster the user named and no other.
 *
 * @param execCommand the credential plugin of the context's user, when it has one, so that a
 *     rejection can name where the credentials came from
 */
record Kubeconfig(String context, Config config, Optional<String> execCommand) {

  /** Seconds to wait for a TCP connection and for each response: a hung server fails, it does not hang. */
  private static final int CONNECT_TIMEOUT_MS = 10_000;
  private static final int REQUEST_TIMEOUT_MS = 60_000;

  /**
   * What client-go adds when a credential plugin is missing (k8s.io/client-go,
   * plugin/pkg/client/auth/exec/exec.go: {@code installHintVerboseHelp}), as one sentence.
   */
  static final String PLUGIN_NOT_INSTALLED =
      "It looks like you are trying to use a client-go credential plugin that is not installed.";

  static Kubeconfig load(ClusterSource source) {
    Path file = source.kubeconfig();
    String text = utf8(file);
    io.fabric8.kubernetes.api.model.Config parsed;
    try {
      parsed = new KubernetesSerialization().unmarshal(text, io.fabric8.kubernetes.api.model.Config.class);
    } catch (RuntimeException e) {
      throw new ClusterAccessException("kubeconfig " + file + ": not a kubeconfig file (" + firstLine(e) + ")");
    }
    if (parsed == null) {
      throw new ClusterAccessException("kubeconfig " + file + ": empty file");
    }
    List<String> contexts = parsed.getContexts() == null ? List.of()
        : parsed.getContexts().stream().map(NamedContext::getName).filter(Objects::nonNull).sorted().toList();
    String wanted = source.context().orElse(parsed.getCurrentContext());
    if (wanted == null || wanted.isBlank()) {
      throw new ClusterAccessException("kubeconfig " + file + " sets no current-context; pass --context "
          + (contexts.isEmpty() ? "(it defines no context)" : "with one of: " + String.join(", ", contexts)));
    }
    if (!contexts.contains(wanted)) {
      throw new ClusterAccessException("context \"" + wanted + "\" is not in kubeconfig " + file
          + (contexts.isEmpty() ? " (it defines no context)" : " (it has: " + String.join(", ", contexts) + ")"));
    }
    Context ctx = parsed.getContexts().stream().filter(c -> wanted.equals(c.getName())).findFirst()
        .map(NamedContext::getContext).orElse(null);
    String where = "context \"" + wanted + "\" of kubeconfig " + file;
    serverOf(parsed, ctx).ifPresent(server -> checkServer(server, where));
    Optional<ExecConfig> exec = execOf(parsed, ctx);
    exec.ifPresent(e -> checkPluginInstalled(e, file, where));
    Config config;
    try {
      config = Config.fromKubeconfig(wanted, text, file.toString());
    } catch (KubernetesClientException | IllegalArgumentException | IllegalStateException e) {
      throw new ClusterAccessException(where + " cannot be used: " + firstLine(e));
    }
    // One try per request: an unreachable or refusing server is reported at once, not after
    // fabric8's default of ten retries with exponential back-off.
    config.setRequestRetryBackoffLimit(0);
    config.setConnectionTimeout(CONNECT_TIMEOUT_MS);
    config.setRequestTimeout(REQUEST_TIMEOUT_MS);
    return new Kubeconfig(wanted, config, exec.map(ExecConfig::getCommand));
  }

  /** The file as UTF-8, as client-go reads it; a stray byte is named by its line and column. */
  private static String utf8(Path file) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new ClusterAccessException("kubeconfig " + file + ": no such file");
    } catch (IOException e) {
      throw new ClusterAccessException("kubeconfig " + file + ": cannot read: " + firstLine(e));
    }
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      int bad = Math.min(firstInvalidUtf8(bytes), bytes.length - 1);
      int line = 1;
      int lineStart = 0;
      for (int i = 0; i < bad; i++) {
        if (bytes[i] == '\n') {
          line++;
          lineStart = i + 1;
        }
      }
      String before = new String(bytes, lineStart, bad - lineStart, StandardCharsets.UTF_8);
      int column = before.codePointCount(0, before.length()) + 1;
      throw new ClusterAccessException("kubeconfig " + file + ":" + line + ":" + column + ": not UTF-8 text (byte 0x"
          + String.format(Locale.ROOT, "%02X", bytes[bad] & 0xff) + "); save the file as UTF-8");
    }
  }

  /**
   * The offset of the first byte that does not begin a well-formed UTF-8 sequence (RFC 3629, section
   * 4: no overlong forms, no surrogates, nothing above U+10FFFF).
   */
  private static int firstInvalidUtf8(byte[] b) {
    int i = 0;
    while (i < b.length) {
      int x = b[i] & 0xff;
      int more = x < 0x80 ? 0 : x >= 0xC2 && x <= 0xDF ? 1 : x >= 0xE0 && x <= 0xEF ? 2 : x >= 0xF0 && x <= 0xF4 ? 3 : -1;
      if (more < 0 || i + more >= b.length) {
        return i;
      }
      int second = b[i + 1] & 0xff;
      int lo = x == 0xE0 ? 0xA0 : x == 0xF0 ? 0x90 : 0x80;
      int hi = x == 0xED ? 0x9F : x == 0xF4 ? 0x8F : 0xBF;
      if (more > 0 && (second < lo || second > hi)) {
        return i;
      }
      for (int k = 2; k <= more; k++) {
        if ((b[i + k] & 0xC0) != 0x80) {
          return i;
        }
      }
      i += more + 1;
    }
    return b.length;
  }

  private static Optional<String> serverOf(io.fabric8.kubernetes.api.model.Config parsed, Context ctx) {
    if (ctx == null || ctx.getCluster() == null || parsed.getClusters() == null) {
      return Optional.empty();
    }
    return parsed.getClusters().stream().filter(c -> ctx.getCluster().equals(c.getName())).findFirst()
        .map(NamedCluster::getCluster).map(Cluster::getServer).or(() -> Optional.of(""));
  }

  private static Optional<ExecConfig> execOf(io.fabric8.kubernetes.api.model.Config parsed, Context ctx) {
    if (ctx == null || ctx.getUser() == null || parsed.getUsers() == null) {
      return Optional.empty();
    }
    return parsed.getUsers().stream().filter(u -> ctx.getUser().equals(u.getName())).findFirst()
        .map(NamedAuthInfo::getUser).map(AuthInfo::getExec).filter(e -> e.getCommand() != null);
  }

  /**
   * The server address as client-go's {@code DefaultServerURL} takes it (k8s.io/client-go,
   * rest/url_utils.go): a URL or a host:port pair, with no path; and, like Go's HTTP client, only
   * http or https.
   */
  static void checkServer(String server, String where) {
    String prefix = "server \"" + server + "\" of " + where + ": ";
    if (server.isBlank()) {
      throw new ClusterAccessException(prefix + "host must be a URL or a host:port pair");
    }
    // As Go's url.Parse, then with a scheme put in front when that gave no scheme and host.
    URI uri = parse(server).filter(u -> u.getScheme() != null && u.getHost() != null)
        .or(() -> parse("https://" + server))
        .orElseThrow(() -> new ClusterAccessException(prefix + "host must be a URL or a host:port pair"));
    if (uri.getHost() == null || uri.getRawPath() != null && !uri.getRawPath().isEmpty()
        && !uri.getRawPath().equals("/")) {
      throw new ClusterAccessException(prefix + "host must be a URL or a host:port pair");
    }
    String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("https") && !scheme.equals("http")) {
      // Go's net/http refuses the request; kubectl prints it as a connection failure.
      throw new ClusterAccessException(prefix + "Unable to connect to the server: unsupported protocol scheme \""
          + uri.getScheme() + "\"");
    }
  }

  private static Optional<URI> parse(String s) {
    try {
      return Optional.of(new URI(s));
    } catch (URISyntaxException e) {
      return Optional.empty();
    }
  }

  /**
   * A credential plugin that cannot be run is reported as kubectl reports it, before any request:
   * otherwise the request goes out without credentials and the 401 blames them. A command with a
   * path separator is taken relative to the kubeconfig's folder, as client-go's loader resolves it;
   * a bare name is looked for on {@code PATH}.
   */
  private static void checkPluginInstalled(ExecConfig exec, Path file, String where) {
    String command = exec.getCommand();
    boolean found;
    if (command.contains("/")) {
      Path p = Path.of(command);
      Path dir = file.toAbsolutePath().getParent();
      found = Files.isExecutable(p.isAbsolute() || dir == null ? p : dir.resolve(p));
    } else {
      String path = Objects.requireNonNullElse(System.getenv("PATH"), "");
      found = !command.isEmpty() && java.util.Arrays.stream(path.split(java.io.File.pathSeparator))
          .filter(d -> !d.isEmpty()).anyMatch(d -> Files.isExecutable(Path.of(d, command)));
    }
    if (!found) {
      String hint = exec.getInstallHint() == null || exec.getInstallHint().isBlank() ? ""
          : " " + exec.getInstallHint().replaceAll("\\s+", " ").strip();
      throw new ClusterAccessException(where + ": exec: executable " + command + " not found. "
          + PLUGIN_NOT_INSTALLED + hint);
    }
  }

  static String firstLine(Throwable e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    int nl = m.indexOf('\n');
    return (nl < 0 ? m : m.substring(0, nl)).strip();
  }
}
