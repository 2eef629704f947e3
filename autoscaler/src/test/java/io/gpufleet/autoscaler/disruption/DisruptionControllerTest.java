package io.gpufleet.autoscaler.disruption;

import static io.gpufleet.autoscaler.disruption.DisruptionViews.drifted;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.node;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.pod;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.pool;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.random;
import static io.gpufleet.autoscaler.disruption.DisruptionViews.view;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpufleet.autoscaler.AutoscalerSettings;
import io.gpufleet.autoscaler.gpu.Advertised;
import io.gpufleet.autoscaler.provisioning.Provisioner;
import io.gpufleet.autoscaler.provisioning.ProvisioningModel;
import io.gpufleet.autoscaler.state.ClusterView;
import io.gpufleet.autoscaler.state.StateNode;
import io.gpufleet.model.karpenter.NodePool;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The registry: methods tried in Karpenter's order, the first command wins, its maker validates it. */
class DisruptionControllerTest {

  static DisruptionController controller(NodePool pool) {
    return new DisruptionController(AutoscalerSettings.DEFAULTS, new Provisioner(ProvisioningModel.of(List.of(pool),
        DisruptionViews.CATALOG, List.of(), (l, g) -> Advertised.NOTHING, AutoscalerSettings.GpuSizing.PHYSICAL)));
  }

  @Test
  void methodsAreTriedInKarpentersOrder() {
    assertThat(controller(pool()).methods()).extracting(DisruptionMethod::kind).containsExactly(
        DisruptionCommand.Method.EMPTINESS, DisruptionCommand.Method.DRIFT,
        DisruptionCommand.Method.MULTI_NODE_CONSOLIDATION, DisruptionCommand.Method.SINGLE_NODE_CONSOLIDATION);
  }

  @Test
  void theFirstMethodWithACommandWins() {
    NodePool pool = pool();
    StateNode empty = node(pool, "m5.large", 1);
    StateNode old = drifted(node(pool, "m5.large", 2, pod("p")));
    StateNode oversized = node(pool, "m5.2xlarge", 3, pod("q"));
    DisruptionController controller = controller(pool);
    assertThat(controller.poll(view(pool, empty, old, oversized), random()).orElseThrow().method())
        .isEqualTo(DisruptionCommand.Method.EMPTINESS);
    assertThat(controller.poll(view(pool, old, oversized), random()).orElseThrow().method())
        .isEqualTo(DisruptionCommand.Method.DRIFT);
    assertThat(controller.poll(view(pool, oversized), random()).orElseThrow().method())
        .isEqualTo(DisruptionCommand.Method.SINGLE_NODE_CONSOLIDATION);
    assertThat(controller.poll(view(pool, node(pool, "m5.large", 4, pod("r"))), random())).isEmpty();
  }

  @Test
  void validationGoesToTheMethodThatMadeTheCommand() {
    NodePool pool = pool();
    DisruptionController controller = controller(pool);
    StateNode empty = node(pool, "m5.large", 1);
    ClusterView view = view(pool, empty);
    DisruptionCommand c = controller.poll(view, random()).orElseThrow();
    assertThat(controller.validate(c, view, random())).isEqualTo(new DisruptionController.Validation.Execute(c));
    ClusterView busy = view(pool, node(pool, "m5.large", 1, pod("p")));
    assertThat(controller.validate(c, busy, random()))
        .isEqualTo(new DisruptionController.Validation.Abandon(empty.name() + " is no longer empty"));
    ClusterView gone = view(pool);
    assertThat(controller.validate(c, gone, random()))
        .isEqualTo(new DisruptionController.Validation.Abandon(empty.name() + " is no longer a disruption candidate"));
  }
}
