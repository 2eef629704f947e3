package io.gpufleet.engine.deviceplugin;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** Which pods a fault reaches on a node, from the devices their containers hold. */
public final class FaultAttribution {
  private FaultAttribution() {}

  /** The keys of the pods the fault reaches, sorted. */
  public static List<String> affectedPods(NodeDevices state, Fault fault) {
    TreeSet<String> pods = new TreeSet<>();
    for (ContainerDevices c : state.allAssignments()) {
      for (Device d : c.devices()) {
        if (reaches(fault, d)) {
          pods.add(c.podKey());
        }
      }
    }
    return new ArrayList<>(pods);
  }

  static boolean reaches(Fault fault, Device d) {
    return switch (fault) {
      case Fault.GpuFault g -> d.gpuIndex() == g.gpuIndex();
      case Fault.MigFault m -> d.gpuIndex() == m.gpuIndex()
          && d.mig().map(i -> i.placement().equals(m.placement())).orElse(false);
    };
  }
}
