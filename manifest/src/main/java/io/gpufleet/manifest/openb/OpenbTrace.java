package io.gpufleet.manifest.openb;

import io.gpufleet.model.gpu.share.ShareNode;
import io.gpufleet.model.gpu.share.SharePod;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * The openb files in one directory: the GPU node list the FGD experiments use and the pod list of
 * each trace variant ({@code openb_pod_list_<variant>.csv}).
 */
public record OpenbTrace(Path directory) {

  public static final String GPU_NODE_LIST = "openb_node_list_gpu_node.csv";

  /** Every pod-list variant of the trace, in the order the paper's figures use them. */
  public static final List<String> VARIANTS = List.of("default",
      "cpu0", "cpu037", "cpu050", "cpu072", "cpu100", "cpu200", "cpu235", "cpu250", "cpu300",
      "gpushare20", "gpushare40", "gpushare60", "gpushare80", "gpushare100",
      "gpuspec05", "gpuspec10", "gpuspec20", "gpuspec25", "gpuspec33",
      "multigpu20", "multigpu30", "multigpu40", "multigpu50");

  /** The 17 variants of the paper's runs. */
  public static final List<String> PAPER_VARIANTS = List.of("default", "cpu050", "cpu100", "cpu200", "cpu250",
      "gpushare40", "gpushare60", "gpushare80", "gpushare100",
      "gpuspec10", "gpuspec20", "gpuspec25", "gpuspec33",
      "multigpu20", "multigpu30", "multigpu40", "multigpu50");

  public static String podListFile(String variant) {
    return "openb_pod_list_" + variant + ".csv";
  }

  /** The 1,213 GPU nodes. */
  public List<ShareNode> gpuNodes() throws IOException {
    Path file = directory.resolve(GPU_NODE_LIST);
    try (Reader in = open(file)) {
      return OpenbNodeList.read(file.getFileName().toString(), in);
    }
  }

  /** The pod list of a variant, with its history columns where the file has them. */
  public List<OpenbPod> podList(String variant) throws IOException {
    if (!VARIANTS.contains(variant)) {
      throw new IllegalArgumentException("unknown openb variant \"" + variant + "\"; known: " + String.join(", ", VARIANTS));
    }
    Path file = directory.resolve(podListFile(variant));
    try (Reader in = open(file)) {
      return OpenbPodList.read(file.getFileName().toString(), in);
    }
  }

  /** Just the pods of a variant. */
  public List<SharePod> pods(String variant) throws IOException {
    return podList(variant).stream().map(OpenbPod::pod).toList();
  }

  private static Reader open(Path file) throws IOException {
    try {
      return Files.newBufferedReader(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new NoSuchFileException(file.toString(), null, "no such trace file");
    }
  }
}
