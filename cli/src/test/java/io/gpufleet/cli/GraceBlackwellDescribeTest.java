package io.gpufleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Issue 12's "GH200 and GB200 nodes describe with their MIG profiles": the stock all-balanced layout
 * on a GB200 tray and a GH200, as NVIDIA's default-mig-parted-config entries for their PCI IDs give it.
 */
class GraceBlackwellDescribeTest {

  @Test
  void gb200AndGh200DescribeWithTheirStockBalancedProfiles() {
    StringWriter out = new StringWriter();
    CommandLine cl = Main.commandLine();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(new StringWriter()));
    int code = cl.execute("node", "describe", "-f",
        Path.of("..", "examples", "gpu", "node-gb200-gh200-mig.yaml").toString());
    assertThat(code).isZero();
    String text = out.toString();
    String gb200 = text.substring(text.indexOf("Name:               gb200-tray-1"), text.indexOf("Name:               gh200-1"));
    String gh200 = text.substring(text.indexOf("Name:               gh200-1"));
    // 4 GPUs x (2 x 1g.23gb + 2g.47gb + 3g.93gb).
    assertThat(gb200).contains("nvidia.com/mig-1g.23gb:  8", "nvidia.com/mig-2g.47gb:  4",
        "nvidia.com/mig-3g.93gb:  4", "nvidia.com/mig.config.state=success", "NVIDIA GB200");
    // 1 GPU x (2 x 1g.12gb + 2g.24gb + 3g.48gb).
    assertThat(gh200).contains("nvidia.com/mig-1g.12gb:  2", "nvidia.com/mig-2g.24gb:  1",
        "nvidia.com/mig-3g.48gb:  1", "nvidia.com/mig.config.state=success", "NVIDIA GH200 480GB");
  }
}
