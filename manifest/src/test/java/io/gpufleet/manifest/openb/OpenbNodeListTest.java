package io.gpufleet.manifest.openb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpufleet.model.gpu.share.ShareNode;
import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpenbNodeListTest {

  private static List<ShareNode> read(String text) throws IOException {
    return OpenbNodeList.read("nodes.csv", new StringReader(text));
  }

  @Test
  void readsNodesWithAndWithoutGpus() throws IOException {
    List<ShareNode> nodes = read("sn,cpu_milli,memory_mib,gpu,model\r\n"
        + "openb-node-0000,64000,262144,2,P100\r\nopenb-node-1500,32000,131072,0,\r\n");
    assertThat(nodes).containsExactly(new ShareNode("openb-node-0000", 64000, 262144, 2, "P100"),
        new ShareNode("openb-node-1500", 32000, 131072, 0, ""));
  }

  @Test
  void reportsBadRowsWithTheirLine() {
    assertThatThrownBy(() -> read("sn,cpu_milli,memory_mib,gpu,model\nn1,64000,262144,2,\n"))
        .isInstanceOf(OpenbFormatException.class)
        .hasMessage("nodes.csv:2: model: expected a GPU model for a node with 2 GPUs, found an empty value");
    assertThatThrownBy(() -> read("sn,cpu_milli,memory_mib,gpu,model\nn1,64000,262144,two,T4\n"))
        .hasMessage("nodes.csv:2: gpu: expected an integer 0..64, found \"two\"");
    assertThatThrownBy(() -> read("sn,cpu_milli,memory_mib,gpu,model\nn1,\"64000\",262144,2,T4\n"))
        .hasMessageStartingWith("nodes.csv:2: row: expected plain comma-separated fields without quotes");
  }
}
