package io.gpufleet.nvml;

import io.gpufleet.model.gpu.ComputeCapability;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A hand-written NVML: cards described as values, and any call made to fail with a chosen
 * {@code nvmlReturn_t} number, as the real library answers on cards that lack a feature.
 */
final class FakeNvml implements Nvml {

  /** A card: MIG modes or utilisation null where the card lacks them; MIG devices by slot, a null slot empty. */
  record Card(String name, String uuid, long totalBytes, long usedBytes, ComputeCapability compute,
      MigModes mig, List<Card> migSlots, int computeMode, Utilization utilization) {}

  private final String driver;
  private final List<Card> cards;
  private final Map<String, Integer> failures = new HashMap<>();
  private final Map<Long, Card> handles = new HashMap<>();
  private boolean closed;

  FakeNvml(String driver, List<Card> cards) {
    this.driver = driver;
    this.cards = cards;
  }

  /** Every later {@code function} call on any card returns {@code code}. */
  FakeNvml failing(String function, NvmlReturn code) {
    failures.put(function, code.code());
    return this;
  }

  boolean closed() {
    return closed;
  }

  private void maybeFail(String function) {
    Integer code = failures.get(function);
    if (code != null) {
      throw new NvmlException(function, code, "fake");
    }
  }

  private Handle handle(Card c) {
    long address = 0x1000L + handles.size() * 8L;
    handles.put(address, c);
    return new Handle(address);
  }

  private Card card(Handle h) {
    Card c = handles.get(h.address());
    if (c == null) {
      throw new NvmlException("handle", NvmlReturn.ERROR_INVALID_ARGUMENT.code(), "fake");
    }
    return c;
  }

  @Override
  public String driverVersion() {
    maybeFail("nvmlSystemGetDriverVersion");
    return driver;
  }

  @Override
  public int deviceCount() {
    maybeFail("nvmlDeviceGetCount_v2");
    return cards.size();
  }

  @Override
  public Handle device(int index) {
    if (index >= cards.size()) {
      throw new NvmlException("nvmlDeviceGetHandleByIndex_v2", NvmlReturn.ERROR_INVALID_ARGUMENT.code(), "fake");
    }
    return handle(cards.get(index));
  }

  @Override
  public String name(Handle device) {
    return card(device).name();
  }

  @Override
  public String uuid(Handle device) {
    return card(device).uuid();
  }

  @Override
  public Memory memory(Handle device) {
    Card c = card(device);
    return new Memory(c.totalBytes(), c.totalBytes() - c.usedBytes(), c.usedBytes());
  }

  @Override
  public ComputeCapability computeCapability(Handle device) {
    return card(device).compute();
  }

  @Override
  public MigModes migMode(Handle device) {
    maybeFail("nvmlDeviceGetMigMode");
    MigModes m = card(device).mig();
    if (m == null) {
      throw new NvmlException("nvmlDeviceGetMigMode", NvmlReturn.ERROR_NOT_SUPPORTED.code(), "fake");
    }
    return m;
  }

  @Override
  public int maxMigDeviceCount(Handle device) {
    return card(device).migSlots().size();
  }

  @Override
  public Optional<Handle> migDevice(Handle device, int index) {
    Card m = card(device).migSlots().get(index);
    return m == null ? Optional.empty() : Optional.of(handle(m));
  }

  @Override
  public int computeMode(Handle device) {
    return card(device).computeMode();
  }

  @Override
  public Utilization utilization(Handle device) {
    maybeFail("nvmlDeviceGetUtilizationRates");
    Utilization u = card(device).utilization();
    if (u == null) {
      throw new NvmlException("nvmlDeviceGetUtilizationRates", NvmlReturn.ERROR_NOT_SUPPORTED.code(), "fake");
    }
    return u;
  }

  @Override
  public void close() {
    closed = true;
  }

  static Card h200(int index) {
    return new Card("NVIDIA H200", "GPU-0000000" + index, 143771L * 1024 * 1024 + 123_456, 615L * 1024 * 1024,
        new ComputeCapability(9, 0), new MigModes(0, 0), List.of(), 0, new Utilization(0, 0));
  }

  static List<Card> slots(Card... cards) {
    return new ArrayList<>(java.util.Arrays.asList(cards));
  }
}
