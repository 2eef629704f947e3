package io.gpufleet.model.pod;

import java.util.Objects;

/**
 * One entry of a container's {@code ports}: what kube-scheduler's NodePorts plugin reads of it. A
 * {@code hostPort} of 0 binds nothing on the node. {@code protocol} defaults to TCP and {@code hostIP}
 * to {@code 0.0.0.0} (core/v1 {@code SetDefaults_ContainerPort}; NodePorts' {@code HostPortInfo}
 * treats an empty address as {@code 0.0.0.0}).
 */
public record ContainerPort(int containerPort, int hostPort, String protocol, String hostIP) {

  /** The address a host port binds on every interface ({@code DefaultBindAllHostIP}). */
  public static final String ALL_ADDRESSES = "0.0.0.0";

  public ContainerPort {
    protocol = protocol == null || protocol.isEmpty() ? "TCP" : protocol;
    hostIP = hostIP == null || hostIP.isEmpty() ? ALL_ADDRESSES : hostIP;
    Objects.checkIndex(hostPort, 65_536);
  }

  /**
   * Whether two host ports clash on one node (NodePorts' {@code HostPortInfo.CheckConflict}): same
   * protocol and port, and the same address or either on every address.
   */
  public boolean conflictsWith(ContainerPort other) {
    if (hostPort == 0 || other.hostPort == 0 || hostPort != other.hostPort || !protocol.equals(other.protocol)) {
      return false;
    }
    return hostIP.equals(other.hostIP) || hostIP.equals(ALL_ADDRESSES) || other.hostIP.equals(ALL_ADDRESSES);
  }
}
