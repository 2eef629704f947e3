/**
 * The AWS provider's capacity-reservation controllers, as decisions: which reservations an
 * EC2NodeClass's selector terms resolve to now ({@code status.capacityReservations}), which NodeClaims
 * to delete ahead of a Capacity Block's end, and how a NodeClaim whose reservation ended is demoted
 * to on-demand. EC2's own side (counts, start and end, reclaiming a block's instances) is the runtime's.
 */
package io.gpufleet.autoscaler.reservation;
