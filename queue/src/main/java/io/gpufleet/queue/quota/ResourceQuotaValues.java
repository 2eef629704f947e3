package io.gpufleet.queue.quota;

import java.util.OptionalLong;

/** One flavor-resource's quota on a node in Kueue's units ({@code pkg/cache/scheduler/resource.go} ResourceQuota). */
public record ResourceQuotaValues(long nominal, OptionalLong borrowingLimit, OptionalLong lendingLimit) {

  public static final ResourceQuotaValues NONE = new ResourceQuotaValues(0, OptionalLong.empty(), OptionalLong.empty());
}
