package io.gpufleet.lint.rules;

import io.gpufleet.lint.Finding;
import io.gpufleet.lint.LintInput;
import io.gpufleet.lint.LintRule;
import io.gpufleet.lint.ObjectRef;
import io.gpufleet.lint.Severity;
import io.gpufleet.manifest.kube.OldKarpenterApi;
import io.gpufleet.manifest.yaml.ManifestProblem;
import java.util.ArrayList;
import java.util.List;

/**
 * A Karpenter object at an API version before {@code v1} ({@link OldKarpenterApi}): valid on the
 * Karpenter releases that serve it, so not a rejection, but not read by gpufleet, and refused by
 * Karpenter from the release that stops serving it. The reader's warning, as a finding.
 */
public final class KarpenterOldApi implements LintRule {

  @Override
  public String id() {
    return "karpenter-old-api";
  }

  @Override
  public Severity severity() {
    return Severity.WARNING;
  }

  @Override
  public String summary() {
    return "a Karpenter object is written at an API version before v1 (v1beta1, v1alpha5): gpufleet does not read it";
  }

  @Override
  public String why() {
    return "Karpenter v1.1 and later no longer serve v1beta1 (v0.33 and later no longer serve v1alpha5), so applying "
        + "it there fails; gpufleet reads only karpenter.sh/v1, so nothing else here checks the object.";
  }

  @Override
  public String fix() {
    return "Convert it to v1 as the message says (Karpenter's v1 Migration guide; karpenter-convert for v1alpha5).";
  }

  @Override
  public List<Finding> check(LintInput input) {
    List<Finding> out = new ArrayList<>();
    for (ManifestProblem p : input.warnings()) {
      OldKarpenterApi.fromNotice(p).ifPresent(u -> out.add(new Finding(id(), severity(),
          ObjectRef.clusterScoped(u.api().kind(), u.name()), "apiVersion", u.location(), p.message(), why(), fix())));
    }
    return out;
  }
}
