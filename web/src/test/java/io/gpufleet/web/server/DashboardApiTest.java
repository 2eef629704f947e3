package io.gpufleet.web.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.web.Lab;
import java.util.List;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The dashboard's HTTP surface: what it answers, and what it refuses and how. */
class DashboardApiTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static Dashboard dashboard;
  private static HttpClient http;

  @BeforeAll
  static void start() {
    dashboard = Dashboard.start(Lab.lab(), "127.0.0.1", 0,
        new Limits(3, 1, Duration.ofSeconds(30), 20_000, 2048));
    http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  }

  @AfterAll
  static void stop() {
    dashboard.close();
  }

  static HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + dashboard.port() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static HttpResponse<String> post(String path, String type, String body) throws IOException, InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + dashboard.port() + path))
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (type != null) {
      b.header("Content-Type", type);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void servesThePageItsScriptAndTheChartsFromTheJar() throws Exception {
    HttpResponse<String> page = get("/");
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
    assertThat(page.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(
        c -> assertThat(c).contains("default-src 'self'"));
    assertThat(page.body()).contains("/assets/echarts.min.js").doesNotContain("http://", "https://");
    HttpResponse<String> charts = get("/assets/echarts.min.js");
    assertThat(charts.statusCode()).isEqualTo(200);
    assertThat(charts.body()).contains("echarts");
    assertThat(get("/assets/app.js").body()).contains("/api/runs");
  }

  @Test
  void theRunListsTheLabsStepsAndItsClusterCanBeAskedAtAnyTime() throws Exception {
    JsonNode run = JSON.readTree(get("/api/runs/0").body());
    assertThat(run.get("steps").size()).isEqualTo(5);
    int frames = run.get("frameSeconds").size();
    long end = run.get("seconds").asLong();
    JsonNode last = JSON.readTree(get("/api/runs/0/cluster?seconds=" + end).body());
    assertThat(last.get("frame").asInt()).isEqualTo(frames - 1);
    JsonNode first = JSON.readTree(get("/api/runs/0/cluster?frame=0").body());
    assertThat(first.get("seconds").asLong()).isZero();
    assertThat(first.get("nodes").size()).isEqualTo(1);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
      "/api/runs/abc|400|run id: expected a whole number",
      "/api/runs/99|404|no run 99",
      "/api/runs/0/cluster|400|give one of frame",
      "/api/runs/0/cluster?frame=1&seconds=2|400|give one of frame",
      "/api/runs/0/cluster?frame=-1|400|frame: expected a whole number from 0",
      "/api/runs/0/cluster?frame=99999999|400|frame: expected a whole number from 0",
      "/api/runs/0/cluster?seconds=1e3|400|seconds: expected a whole number",
      "/api/runs/0/cluster?frame=1&frame=2|400|given 2 times",
      "/api/runs/0?debug=1|400|unknown query parameter",
      "/api/runs/0/cluster?frame=0&limit=0|400|limit: expected a whole number from 1 to 1000, found \"0\"",
      "/api/runs/0/cluster?frame=0&limit=1001|400|limit: expected a whole number from 1 to 1000, found \"1001\"",
      "/api/runs/0/lanes?frame=0&limit=ten|400|limit: expected a whole number from 1 to 1000, found \"ten\"",
      "/api/runs/0/cluster?frame=0&offset=-1|400|offset: expected a whole number from 0 to 1000000",
      "/api/runs/0/cluster?frame=0&filter=a%01b|400|filter: expected at most 200 printable characters",
      "/api/runs/0/lanes|400|give one of frame",
      "/api/runs/0/lanes?frame=0&filter=a&filter=b|400|given 2 times",
      "/api/runs/0/events|400|give one of frame",
      "/api/runs/0/events?frame=0&offset=3|400|unknown query parameter \"offset\"; expected frame or limit or seconds",
      "/api/runs/0/events?frame=0&limit=1001|400|limit: expected a whole number from 1 to 1000",
      "/api/runs/0/heatmap?by=pool|400|unknown query parameter \"by\"; this address takes none",
      "/api/runs/9/heatmap|404|no run 9",
      "/api/compare?a=0|400|\"b\" is required",
      "/assets/secret.txt|404|no such asset",
      "/assets/..%2F..%2Fpom.xml|404|no such asset",
      "/assets/%2e%2e/index.html|404|",
      "/io/gpufleet/web/assets/app.js|404|no such page",
      "/META-INF/resources/webjars/echarts/5.3.1/dist/echarts.min.js|404|no such page",
      "/no/such/page|404|no such page"})
  void refusesWithAStatusAndAMessage(String path, int status, String message) throws Exception {
    HttpResponse<String> r = get(path);
    assertThat(r.statusCode()).isEqualTo(status);
    assertThat(r.body()).doesNotContain("Exception", "\tat ");
    if (message != null) {
      assertThat(JSON.readTree(r.body()).get("error").asString()).contains(message);
    }
  }

  @Test
  void aLongFilterIsRefusedWithItsLengthAndItsBeginningQuoted() throws Exception {
    HttpResponse<String> r = get("/api/runs/0/cluster?frame=0&filter=" + "x".repeat(250));
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(r.body()).get("error").asString())
        .startsWith("filter: expected at most 200 printable characters")
        .endsWith("found 250 characters \"" + "x".repeat(80) + "...\"");
  }

  @Test
  void theRunDocumentIsLightAndTheCardsLanesAndEventsComeAPageAtATime() throws Exception {
    JsonNode run = JSON.readTree(get("/api/runs/0").body());
    assertThat(run.has("lanes")).isFalse();
    assertThat(run.has("events")).isFalse();
    int frames = run.get("frameSeconds").size();
    int last = frames - 1;
    JsonNode all = JSON.readTree(get("/api/runs/0/cluster?frame=" + last + "&limit=1000").body());
    int total = all.get("total").asInt();
    assertThat(total).isEqualTo(all.get("nodes").size()).isGreaterThan(1);
    // One card from the second: the moment's second card, with the whole moment counted.
    JsonNode page = JSON.readTree(get("/api/runs/0/cluster?frame=" + last + "&offset=1&limit=1").body());
    assertThat(page.get("total").asInt()).isEqualTo(total);
    assertThat(page.get("nodes").size()).isEqualTo(1);
    assertThat(page.get("nodes").get(0).get("name")).isEqualTo(all.get("nodes").get(1).get("name"));
    assertThat(page.get("overview")).isEqualTo(all.get("overview"));
    // The filter: the cards whose name holds the word, counted.
    String name = all.get("nodes").get(1).get("name").asString();
    JsonNode found = JSON.readTree(get("/api/runs/0/cluster?frame=" + last + "&filter=" + name).body());
    assertThat(found.get("matching").asInt()).isEqualTo(1);
    assertThat(found.get("nodes").get(0).get("name").asString()).isEqualTo(name);
    // Lanes: as many as the run has, a page at a time; the filter keeps the node's.
    JsonNode lanes = JSON.readTree(get("/api/runs/0/lanes?frame=" + last + "&limit=1").body());
    assertThat(lanes.get("total").asInt()).isEqualTo(run.get("laneCount").asInt());
    assertThat(lanes.get("lanes").size()).isEqualTo(1);
    JsonNode kept = JSON.readTree(get("/api/runs/0/lanes?frame=" + last + "&filter=" + name).body());
    assertThat(kept.get("lanes").size()).isEqualTo(1);
    assertThat(kept.get("lanes").get(0).get("node").asString()).isEqualTo(name);
    // A launch is drawn with its NodeClaim's lane, not sent with the run: the page of lanes carries
    // the launches of its lanes only.
    assertThat(run.get("markers").valueStream().map(m -> m.get("kind").asString())).doesNotContain("NodeclaimLaunched");
    JsonNode allLanes = JSON.readTree(get("/api/runs/0/lanes?frame=" + last + "&limit=1000").body());
    List<String> keys = allLanes.get("lanes").valueStream().map(l -> l.get("key").asString()).toList();
    List<String> launches = allLanes.get("markers").valueStream()
        .filter(m -> m.get("kind").asString().equals("NodeclaimLaunched")).map(m -> m.get("subject").asString()).toList();
    assertThat(launches).isNotEmpty();
    assertThat(keys).containsAll(launches);
    String launchedKey = launches.getFirst();
    String otherKey = keys.stream().filter(k -> !k.equals(launchedKey)).findFirst().orElseThrow();
    JsonNode other = JSON.readTree(get("/api/runs/0/lanes?frame=" + last + "&filter=" + otherKey).body());
    assertThat(other.get("markers").valueStream().map(m -> m.get("subject").asString())).doesNotContain(launchedKey);
    // Events: the newest up to the moment, newest first, ending with the frame's last entry.
    int upTo = run.get("frameEntries").get(last).asInt();
    JsonNode events = JSON.readTree(get("/api/runs/0/events?frame=" + last + "&limit=5").body()).get("events");
    assertThat(events.size()).isEqualTo(5);
    for (int i = 0; i < 5; i++) {
      assertThat(events.get(i).get("index").asInt()).isEqualTo(upTo - 1 - i);
    }
    JsonNode first = JSON.readTree(get("/api/runs/0/events?frame=0").body()).get("events");
    assertThat(first.size()).isEqualTo(run.get("frameEntries").get(0).asInt());
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource(delimiter = '|', value = {
      "application/json|{\"consolidationPolicy\": \"Sometimes\"}|400|consolidationPolicy: expected WhenEmpty",
      "application/json|{\"timeSlicingReplicas\": 0}|400|timeSlicingReplicas: expected a whole number from 1 to 16",
      "application/json|{\"timeSlicingReplicas\": 17}|400|from 1 to 16",
      "application/json|{\"consolidateAfter\": \"25h\"}|400|Never or a duration from 0s to 24h",
      "application/json|{\"gpuLimit\": \"lots\"}|400|gpuLimit: expected a whole number",
      "application/json|{\"rm -rf\": \"1\"}|400|knob: expected one of",
      "application/json|{\"gpuLimit\": 4, \"nodePool\": \"cpu\"}|400|nodePool: expected one of gpu, found \"cpu\"",
      "application/json|{\"nodePool\": \"Not A Name\"}|400|nodePool: expected a NodePool name",
      "application/json|{\"sizing\": {\"x\": 1}}|400|sizing: expected a string or a whole number",
      "application/json|[1, 2]|400|expected a JSON object of knobs",
      "application/json|{not json|400|the body is not JSON",
      "text/plain|{}|415|expected a JSON body"})
  void refusesBadKnobs(String type, String body, int status, String message) throws Exception {
    HttpResponse<String> r = post("/api/runs", type, body);
    assertThat(r.statusCode()).isEqualTo(status);
    assertThat(JSON.readTree(r.body()).get("error").asString()).contains(message);
  }

  @Test
  void aWhatIfNamesTheNodePoolItChanges() throws Exception {
    JsonNode listed = JSON.readTree(get("/api/runs").body());
    assertThat(listed.get(0).get("nodePools").toString()).isEqualTo("[\"gpu\"]");
    HttpResponse<String> made = post("/api/runs", "application/json", "{\"gpuLimit\": 3, \"nodePool\": \"gpu\"}");
    assertThat(made.statusCode()).as(made.body()).isEqualTo(201);
    JsonNode run = JSON.readTree(made.body());
    assertThat(run.get("knobs").get("nodePool").asString()).isEqualTo("gpu");
    assertThat(run.get("knobs").get("gpuLimit").asString()).isEqualTo("3");
  }

  @Test
  void refusesABodyOverTheLimit() throws Exception {
    HttpResponse<String> r = post("/api/runs", "application/json", "{\"sizing\": \"" + "x".repeat(4096) + "\"}");
    assertThat(r.statusCode()).isEqualTo(413);
  }

  @Test
  void keepsAtMostItsRunsDroppingTheOldestWhatIfNeverTheScenariosOwn() throws Exception {
    String first = null;
    for (int i = 1; i <= 3; i++) {
      HttpResponse<String> made = post("/api/runs", "application/json", "{\"gpuLimit\": " + (8 + i) + "}");
      assertThat(made.statusCode()).isEqualTo(201);
      if (first == null) {
        first = JSON.readTree(made.body()).get("id").asString();
      }
    }
    assertThat(get("/api/runs/" + first).statusCode()).isEqualTo(404);
    assertThat(get("/api/runs/0").statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(get("/api/runs").body()).size()).isEqualTo(3);
  }

  @Test
  void aWhatIfWithFewerReplicasIsComparedWithTheLab() throws Exception {
    HttpResponse<String> made = post("/api/runs", "application/json", "{\"timeSlicingReplicas\": 2}");
    assertThat(made.statusCode()).isEqualTo(201);
    String id = JSON.readTree(made.body()).get("id").asString();
    JsonNode cmp = JSON.readTree(get("/api/compare?a=0&b=" + id).body());
    assertThat(cmp.get("b").get("knobs").get("timeSlicingReplicas").asString()).isEqualTo("2");
    // The lab waits for 4 advertised replicas at 3.2; with 2 that expectation cannot hold.
    assertThat(cmp.get("a").get("summary").get("expectationsPassed").asInt())
        .isGreaterThan(cmp.get("b").get("summary").get("expectationsPassed").asInt());
    double a = cmp.get("a").get("summary").get("totalCost").asDouble();
    double b = cmp.get("b").get("summary").get("totalCost").asDouble();
    assertThat(cmp.get("difference").get("totalCost").asDouble()).isCloseTo(b - a,
        org.assertj.core.api.Assertions.within(0.0002));
    // The page shows these as money, written on the server as every output writes it.
    assertThat(cmp.get("a").get("summary").get("totalCostText").asString())
        .isEqualTo(io.gpufleet.model.cloud.Money.dollars(a));
    double d = cmp.get("difference").get("totalCost").asDouble();
    assertThat(cmp.get("difference").get("totalCostText").asString())
        .isEqualTo((d > 0 ? "+" : "") + io.gpufleet.model.cloud.Money.dollars(d));
    JsonNode run = JSON.readTree(get("/api/runs/" + id).body());
    assertThat(run.get("label").asString()).isEqualTo("timeSlicingReplicas=2");
    // Where the lab held four pods on its one card, two replicas hold two.
    int step33 = run.get("steps").get(2).get("endFrame").asInt();
    JsonNode cluster = JSON.readTree(get("/api/runs/" + id + "/cluster?frame=" + step33).body());
    JsonNode labNode = null;
    for (JsonNode n : cluster.get("nodes")) {
      if (n.get("name").asString().equals("ip-10-0-1-17.ec2.internal")) {
        labNode = n;
      }
    }
    assertThat(labNode).isNotNull();
    assertThat(labNode.get("gpuAdvertised").asInt()).isEqualTo(2);
    assertThat(labNode.get("gpus").get(0).get("pods").size()).isEqualTo(2);
    // A launched node's card says its price as money, written as every output writes it.
    int last = run.get("steps").get(run.get("steps").size() - 1).get("endFrame").asInt();
    List<JsonNode> priced = new java.util.ArrayList<>();
    JSON.readTree(get("/api/runs/" + id + "/cluster?frame=" + last).body()).get("nodes").forEach(n -> {
      if (!n.get("pricePerHour").isNull()) {
        priced.add(n);
      }
    });
    assertThat(priced).isNotEmpty().allSatisfy(n -> assertThat(n.get("price").asString())
        .isEqualTo(io.gpufleet.model.cloud.Money.perHour(n.get("pricePerHour").asDouble())));
  }
}
