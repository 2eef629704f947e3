package io.gpufleet.manifest.kube;

import io.gpufleet.manifest.yaml.Location;
import io.gpufleet.manifest.yaml.ManifestProblem;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Karpenter object written at an API version older than {@code v1}, which gpufleet does not read.
 * Such objects are valid on the Karpenter versions that serve them, so they are not rejections:
 * every command skips them with one warning that says which Karpenter versions serve them and how to
 * convert them. Sources, all in {@code aws/karpenter-provider-aws}:
 *
 * <ul>
 *   <li>{@code website/content/en/docs/upgrading/v1-migration.md}: {@code v1.0} serves both {@code
 *       v1} and {@code v1beta1} NodePools, NodeClaims and EC2NodeClasses through conversion webhooks;
 *       "Karpenter will stop serving the v1beta1 API version at v1.1"; {@code v1.0} does not work
 *       with the v1alpha5 Provisioner, v1alpha1 AWSNodeTemplate or Machine.
 *   <li>{@code website/content/en/docs/upgrading/v1beta1-migration.md}: {@code v0.32.x} introduces
 *       {@code v1beta1} (Provisioner → NodePool, Machine → NodeClaim, AWSNodeTemplate →
 *       EC2NodeClass) and serves it beside {@code v1alpha5}; from {@code v0.33.0} only {@code
 *       v1beta1} is served; {@code karpenter-convert} ({@code tools/karpenter-convert}) rewrites a
 *       Provisioner as a NodePool and an AWSNodeTemplate as an EC2NodeClass.
 * </ul>
 *
 * @param apiVersion as written
 * @param kind as written
 * @param served the Karpenter releases that serve it
 * @param convert how to get the {@code v1} object
 * @param provisions whether the object makes nodes (a NodePool or Provisioner): without it a
 *     simulation would have no autoscaler for the pods it would have served
 */
public record OldKarpenterApi(String apiVersion, String kind, String served, String convert, boolean provisions) {

  /** The guide the {@code v1beta1} messages point to. */
  public static final String V1_MIGRATION = "https://karpenter.sh/docs/upgrading/v1-migration/";
  /** The guide the {@code v1alpha5} messages point to. */
  public static final String V1BETA1_MIGRATION = "https://karpenter.sh/v0.32/upgrading/v1beta1-migration/";

  private static final String FROM_V1BETA1 = "on Karpenter v1.0 the conversion webhook stores it as v1, so `kubectl "
      + "get %s <name> -o yaml` returns the v1 object; or rewrite it by the changelog of " + V1_MIGRATION;
  private static final String FROM_V1ALPHA = "`karpenter-convert -f <file>` (Karpenter's tools/karpenter-convert, "
      + "release-v0.32.x) writes the v1beta1 %s, which Karpenter v1.0 then converts to v1 (" + V1BETA1_MIGRATION + ")";

  /** The Karpenter API version an old object's kind is read at, or the kind it became. */
  public String replacement() {
    return switch (kind) {
      case "Provisioner" -> "karpenter.sh/v1 NodePool";
      case "Machine" -> "karpenter.sh/v1 NodeClaim";
      case "AWSNodeTemplate" -> "karpenter.k8s.aws/v1 EC2NodeClass";
      case "EC2NodeClass" -> "karpenter.k8s.aws/v1 EC2NodeClass";
      default -> "karpenter.sh/v1 " + kind;
    };
  }

  /** The old API an object is written at, if it is one of Karpenter's earlier versions. */
  public static Optional<OldKarpenterApi> of(String apiVersion, String kind) {
    String v1beta1 = "served by Karpenter v0.32 to v1.0 (v1.1 stopped serving v1beta1)";
    String v1alpha = "served by Karpenter up to v0.32 (v0.33 serves only v1beta1; v1.0 does not read it)";
    return Optional.ofNullable(switch (apiVersion + " " + kind) {
      case "karpenter.sh/v1beta1 NodePool" -> new OldKarpenterApi(apiVersion, kind, v1beta1,
          FROM_V1BETA1.formatted("nodepool"), true);
      case "karpenter.sh/v1beta1 NodeClaim" -> new OldKarpenterApi(apiVersion, kind, v1beta1,
          FROM_V1BETA1.formatted("nodeclaim"), false);
      case "karpenter.k8s.aws/v1beta1 EC2NodeClass" -> new OldKarpenterApi(apiVersion, kind, v1beta1,
          FROM_V1BETA1.formatted("ec2nodeclass"), false);
      case "karpenter.sh/v1alpha5 Provisioner" -> new OldKarpenterApi(apiVersion, kind, v1alpha,
          FROM_V1ALPHA.formatted("NodePool"), true);
      case "karpenter.sh/v1alpha5 Machine" -> new OldKarpenterApi(apiVersion, kind, v1alpha,
          "let Karpenter v0.32 replace it with a NodeClaim as its NodePool's nodes roll over (" + V1BETA1_MIGRATION
              + ")", false);
      case "karpenter.k8s.aws/v1alpha1 AWSNodeTemplate" -> new OldKarpenterApi(apiVersion, kind, v1alpha,
          FROM_V1ALPHA.formatted("EC2NodeClass"), false);
      default -> null;
    });
  }

  /** The one message every command gives, e.g. for {@code NodePool "gpu"}. */
  public String message(String name) {
    return apiVersion + " " + kind + " \"" + name + "\" is " + served + "; gpufleet reads " + replacement()
        + " only, so this object is not read. To convert: " + convert;
  }

  /** Where such an object was skipped, for a reader that must refuse to go on without it. */
  public record Unread(OldKarpenterApi api, String name, Location location) {
    public ManifestProblem warning() {
      return ManifestProblem.warning(location, "apiVersion", api.message(name));
    }
  }

  private static final Pattern NOTICE = Pattern.compile("^(\\S+) (\\S+) \"([^\"]*)\" is .* only, so this object is "
      + "not read\\. To convert: .*$");

  /**
   * The skipped object a warning of {@link Unread#warning()} tells of, for readers that see only the
   * warnings ({@code lint} turns it into a finding of its own); empty for any other problem.
   */
  public static Optional<Unread> fromNotice(ManifestProblem p) {
    if (p.severity() != ManifestProblem.Severity.WARNING || !"apiVersion".equals(p.path())) {
      return Optional.empty();
    }
    Matcher m = NOTICE.matcher(p.message());
    if (!m.matches()) {
      return Optional.empty();
    }
    return of(m.group(1), m.group(2)).map(api -> new Unread(api, m.group(3), p.location()));
  }
}
