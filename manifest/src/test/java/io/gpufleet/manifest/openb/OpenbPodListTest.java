package io.gpufleet.manifest.openb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpufleet.model.gpu.share.GpuDemand;
import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpenbPodListTest {

  private static final String HEADER =
      "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n";

  private static List<OpenbPod> read(String text) throws IOException {
    return OpenbPodList.read("pods.csv", new StringReader(text));
  }

  @Test
  void readsTheFullSchema() throws IOException {
    List<OpenbPod> pods = read(HEADER
        + "openb-pod-0000,12000,16384,1,1000,,LS,Running,0,12537496,0\n"
        + "openb-pod-0001,6000,12288,1,460,V100M16|V100M32,BE,Pending,427061,12902960,\n"
        + "openb-pod-0002,88000,327680,8,1000,,LS,Failed,5,,\n"
        + "openb-pod-0003,4000,8192,0,0,,Burstable,Succeeded,7,9,8\n");
    assertThat(pods).hasSize(4);
    assertThat(pods.get(0).pod().request().gpu()).isEqualTo(new GpuDemand.Whole(1));
    assertThat(pods.get(1).pod().request().gpu()).isEqualTo(new GpuDemand.Fraction(460));
    assertThat(pods.get(1).pod().request().models().models()).containsExactly("V100M16", "V100M32");
    assertThat(pods.get(1).history().orElseThrow().scheduledTime()).isEmpty();
    assertThat(pods.get(2).pod().request().gpu().totalMilli()).isEqualTo(8000);
    assertThat(pods.get(3).pod().request().gpu()).isEqualTo(GpuDemand.NONE);
    assertThat(pods.get(3).pod().request().milliCpu()).isEqualTo(4000);
  }

  @Test
  void readsTheFiveColumnSchemaOfTheMultigpuVariants() throws IOException {
    List<OpenbPod> pods = read("name,cpu_milli,memory_mib,num_gpu,gpu_milli\nopenb-pod-0000,12000,16384,2,1000\n");
    assertThat(pods).singleElement().satisfies(p -> {
      assertThat(p.history()).isEmpty();
      assertThat(p.pod().request().gpu()).isEqualTo(new GpuDemand.Whole(2));
    });
  }

  @Test
  void reportsFileLineFieldWhatWasExpectedAndWhatWasFound() {
    assertThatThrownBy(() -> read(HEADER + "openb-pod-0000,12000,16384,1,1000,,LS,Running,0,1,0\n"
        + "openb-pod-0001,6000,12288,1,abc,,LS,Running,0,1,0\n"))
        .isInstanceOf(OpenbFormatException.class)
        .hasMessage("pods.csv:3: gpu_milli: expected an integer 0..1000, found \"abc\"")
        .satisfies(e -> assertThat(((OpenbFormatException) e).line()).isEqualTo(3));
    assertThatThrownBy(() -> read(HEADER + "openb-pod-0001,-5,12288,1,500,,LS,Running,0,1,0\n"))
        .hasMessage("pods.csv:2: cpu_milli: expected an integer 0..2147483647, found \"-5\"");
    assertThatThrownBy(() -> read(HEADER + "openb-pod-0001,6000,12288,2,500,,LS,Running,0,1,0\n"))
        .hasMessage("pods.csv:2: gpu_milli: expected 1000 (a pod on 2 GPUs takes them whole), found \"500\"");
    assertThatThrownBy(() -> read(HEADER + "openb-pod-0001,6000,12288,1,0,,LS,Running,0,1,0\n"))
        .hasMessage("pods.csv:2: gpu_milli: expected 1..1000 milli-GPU for a pod with num_gpu 1, found \"0\"");
    assertThatThrownBy(() -> read(HEADER + "openb-pod-0001,6000,12288,1,500,,XX,Running,0,1,0\n"))
        .hasMessage("pods.csv:2: qos: expected one of BE, Burstable, Guaranteed, LS, found \"XX\"");
    assertThatThrownBy(() -> read(HEADER + "openb-pod-0001,6000,12288,1,500\n"))
        .hasMessage("pods.csv:2: row: expected 11 fields (" + HEADER.trim() + "), found 5 fields");
    assertThatThrownBy(() -> read(HEADER + "a,1,1,0,0,,LS,Running,0,1,0\n\na,1,1,0,0,,LS,Running,0,1,0\n"))
        .hasMessage("pods.csv:4: name: expected a name not used before, found \"a\"");
    assertThatThrownBy(() -> read(HEADER + "a,1,1,0,0,,LS,Running,,1,0\n"))
        .hasMessage("pods.csv:2: creation_time: expected an integer >= 0, found an empty value");
  }

  @Test
  void rejectsAFileThatIsNotAPodList() {
    assertThatThrownBy(() -> read("sn,cpu_milli,memory_mib,gpu,model\n"))
        .isInstanceOf(OpenbFormatException.class)
        .hasMessageStartingWith("pods.csv:1: header: expected \"name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,")
        .hasMessageEndingWith("found \"sn,cpu_milli,memory_mib,gpu,model\"");
    assertThatThrownBy(() -> read("")).hasMessageEndingWith("found an empty file");
  }
}
