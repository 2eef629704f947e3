package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * serve's when view over HTTP: the answer to a job's manifest is {@code gpufleet when -o json}'s for
 * the same cluster, job and seeds, to the byte; bad input is a 4xx with the message {@code when}
 * would print, quoted and cut; a dashboard of a scenario file has no when view.
 */
class ServeWhenTest {

  static final JsonMapper JSON = JsonMapper.builder().build();
  static ServeCommand.Listening served;
  static HttpClient http = HttpClient.newHttpClient();

  /** serve as the command line parses it, listening on a free port. */
  static ServeCommand.Listening serve(String... args) throws IOException {
    CommandLine cl = Main.commandLine();
    String[] all = new String[args.length + 3];
    all[0] = "serve";
    System.arraycopy(args, 0, all, 1, args.length);
    all[args.length + 1] = "--port";
    all[args.length + 2] = "0";
    ServeCommand serve = (ServeCommand) cl.parseArgs(all).subcommand().commandSpec().userObject();
    return serve.listen(new PrintWriter(new StringWriter()));
  }

  @BeforeAll
  static void start() throws IOException {
    served = serve("-f", WhenCommandTest.CLUSTER, "-f", WhenCommandTest.KUEUE);
  }

  @AfterAll
  static void stop() {
    served.dashboard().close();
  }

  static HttpResponse<String> post(ServeCommand.Listening s, String type, String body)
      throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.dashboard().port() + "/api/when"))
        .header("Content-Type", type).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static HttpResponse<String> ask(String job, String seeds) throws IOException, InterruptedException {
    return post(served, "application/json", JSON.writeValueAsString(Map.of("job", job, "seeds", seeds)));
  }

  static HttpResponse<String> get(ServeCommand.Listening s) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.dashboard().port() + "/api/when"))
        .build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void theViewAsksAgainstTheClusterServeWasStartedWithAndWhensDefaults() throws Exception {
    JsonNode when = JSON.readTree(get(served).body());
    assertThat(when.get("available").asBoolean()).isTrue();
    assertThat(when.get("cluster").asString()).isEqualTo(WhenCommandTest.CLUSTER + ", " + WhenCommandTest.KUEUE);
    assertThat(when.get("within").asString()).isEqualTo("24h");
    assertThat(when.get("seeds").asString()).isEqualTo("1..5");
  }

  @Test
  void theAnswerIsWhenDashOJsonForTheSameInputs() throws Exception {
    for (String job : new String[] {WhenCommandTest.TRAIN, "../examples/when/queued-too-big.yaml"}) {
      HttpResponse<String> r = ask(Files.readString(Path.of(job)), "1..2");
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      CliRun cli = CliRun.of("when", job, "-f", WhenCommandTest.CLUSTER, "-f", WhenCommandTest.KUEUE, "--seeds", "1..2",
          "-o", "json");
      assertThat(r.body() + "\n").isEqualTo(cli.out());
    }
    // The never-admitted job's answer carries Kueue's reason, as the command's does.
    assertThat(JSON.readTree(ask(Files.readString(Path.of("../examples/when/queued-too-big.yaml")), "1").body())
        .get("runs").get(0).get("kueuePending").asString()).startsWith("couldn't assign flavors to pod set main");
  }

  @Test
  void badInputIsA4xxWithWhensMessageQuotedAndCut() throws Exception {
    record Case(String type, String body, int status, String message) {}
    String configMap = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {a: b}\n";
    String badYaml = "apiVersion: batch/v1\nkind: Job\nmetadata: {name: x\n";
    String train = Files.readString(Path.of(WhenCommandTest.TRAIN));
    for (Case c : new Case[] {
        new Case("application/json", json(Map.of("job", configMap)), 400,
            "job: expected a Job, Deployment, StatefulSet, ReplicaSet or Pod to place, found none"),
        new Case("application/json", json(Map.of("job", badYaml)), 400, "job:4:1: invalid YAML: while parsing a flow mapping"),
        new Case("application/json", json(Map.of("job", train, "within", "soon")), 400,
            "--within: expected a duration such as 30m, 6h or 24h, found \\\"soon\\\""),
        new Case("application/json", json(Map.of("job", train, "seeds", "9..1")), 400, "--seeds 9..1: expected a..b with a <= b"),
        new Case("application/json", json(Map.of("job", "")), 400, "job: expected the job's manifest"),
        // Anyone who reaches the page may ask: a question is bounded, where the command is not.
        new Case("application/json", json(Map.of("job", train, "seeds", "1..21")), 400,
            "--seeds: at most 20 seeds here (gpufleet when runs more), found 21"),
        new Case("application/json", json(Map.of("job", train, "within", "169h")), 400,
            "--within: at most 168h here (gpufleet when plays further), found \\\"169h\\\""),
        new Case("application/json", json(Map.of("job", train, "priority", "high")), 400,
            "unknown field \\\"priority\\\"; expected job, seeds, within"),
        new Case("application/json", "{\"job\": 3}", 400, "job: expected a string"),
        new Case("text/yaml", train, 415, "expected a JSON body (Content-Type: application/json)"),
        new Case("application/json", json(Map.of("job", "x".repeat(20_000))), 413,
            "the body is over the limit of 16384 bytes")}) {
      HttpResponse<String> r = post(served, c.type(), c.body());
      assertThat(r.statusCode()).as(c.message() + ": " + r.body()).isEqualTo(c.status());
      assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
      assertThat(r.body()).contains("\"error\"").contains(c.message()).doesNotContain("Exception");
    }
    // A message that quotes the job is escaped (no line breaks or controls) and cut.
    HttpResponse<String> r = ask("apiVersion: batch/v1\nkind: Job\nmetadata: {name: x}\nspec:\n  parallelism: \"a\\u0007\\nb"
        + "x".repeat(600) + "\"\n  template: {spec: {restartPolicy: Never, containers: [{name: a, image: b}]}}\n", "1");
    assertThat(r.statusCode()).isEqualTo(400);
    String error = JSON.readTree(r.body()).get("error").asString();
    assertThat(error).startsWith("job:5:").contains("spec.parallelism").contains("a\\x07\\nbxxx").endsWith("...")
        .doesNotContain("\u0007").doesNotContain("\n");
    // 400 characters of the message, "..." after them; the two escapes are written 4 characters longer.
    assertThat(error.length()).isEqualTo(400 + 3 + 4);
  }

  @Test
  void aDashboardOfAScenarioFileHasNoWhenView() throws Exception {
    ServeCommand.Listening lab = serve();
    try {
      JsonNode when = JSON.readTree(get(lab).body());
      assertThat(when.get("available").asBoolean()).isFalse();
      assertThat(when.get("why").asString()).startsWith("no when view: serve was started with a scenario");
      HttpResponse<String> r = post(lab, "application/json", json(Map.of("job", "x")));
      assertThat(r.statusCode()).isEqualTo(404);
      assertThat(r.body()).contains("no when view: serve was started with a scenario");
    } finally {
      lab.dashboard().close();
    }
  }

  private static String json(Map<String, String> m) {
    return JSON.writeValueAsString(m);
  }
}
