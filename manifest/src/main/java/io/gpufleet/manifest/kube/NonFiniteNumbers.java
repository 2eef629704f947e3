package io.gpufleet.manifest.kube;

import io.gpufleet.manifest.yaml.Diagnostics;
import io.gpufleet.manifest.yaml.YNode;
import java.util.Locale;

/**
 * What kubectl's YAML-to-JSON step refuses among numbers. kubectl reads a manifest by converting each
 * document to JSON first (sigs.k8s.io/yaml, over go-yaml v2): a plain scalar that YAML resolves to an
 * infinite or NaN float ({@code .inf}, {@code -.Inf}, {@code .nan}) has no JSON form, so
 * {@code json.Marshal} fails and nothing of the document is read ({@code error converting YAML to JSON:
 * json: unsupported value: +Inf}). A float too large for a float64 is not refused there: go-yaml's
 * resolver keeps {@code 1e400} a string when {@code strconv.ParseFloat} fails (resolve.go), and as a
 * quantity that string is 10^400 ({@code resource.ParseQuantity}).
 */
final class NonFiniteNumbers {
  private NonFiniteNumbers() {}

  /** Reports every infinite or NaN float of the document at its position; true when there was one. */
  static boolean report(YNode doc, Diagnostics diagnostics) {
    return walk(doc, "", diagnostics);
  }

  // instanceof, not a pattern switch, which would make a class at run time on first use; a YNull is
  // a leaf like a scalar, and those four are all YNode permits (YNodeBranchesTest).
  private static boolean walk(YNode node, String path, Diagnostics diagnostics) {
    if (node instanceof YNode.YMap m) {
      boolean found = false;
      for (var e : m.entries().entrySet()) {
        String key = e.getKey();
        String child = key.contains(".") || key.contains("/") ? path + "[" + key + "]"
            : path.isEmpty() ? key : path + "." + key;
        found |= walk(e.getValue().value(), child, diagnostics);
      }
      return found;
    }
    if (node instanceof YNode.YList l) {
      boolean found = false;
      for (int i = 0; i < l.items().size(); i++) {
        found |= walk(l.items().get(i), path + "[" + i + "]", diagnostics);
      }
      return found;
    }
    if (node instanceof YNode.YScalar s && s.type() == YNode.YScalar.Type.FLOAT && nonFinite(s.text()) != null) {
      diagnostics.error(s.location(), path, "error converting YAML to JSON: json: unsupported value: "
          + nonFinite(s.text()) + " (kubectl refuses infinities and NaN; quote it, \"" + s.text()
          + "\", for a string)");
      return true;
    }
    return false;
  }

  /** Go's name of the value ({@code +Inf}, {@code -Inf}, {@code NaN}), or null for a finite number. */
  private static String nonFinite(String text) {
    String t = text.toLowerCase(Locale.ROOT);
    if (t.endsWith(".nan")) {
      return "NaN";
    }
    if (t.endsWith(".inf")) {
      return t.startsWith("-") ? "-Inf" : "+Inf";
    }
    return null;
  }
}
