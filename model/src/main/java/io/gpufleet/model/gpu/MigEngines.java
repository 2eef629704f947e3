package io.gpufleet.model.gpu;

/**
 * The engines a MIG GPU instance holds, as {@code nvidia-smi mig -lgip} prints them per profile
 * (CE, DEC, ENC, JPEG, OFA) and as NVML's MIG device attributes give them to GPU Feature Discovery
 * ({@code SharedCopyEngineCount}, {@code SharedDecoderCount}, ...), which publishes them as
 * {@code nvidia.com/gpu.engines.*} and {@code nvidia.com/mig-<profile>.engines.*}.
 */
public record MigEngines(int copy, int decoder, int encoder, int jpeg, int ofa) {

  public MigEngines {
    if (copy < 0 || decoder < 0 || encoder < 0 || jpeg < 0 || ofa < 0) {
      throw new IllegalArgumentException("MIG engine counts cannot be negative");
    }
  }

  /** The catalogue's {@code engines=CE/DEC/ENC/JPEG/OFA}, e.g. {@code 1/1/0/1/0}. */
  public static MigEngines parse(String v) {
    String[] p = v.split("/", -1);
    if (p.length != 5) {
      throw new IllegalArgumentException("expected engines=CE/DEC/ENC/JPEG/OFA such as 1/1/0/1/0, found \"" + v + "\"");
    }
    return new MigEngines(Integer.parseInt(p[0]), Integer.parseInt(p[1]), Integer.parseInt(p[2]),
        Integer.parseInt(p[3]), Integer.parseInt(p[4]));
  }
}
