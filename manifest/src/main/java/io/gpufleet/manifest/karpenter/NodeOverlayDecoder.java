package io.gpufleet.manifest.karpenter;

import io.gpufleet.manifest.kube.KubeDecoder;
import io.gpufleet.manifest.yaml.Cursor;
import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.model.karpenter.NodeOverlay;
import io.gpufleet.model.karpenter.NodePoolRequirement;
import io.gpufleet.model.meta.ObjectMeta;
import io.gpufleet.model.resource.ResourceList;
import io.gpufleet.model.resource.ResourceName;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Decodes a {@code karpenter.sh/v1alpha1} NodeOverlay and checks it as the API server would with
 * Karpenter's CRD ({@code K:pkg/apis/crds/karpenter.sh_nodeoverlays.yaml}, {@code
 * pkg/apis/v1alpha1/nodeoverlay.go} and {@code nodeoverlay_validation.go}), with their messages.
 */
public final class NodeOverlayDecoder {

  public static final String API_VERSION = "karpenter.sh/v1alpha1";

  /** {@code spec.price}. */
  static final Pattern PRICE = Pattern.compile("^\\d+(\\.\\d+)?$");
  /** {@code spec.priceAdjustment}: a signed amount, a positive percentage, or a decrease of at most 100%. */
  static final Pattern PRICE_ADJUSTMENT =
      Pattern.compile("^(([+-]{1}(\\d*\\.?\\d+))|(\\+{1}\\d*\\.?\\d+%)|(^(-\\d{1,2}(\\.\\d+)?%)$)|(-100%))$");
  /** The resources {@code spec.capacity} may not set: Karpenter's WellKnownResources. */
  static final Set<ResourceName> RESTRICTED = Set.of(ResourceName.CPU, ResourceName.MEMORY,
      ResourceName.EPHEMERAL_STORAGE, ResourceName.PODS);

  private static final Set<String> SPEC_FIELDS = Set.of("requirements", "price", "priceAdjustment", "capacity",
      "weight");

  private final NodePoolDecoder requirements;
  private final KubeDecoder kube;

  public NodeOverlayDecoder(Diagnostics diagnostics) {
    this.requirements = new NodePoolDecoder(diagnostics);
    this.kube = new KubeDecoder(diagnostics);
  }

  public NodeOverlay decode(Cursor doc, String apiVersion) {
    if (!API_VERSION.equals(apiVersion)) {
      doc.get("apiVersion").orElse(doc).error("expected apiVersion " + API_VERSION + " (the NodeOverlay API is "
          + "v1alpha1), found \"" + apiVersion + "\"");
    }
    ObjectMeta meta = kube.meta(doc, false);
    Cursor spec = doc.require("spec").orElse(doc);
    spec.checkKnown(SPEC_FIELDS, true);
    List<NodePoolRequirement> reqs = new ArrayList<>();
    Optional<Cursor> rc = spec.require("requirements");
    if (rc.isPresent()) {
      List<Cursor> items = rc.get().asList();
      if (items.size() > NodePoolDecoder.MAX_REQUIREMENTS) {
        rc.get().error("must have at most " + NodePoolDecoder.MAX_REQUIREMENTS + " items, found " + items.size());
      }
      for (Cursor r : items) {
        requirements.requirement(r, true).ifPresent(reqs::add);
      }
    }
    Optional<String> price = spec.get("price").map(c -> checked(c, PRICE));
    Optional<String> adjustment = spec.get("priceAdjustment").map(c -> checked(c, PRICE_ADJUSTMENT));
    if (price.isPresent() && adjustment.isPresent()) {
      spec.error("cannot set both 'price' and 'priceAdjustment'");
    }
    ResourceList capacity = spec.resourceList("capacity");
    for (ResourceName n : capacity.quantities().keySet()) {
      if (RESTRICTED.contains(n)) {
        spec.get("capacity").ifPresent(c -> c.error("invalid resource restricted: " + n));
      }
    }
    OptionalInt weight = spec.optInt("weight");
    if (weight.isPresent() && (weight.getAsInt() < 1 || weight.getAsInt() > 10000)) {
      spec.get("weight").ifPresent(w -> w.error("should be in 1..10000, found " + weight.getAsInt()));
    }
    return new NodeOverlay(meta.name(), reqs, price.filter(PRICE.asPredicate()),
        adjustment.filter(PRICE_ADJUSTMENT.asPredicate()), capacity, weight.orElse(0));
  }

  private static String checked(Cursor c, Pattern p) {
    String text = c.asString();
    if (!p.matcher(text).matches()) {
      c.error("should match '" + p.pattern() + "', found \"" + text + "\"");
    }
    return text;
  }
}
