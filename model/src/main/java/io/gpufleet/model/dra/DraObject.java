package io.gpufleet.model.dra;

/** One {@code resource.k8s.io/v1} object as read from a manifest. */
public sealed interface DraObject permits DeviceClass, ResourceClaim, ResourceClaimTemplate, ResourceSlice,
    DeviceTaintRule {

  String kind();

  String name();
}
