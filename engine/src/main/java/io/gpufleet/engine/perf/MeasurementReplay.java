package io.gpufleet.engine.perf;

import io.gpufleet.model.deviceplugin.SharingMode;
import io.gpufleet.model.advise.ClosedLoopRow;
import io.gpufleet.model.advise.H200Measurement;
import io.gpufleet.model.advise.MeasuredSharing;
import io.gpufleet.model.advise.RequestDemand;
import io.gpufleet.model.gpu.GpuCatalog;
import io.gpufleet.model.gpu.GpuModel;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a measurement's configurations through the model: every closed-loop row side by side with
 * its prediction, and the H200 open-loop runs (kept aside from calibration) as predictions to
 * check against them.
 */
public record MeasurementReplay(SharingModel model, GpuCatalog catalog) {

  /** One closed-loop row and what the model says for it. */
  public record ClosedLoopComparison(ClosedLoopRow measured, double throughput, double p50Ms) {
    public double throughputError() {
      return throughput / measured.throughput() - 1;
    }

    public double p50Error() {
      return p50Ms / measured.p50Ms() - 1;
    }
  }

  /** A predicted open-loop configuration: {@code tenants} × {@code big} at {@code ratePerSecond} each. */
  public record OpenLoopPrediction(String mode, int tenants, double ratePerSecond, double p50Ms, double p99Ms,
      double load) {}

  public GpuModel card() {
    return catalog.byId(H200Measurement.GPU).orElseThrow();
  }

  /** Every closed-loop row of a measurement beside the model's prediction, on the card it names. */
  public List<ClosedLoopComparison> closedLoop(MeasuredSharing m) {
    Device device = Device.whole(catalog.byId(m.gpu()).orElseThrow(
        () -> new IllegalArgumentException("card " + m.gpu() + " is not in the GPU catalogue")));
    List<ClosedLoopComparison> out = new ArrayList<>();
    for (ClosedLoopRow r : m.rows()) {
      RequestDemand demand = switch (r.workload()) {
        case "big" -> m.big();
        case "small" -> m.small();
        default -> throw new IllegalArgumentException("unknown workload " + r.workload());
      };
      // A lone capped row is one client under the cap of N: the device plugin's MPS for N, N-1 idle.
      Colocation c = r.mode().equals(CalibrationFit.MPS_CAPPED_SOLO)
          ? new Colocation(device, SharingMode.Mps.devicePlugin(r.tenants()),
              colocation(device, CalibrationFit.MPS_CAPPED, 1, demand, 1.0).tenants())
          : colocation(device, r.mode(), r.tenants(), demand, 1.0);
      ClosedLoopForecast f = model.closedLoop(c);
      out.add(new ClosedLoopComparison(r, f.aggregateThroughput(), f.p50Ms()));
    }
    return out;
  }

  /**
   * The open-loop runs of {@code sharing.sh}: 1, 2 and 4 tenants of {@code big} at 60 Poisson
   * requests per second each, under time-slicing and under MPS (daemon defaults).
   */
  public List<OpenLoopPrediction> openLoop() {
    Device device = Device.whole(card());
    List<OpenLoopPrediction> out = new ArrayList<>();
    for (String mode : List.of(CalibrationFit.TIME_SLICING, CalibrationFit.MPS)) {
      for (int n : List.of(1, 2, 4)) {
        CardForecast f = model.openLoop(colocation(device, mode, n, H200Measurement.BIG, 60));
        TenantForecast t = f.tenants().getFirst();
        out.add(new OpenLoopPrediction(mode, n, 60, t.p50Ms(), t.p99Ms(), f.load()));
      }
    }
    return out;
  }

  private Colocation colocation(Device device, String mode, int n, RequestDemand demand, double rate) {
    ServiceDemand d = ServiceDemand.of(demand, device, model.calibration(), catalog);
    long memory = demand instanceof RequestDemand.ModelWeights w ? w.defaultFootprintMiB() : RequestDemand.ModelWeights.OVERHEAD_MIB;
    List<Tenant> tenants = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      tenants.add(new Tenant("t" + i, d, memory, rate, 1.0));
    }
    // One tenant alone runs as a plain context under either name; MPS still takes its launch path.
    SharingMode m = switch (mode) {
      case CalibrationFit.TIME_SLICING -> n == 1 ? new SharingMode.Exclusive() : new SharingMode.TimeSlicing(n);
      case CalibrationFit.MPS -> SharingMode.Mps.unlimited(n);
      case CalibrationFit.MPS_CAPPED -> SharingMode.Mps.devicePlugin(n);
      default -> throw new IllegalArgumentException("unknown mode " + mode);
    };
    return new Colocation(device, m, tenants);
  }
}
