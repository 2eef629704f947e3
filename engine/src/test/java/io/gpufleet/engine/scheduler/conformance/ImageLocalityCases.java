package io.gpufleet.engine.scheduler.conformance;

import static io.gpufleet.engine.scheduler.conformance.K.assertScores;
import static io.gpufleet.engine.scheduler.conformance.K.info;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.plugin.ImageLocality;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.node.ContainerImage;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.testing.conformance.UpstreamCase;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code pkg/scheduler/framework/plugins/imagelocality/image_locality_test.go}: TestImageLocalityPriority
 * (its node statuses and pods as written there) and TestNormalizedImageName.
 */
final class ImageLocalityCases {
  private ImageLocalityCases() {}

  static final String FILE = "pkg/scheduler/framework/plugins/imagelocality/image_locality_test.go";
  private static final String PLUGIN = "ImageLocality";
  private static final long MB = 1024 * 1024;

  private static ContainerImage image(long mb, String... names) {
    return new ContainerImage(List.of(names), mb * MB);
  }

  private static NodeInfo node(String name, ContainerImage... images) {
    return info(new Node(ObjectMeta.named(name), List.of(), false, ResourceList.EMPTY, ResourceList.EMPTY,
        java.util.Optional.empty(), List.of(images)));
  }

  private static Pod pod(List<String> inits, String... images) {
    List<Container> cs = new ArrayList<>();
    for (String i : images) {
      cs.add(Container.of("c" + cs.size(), i, ResourceList.EMPTY, ResourceList.EMPTY));
    }
    List<Container> is = new ArrayList<>();
    for (String i : inits) {
      is.add(Container.of("i" + is.size(), i, ResourceList.EMPTY, ResourceList.EMPTY));
    }
    return new Pod(ObjectMeta.named("p"), PodSpec.of(cs.toArray(Container[]::new)).withInitContainers(is));
  }

  static List<UpstreamCase> cases() {
    Pod test40250 = pod(List.of(), "gcr.io/40", "gcr.io/250");
    Pod test40300 = pod(List.of(), "gcr.io/40", "gcr.io/300");
    Pod testMinMax = pod(List.of(), "gcr.io/10", "gcr.io/4000");
    Pod test300600900 = pod(List.of(), "gcr.io/300", "gcr.io/600", "gcr.io/900");
    Pod test3040 = pod(List.of(), "gcr.io/30", "gcr.io/40");
    Pod test30Init300 = pod(List.of("gcr.io/300"), "gcr.io/30");
    ContainerImage[] node403002000 = {image(40, "gcr.io/40:latest", "gcr.io/40:v1", "gcr.io/40:v1"),
        image(300, "gcr.io/300:latest", "gcr.io/300:v1"), image(2000, "gcr.io/2000:latest")};
    ContainerImage[] node25010 = {image(250, "gcr.io/250:latest"), image(10, "gcr.io/10:latest", "gcr.io/10:v1")};
    ContainerImage[] node60040900 = {image(600, "gcr.io/600:latest"), image(40, "gcr.io/40:latest"),
        image(900, "gcr.io/900:latest")};
    ContainerImage[] node300600900 = {image(300, "gcr.io/300:latest"), image(600, "gcr.io/600:latest"),
        image(900, "gcr.io/900:latest")};
    ContainerImage[] node400030 = {image(4000, "gcr.io/4000:latest"), image(30, "gcr.io/30:latest")};
    ContainerImage[] node203040 = {image(20, "gcr.io/20:latest"), image(30, "gcr.io/30:latest"),
        image(40, "gcr.io/40:latest")};
    ImageLocality p = ImageLocality.INSTANCE;
    List<UpstreamCase> out = new ArrayList<>(List.of(
        UpstreamCase.of(PLUGIN, FILE, "two images spread on two nodes, prefer the larger image one",
            () -> assertScores(p, test40250, List.of(node("node1", node403002000), node("node2", node25010)), 0, 5)),
        UpstreamCase.of(PLUGIN, FILE, "two images on one node, prefer this node",
            () -> assertScores(p, test40300, List.of(node("node1", node403002000), node("node2", node25010)), 7, 0)),
        UpstreamCase.of(PLUGIN, FILE, "if exceed limit, use limit",
            () -> assertScores(p, testMinMax, List.of(node("node1", node400030), node("node2", node25010)), 100, 0)),
        UpstreamCase.of(PLUGIN, FILE, "if exceed limit, use limit (with node which has no images present)",
            () -> assertScores(p, testMinMax, List.of(node("node1", node400030), node("node2", node25010),
                node("node3")), 66, 0, 0)),
        UpstreamCase.of(PLUGIN, FILE, "pod with multiple large images, node2 is preferred",
            () -> assertScores(p, test300600900, List.of(node("node1", node60040900), node("node2", node300600900),
                node("node3")), 32, 36, 0)),
        UpstreamCase.of(PLUGIN, FILE, "pod with multiple small images",
            () -> assertScores(p, test3040, List.of(node("node1", node203040), node("node2", node400030)), 1, 0)),
        UpstreamCase.of(PLUGIN, FILE, "include InitContainers: two images spread on two nodes, prefer the larger image one",
            () -> assertScores(p, test30Init300, List.of(node("node1", node403002000), node("node2", node203040)),
                6, 0))));
    String digest = "root@sha256:4813494d137e1631bba301d5acab6e7bb7aa74ce1185d456565ef51d737677b2";
    String[][] names = {
        {"add :latest postfix 1", "root", "root:latest"},
        {"add :latest postfix 2", "gcr.io:5000/root", "gcr.io:5000/root:latest"},
        {"keep it as is 1", "root:tag", "root:tag"},
        {"keep it as is 2", digest, digest}};
    for (String[] n : names) {
      out.add(UpstreamCase.of(PLUGIN, FILE, n[0],
          () -> assertThat(ContainerImage.normalizedName(n[1])).isEqualTo(n[2])));
    }
    return out;
  }
}
