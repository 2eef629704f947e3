package io.gpufleet.engine.scheduler.plugin;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.engine.scheduler.BatchPlacement;
import io.gpufleet.engine.scheduler.ClusterSnapshot;
import io.gpufleet.engine.scheduler.NodeInfo;
import io.gpufleet.engine.scheduler.PodInfo;
import io.gpufleet.engine.scheduler.Scheduler;
import io.gpufleet.engine.scheduler.SchedulerProfile;
import io.gpufleet.engine.scheduler.Status;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.node.Node;
import io.gpufleet.model.pod.Container;
import io.gpufleet.model.pod.ContainerPort;
import io.gpufleet.model.pod.Pod;
import io.gpufleet.model.pod.PodSpec;
import io.gpufleet.model.resource.ResourceList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** NodePorts, with cases of upstream's node_ports_test.go (TestNodePorts). */
class NodePortsTest {

  private static Pod pod(String name, ContainerPort... ports) {
    Container c = new Container("c", "img", ResourceList.of("cpu", "100m"), ResourceList.EMPTY, false,
        List.of(ports));
    return new Pod(ObjectMeta.named(name), PodSpec.of(c));
  }

  private static ContainerPort port(String protocol, String ip, int hostPort) {
    return new ContainerPort(8080, hostPort, protocol, ip);
  }

  private static NodeInfo nodeWith(Pod... bound) {
    NodeInfo n = NodeInfo.of(Node.of("n", Labels.EMPTY, List.of(), ResourceList.of("cpu", "4", "memory", "4Gi", "pods", "110")));
    for (Pod p : bound) {
      n = n.withPod(PodInfo.of(p));
    }
    return n;
  }

  private static Status filter(Pod pod, NodeInfo node) {
    return NodePorts.INSTANCE.filter(PodInfo.of(pod), node);
  }

  @Test
  void aPodWithoutHostPortsSkipsThePlugin() {
    assertThat(NodePorts.INSTANCE.forCycle(PodInfo.of(pod("p")), ClusterSnapshot.of(List.of()))).isEmpty();
    assertThat(filter(pod("p"), nodeWith(pod("q", port("TCP", "", 80)))).isSuccess()).isTrue();
  }

  @Test
  void onlyAHostPortOfAContainerOrInitContainerKeepsThePlugin() {
    ClusterSnapshot none = ClusterSnapshot.of(List.of());
    // A containerPort without hostPort asks nothing of the node.
    assertThat(NodePorts.INSTANCE.forCycle(PodInfo.of(pod("p", port("TCP", "", 0))), none)).isEmpty();
    assertThat(NodePorts.INSTANCE.forCycle(PodInfo.of(pod("p", port("TCP", "", 0), port("TCP", "", 80))), none))
        .isPresent();
    Container init = new Container("init", "img", ResourceList.EMPTY, ResourceList.EMPTY, false,
        List.of(port("TCP", "", 81)));
    Pod withInit = new Pod(ObjectMeta.named("i"), pod("i").spec().withInitContainers(List.of(init)));
    assertThat(withInit.spec().hostPorts()).hasSize(1);
    assertThat(NodePorts.INSTANCE.forCycle(PodInfo.of(withInit), none)).isPresent();
  }

  @Test
  void theSamePortAndProtocolOnTheNodeIsRefused() {
    // "same udp port": UDP/127.0.0.1:8080 wanted, held by a bound pod.
    Status s = filter(pod("p", port("UDP", "127.0.0.1", 8080)), nodeWith(pod("q", port("UDP", "127.0.0.1", 8080))));
    assertThat(s.code()).isEqualTo(Status.Code.UNSCHEDULABLE);
    assertThat(s.reasons()).containsExactly("node(s) didn't have free ports for the requested pod ports");
  }

  @Test
  void anotherProtocolPortOrAddressIsFree() {
    NodeInfo node = nodeWith(pod("q", port("TCP", "127.0.0.1", 8080)));
    // "different protocol", "different port", "different host ip"
    assertThat(filter(pod("p", port("UDP", "127.0.0.1", 8080)), node).isSuccess()).isTrue();
    assertThat(filter(pod("p", port("TCP", "127.0.0.1", 8081)), node).isSuccess()).isTrue();
    assertThat(filter(pod("p", port("TCP", "127.0.0.2", 8080)), node).isSuccess()).isTrue();
  }

  @Test
  void everyAddressClashesWithAnyAddress() {
    // "first tcp port conflict due to 0.0.0.0 hostIP" and its converse
    assertThat(filter(pod("p", port("TCP", "", 8001)), nodeWith(pod("q", port("TCP", "127.0.0.1", 8001))))
        .isSuccess()).isFalse();
    assertThat(filter(pod("p", port("TCP", "127.0.0.1", 8001)), nodeWith(pod("q", port("TCP", "0.0.0.0", 8001))))
        .isSuccess()).isFalse();
  }

  @Test
  void twoPodsWithOneHostPortLandOnTwoNodes() {
    Node a = Node.of("a", Labels.EMPTY, List.of(), ResourceList.of("cpu", "4", "memory", "4Gi", "pods", "110"));
    Node b = Node.of("b", Labels.EMPTY, List.of(), ResourceList.of("cpu", "4", "memory", "4Gi", "pods", "110"));
    Node c = Node.of("c", Labels.EMPTY, List.of(), ResourceList.of("cpu", "4", "memory", "4Gi", "pods", "110"));
    var result = BatchPlacement.place(List.of(pod("x", port("TCP", "", 9100)), pod("y", port("TCP", "", 9100)),
            pod("z", port("TCP", "", 9100)), pod("w", port("TCP", "", 9100))),
        ClusterSnapshot.of(List.of(a, b, c)), new Scheduler(SchedulerProfile.defaults()), new SplittableRandom(1),
        false);
    List<String> nodes = result.outcomes().stream().filter(o -> o instanceof BatchPlacement.Outcome.Bound)
        .map(o -> ((BatchPlacement.Outcome.Bound) o).node()).toList();
    assertThat(nodes).hasSize(3).doesNotHaveDuplicates();
    assertThat(((BatchPlacement.Outcome.Pending) result.outcomes().get(3)).error().message())
        .isEqualTo("0/3 nodes are available: 3 node(s) didn't have free ports for the requested pod ports.");
  }

  @Test
  void theDefaultProfileRunsItAfterNodeAffinityAndBeforeNodeResourcesFit() {
    List<String> names = SchedulerProfile.defaults().filters().stream().map(FilterPlugin::pluginName).toList();
    assertThat(names.indexOf("NodePorts")).isEqualTo(names.indexOf("NodeAffinity") + 1)
        .isEqualTo(names.indexOf("NodeResourcesFit") - 1);
  }
}
