package io.gpufleet.nvml.bench;

import java.util.List;
import java.util.Map;

/** Runs N tenants of one kernel together and returns what each measured, in tenant order. */
public interface Tenants {

  /**
   * @param env what each tenant's environment gets on top of this process's (the MPS pipe, a thread cap)
   */
  List<TenantRun> run(TenantKernel kernel, int count, Arrivals.Settings settings, Map<String, String> env);
}
