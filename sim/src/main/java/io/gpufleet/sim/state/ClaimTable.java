package io.gpufleet.sim.state;

import io.gpufleet.engine.dra.Allocation;
import io.gpufleet.engine.dra.DevicesInUse;
import io.gpufleet.engine.dra.DraState;
import io.gpufleet.engine.dra.GpuClaimPreparation;
import io.gpufleet.model.collect.PMap;
import io.gpufleet.model.dra.DeviceTaintRule;
import io.gpufleet.model.dra.DraObject;
import io.gpufleet.model.dra.DraObjects;
import io.gpufleet.model.dra.PodResourceClaim;
import io.gpufleet.model.dra.ResourceClaim;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.pod.Pod;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The cluster's {@code resource.k8s.io} objects: those the scenario wrote (classes, templates,
 * slices, claims) and every ResourceClaim with its status — the ones written and those the resource
 * claim controller made from templates for pods.
 *
 * @param written the objects as the scenario wrote them
 * @param claims every claim by {@code namespace/name}
 * @param madeFor a pod's template entry to the key of the claim made for it
 * @param used whether any pod has named claims ({@code spec.resourceClaims}), so the scheduler needs
 *     DynamicResources even where nothing was written
 */
public record ClaimTable(DraObjects written, PMap<String, Claim> claims, PMap<Entry, String> madeFor, boolean used) {

  public static final ClaimTable EMPTY = new ClaimTable(DraObjects.NONE, PMap.empty(), PMap.empty(), false);

  /**
   * One claim and its status.
   *
   * @param owner the pod a template claim was made for (its owner reference); empty for a written claim
   * @param allocation {@code status.allocation}, set when the first pod using it is bound
   * @param reservedFor {@code status.reservedFor}: the bound pods using it, in bind order
   * @param prepared how NVIDIA's kubelet plugin prepared its devices (its checkpoint on the node, not
   *     the API's); empty until a pod using it starts
   */
  public record Claim(ResourceClaim claim, Optional<String> owner, Optional<Allocation> allocation,
      List<String> reservedFor, List<GpuClaimPreparation.PreparedDevice> prepared) {
    public Claim {
      Objects.requireNonNull(claim, "claim");
      Objects.requireNonNull(owner, "owner");
      Objects.requireNonNull(allocation, "allocation");
      reservedFor = List.copyOf(reservedFor);
      prepared = List.copyOf(prepared);
    }

    static Claim fresh(ResourceClaim claim, Optional<String> owner) {
      return new Claim(claim, owner, Optional.empty(), List.of(), List.of());
    }
  }

  public ClaimTable {
    Objects.requireNonNull(written, "written");
    Objects.requireNonNull(claims, "claims");
    Objects.requireNonNull(madeFor, "madeFor");
  }

  /** A pod's {@code spec.resourceClaims[]} entry, by the pod's key and the entry's name. */
  public record Entry(String pod, String podClaimName) {}

  /**
   * The entry under which the claim the scheduler made for a pod's DRA-backed extended resources is
   * kept (upstream records it in the pod's {@code status.extendedResourceClaimStatus}); not a DNS
   * label, so no {@code spec.resourceClaims} entry can have it.
   */
  public static final String EXTENDED_RESOURCES = "(extended resources)";

  /** Nothing written, no claims, no pod using any: DRA plays no part. */
  public boolean isEmpty() {
    return !used && written.isEmpty() && claims.isEmpty();
  }

  /** A pod with claims exists (from now on the run uses DRA). */
  public ClaimTable withUse() {
    return used ? this : new ClaimTable(written, claims, madeFor, true);
  }

  public Optional<Claim> claim(String key) {
    return Optional.ofNullable(claims.get(key));
  }

  /** The claim made for a pod's template entry, if the controller made it. */
  public Optional<Claim> madeFor(String podKey, String podClaimName) {
    return Optional.ofNullable(madeFor.get(new Entry(podKey, podClaimName))).map(claims::get);
  }

  /** A written object; a written claim enters the table unallocated. */
  public ClaimTable withWritten(DraObject o) {
    List<DraObject> all = new ArrayList<>(written.all());
    all.add(o);
    PMap<String, Claim> c = claims;
    if (o instanceof ResourceClaim rc) {
      c = c.put(rc.key(), Claim.fresh(rc, Optional.empty()));
    }
    return new ClaimTable(DraObjects.of(all), c, madeFor, used);
  }

  /** The written DeviceTaintRule {@code name} is gone: its taint leaves the devices it matched. */
  public ClaimTable withoutTaintRule(String name) {
    List<DraObject> all = new ArrayList<>(written.all());
    all.removeIf(o -> o instanceof DeviceTaintRule r && r.name().equals(name));
    return new ClaimTable(DraObjects.of(all), claims, madeFor, used);
  }

