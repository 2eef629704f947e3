package io.gpufleet.lint.rules;

import io.gpufleet.lint.Finding;
import io.gpufleet.lint.LintInput;
import io.gpufleet.lint.LintRule;
import io.gpufleet.lint.Located;
import io.gpufleet.lint.ObjectRef;
import io.gpufleet.lint.Severity;
import io.gpufleet.manifest.yaml.ManifestProblem;
import java.util.ArrayList;
import java.util.List;

/**
 * What the API server, or Karpenter's CRD validation, would reject, as the reader words it. A
 * rejection that another rule explains at the same place is reported by that rule alone.
 */
public final class ManifestRejected implements LintRule {

  @Override
  public String id() {
    return "manifest-rejected";
  }

  @Override
  public Severity severity() {
    return Severity.ERROR;
  }

  @Override
  public String summary() {
    return "the API server or a CRD's validation would reject the object (the reader's message, verbatim)";
  }

  @Override
  public String why() {
    return "kubectl apply fails for this object: it never exists in the cluster, so nothing else said about it "
        + "holds.";
  }

  @Override
  public String fix() {
    return "Correct the field as the message says.";
  }

  @Override
  public boolean fallback() {
    return true;
  }

  @Override
  public List<Finding> check(LintInput input) {
    List<Finding> out = new ArrayList<>();
    for (ManifestProblem p : input.rejected()) {
      ObjectRef object = input.objectAt(p.location()).<ObjectRef>map(Located::ref)
          .orElse(ObjectRef.clusterScoped("File", p.location().file()));
      out.add(new Finding(id(), severity(), object, p.path() == null ? "" : p.path(), p.location(), p.message(),
          why(), fix()));
    }
    return out;
  }
}