  /** A claim the controller made for {@code podKey}'s entry {@code podClaimName}. */
  public ClaimTable withMade(String podKey, String podClaimName, ResourceClaim claim) {
    return new ClaimTable(written, claims.put(claim.key(), Claim.fresh(claim, Optional.of(podKey))),
        madeFor.put(new Entry(podKey, podClaimName), claim.key()), used);
  }

  /** The claim with {@code allocation} (when given) and {@code podKey} added to its reservations. */
  public ClaimTable reserved(String claimKey, Optional<Allocation> allocation, String podKey) {
    Claim c = claims.get(claimKey);
    List<String> r = new ArrayList<>(c.reservedFor());
    r.add(podKey);
    return new ClaimTable(written, claims.put(claimKey, new Claim(c.claim(), c.owner(),
        allocation.isPresent() ? allocation : c.allocation(), r, c.prepared())), madeFor, used);
  }

  /** The claim's devices as the driver prepared them. */
  public ClaimTable prepared(String claimKey, List<GpuClaimPreparation.PreparedDevice> devices) {
    Claim c = claims.get(claimKey);
    return new ClaimTable(written, claims.put(claimKey, new Claim(c.claim(), c.owner(), c.allocation(),
        c.reservedFor(), devices)), madeFor, used);
  }

  /**
   * {@code podKey} is gone: it leaves every reservation, a claim no pod reserves any more is
   * deallocated, and the claims made for it are deleted with it (their owner reference).
   */
  public ClaimTable withoutPod(String podKey) {
    PMap<String, Claim> c = claims;
    PMap<Entry, String> m = madeFor;
    for (Claim claim : claims.values()) {
      boolean owned = claim.owner().equals(Optional.of(podKey));
      if (owned) {
        c = c.remove(claim.claim().key());
      } else if (claim.reservedFor().contains(podKey)) {
        List<String> r = new ArrayList<>(claim.reservedFor());
        r.remove(podKey);
        // Deallocated, its devices are unprepared too.
        c = c.put(claim.claim().key(), r.isEmpty() ? Claim.fresh(claim.claim(), claim.owner())
            : new Claim(claim.claim(), claim.owner(), claim.allocation(), r, claim.prepared()));
      }
    }
    for (Entry k : madeFor.keys()) {
      if (k.pod().equals(podKey)) {
        m = m.remove(k);
      }
    }
    if (c == claims && m == madeFor) {
      return this;
    }
    return new ClaimTable(written, c, m, used);
  }

  /** The recorded allocations and reservations, as the scheduler's DynamicResources reads them. */
  public DraState state() {
    Map<String, Allocation> allocations = new LinkedHashMap<>();
    Map<String, List<String>> reserved = new LinkedHashMap<>();
    DevicesInUse inUse = DevicesInUse.NONE;
    for (Claim c : sorted()) {
      if (c.allocation().isPresent()) {
        allocations.put(c.claim().key(), c.allocation().get());
        inUse = inUse.plus(c.allocation().get());
      }
      if (!c.reservedFor().isEmpty()) {
        reserved.put(c.claim().key(), c.reservedFor());
      }
    }
    return new DraState(allocations, reserved, inUse);
  }

  /** How many devices the claims hold on {@code node}. */
  public int allocatedDevices(String node) {
    int n = 0;
    for (Claim c : claims.values()) {
      if (c.allocation().isPresent() && c.allocation().get().node().equals(node)) {
        n += c.allocation().get().results().size();
      }
    }
    return n;
  }

  /**
   * The claims a pod uses, in its {@code spec.resourceClaims} order (those that exist), then the one
   * made for its DRA-backed extended resources.
   */
  public List<Claim> of(Pod pod) {
    List<Claim> out = new ArrayList<>();
    for (PodResourceClaim e : pod.spec().resourceClaims()) {
      Optional<Claim> c = switch (e) {
        case PodResourceClaim.Named n -> claim(ObjectMeta.key(
            pod.meta().namespace(), n.resourceClaimName()));
        case PodResourceClaim.FromTemplate t -> madeFor(pod.key(), t.name());
      };
      c.ifPresent(out::add);
    }
    madeFor(pod.key(), EXTENDED_RESOURCES).ifPresent(out::add);
    return out;
  }

  /** Every claim, by key. */
  public List<Claim> sorted() {
    Map<String, Claim> byKey = new TreeMap<>();
    claims.forEach(byKey::put);
    return List.copyOf(byKey.values());
  }

  /** The written objects with every claim of the table (written and made) as claims. */
  public DraObjects objects() {
    return written.withClaims(sorted().stream().map(Claim::claim).toList());
  }
}
