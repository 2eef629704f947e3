package io.gpufleet.model.validation;

import io.gpufleet.model.label.LabelSelector;
import io.gpufleet.model.label.Labels;
import io.gpufleet.model.label.Requirement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The syntax of label keys and values, and the label-syntax part of a selector's validation, with
 * the API server's words. Source: kubernetes/apimachinery {@code pkg/util/validation/validation.go}
 * ({@code IsQualifiedName}, {@code IsValidLabelValue}, {@code IsDNS1123Subdomain}, {@code
 * RegexError}) and {@code pkg/apis/meta/v1/validation/validation.go} ({@code ValidateLabelName},
 * {@code ValidateLabels}, {@code ValidateLabelSelectorRequirement}). Operator value counts are
 * checked where the selector is read.
 */
public final class LabelSyntax {
  private LabelSyntax() {}

  private static final String QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
  private static final Pattern QUALIFIED_NAME = Pattern.compile(QUALIFIED_NAME_FMT);
  private static final String QUALIFIED_NAME_MSG =
      "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
  private static final int QUALIFIED_NAME_MAX = 63;
  private static final String LABEL_VALUE_FMT = "(" + QUALIFIED_NAME_FMT + ")?";
  private static final Pattern LABEL_VALUE = Pattern.compile(LABEL_VALUE_FMT);
  private static final String LABEL_VALUE_MSG = "a valid label must be an empty string or consist of alphanumeric "
      + "characters, '-', '_' or '.', and must start and end with an alphanumeric character";
  private static final String DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
  private static final String DNS1123_SUBDOMAIN_FMT = DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT + ")*";
  private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile(DNS1123_SUBDOMAIN_FMT);
  private static final String DNS1123_SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case "
      + "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
  private static final int DNS1123_SUBDOMAIN_MAX = 253;

  /** {@code IsQualifiedName}: what is wrong with a label key, empty when nothing. */
  public static List<String> qualifiedNameErrors(String value) {
    List<String> errs = new ArrayList<>();
    String[] parts = value.split("/", -1);
    String name;
    switch (parts.length) {
      case 1 -> name = parts[0];
      case 2 -> {
        String prefix = parts[0];
        name = parts[1];
        if (prefix.isEmpty()) {
          errs.add("prefix part must be non-empty");
        } else {
          for (String m : dns1123SubdomainErrors(prefix)) {
            errs.add("prefix part " + m);
          }
        }
      }
      default -> {
        errs.add("a qualified name " + regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc")
            + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
        return errs;
      }
    }
    if (name.isEmpty()) {
      errs.add("name part must be non-empty");
    } else if (name.length() > QUALIFIED_NAME_MAX) {
      errs.add("name part must be no more than " + QUALIFIED_NAME_MAX + " characters");
    }
    if (!QUALIFIED_NAME.matcher(name).matches()) {
      errs.add("name part " + regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc"));
    }
    return errs;
  }

  /** {@code IsValidLabelValue}. */
  public static List<String> labelValueErrors(String value) {
    List<String> errs = new ArrayList<>();
    if (value.length() > QUALIFIED_NAME_MAX) {
      errs.add("must be no more than " + QUALIFIED_NAME_MAX + " characters");
    }
    if (!LABEL_VALUE.matcher(value).matches()) {
      errs.add(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, "MyValue", "my_value", "12345"));
    }
    return errs;
  }

  private static final Pattern DNS1123_LABEL = Pattern.compile(DNS1123_LABEL_FMT);
  private static final String DNS1123_LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric "
      + "characters or '-', and must start and end with an alphanumeric character";

  /** {@code IsDNS1123Label}, which a namespace name must be ({@code ValidateNamespaceName}). */
  public static List<String> dns1123LabelErrors(String value) {
    List<String> errs = new ArrayList<>();
    if (value.length() > QUALIFIED_NAME_MAX) {
      errs.add("must be no more than " + QUALIFIED_NAME_MAX + " characters");
    }
    if (!DNS1123_LABEL.matcher(value).matches()) {
      errs.add(regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, "my-name", "123-abc"));
    }
    return errs;
  }

  /** {@code IsDNS1123Subdomain}, which most object names must be ({@code NameIsDNSSubdomain}). */
  public static List<String> dns1123SubdomainErrors(String value) {
    List<String> errs = new ArrayList<>();
    if (value.length() > DNS1123_SUBDOMAIN_MAX) {
      errs.add("must be no more than " + DNS1123_SUBDOMAIN_MAX + " characters");
    }
    if (!DNS1123_SUBDOMAIN.matcher(value).matches()) {
      errs.add(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, "example.com"));
    }
    return errs;
  }

  /** {@code RegexError}, spacing included ({@code 'MyName',  or 'my.name'}). */
  private static String regexError(String msg, String fmt, String... examples) {
    StringBuilder b = new StringBuilder(msg).append(" (e.g. ");
    for (int i = 0; i < examples.length; i++) {
      if (i > 0) {
        b.append(" or ");
      }
      b.append('\'').append(examples[i]).append("', ");
    }
    return b.append("regex used for validation is '").append(fmt).append("')").toString();
  }

  /** {@code ValidateLabelName}. */
  public static void validateLabelName(String key, String path, List<FieldError> errors) {
    for (String m : qualifiedNameErrors(key)) {
      errors.add(FieldError.invalid(path, key, m));
    }
  }

  /** {@code ValidateLabels}: every key a qualified name, every value a label value. */
  public static void validateLabels(Labels labels, String path, List<FieldError> errors) {
    for (Map.Entry<String, String> e : labels.map().entrySet()) {
      validateLabelName(e.getKey(), path, errors);
      for (String m : labelValueErrors(e.getValue())) {
        errors.add(FieldError.invalid(path, e.getValue(), m));
      }
    }
  }

  /** Which operators a requirement may use: a label selector's four, or a node selector's six. */
  public enum Operators {
    LABEL_SELECTOR,
    NODE_SELECTOR
  }

  /** {@code ValidateLabelSelector}: matchLabels as labels, each expression as a requirement with its values checked. */
  public static void validateSelector(LabelSelector selector, String path, List<FieldError> errors) {
    validateLabels(selector.matchLabels(), path + ".matchLabels", errors);
    for (int i = 0; i < selector.matchExpressions().size(); i++) {
      validateRequirement(selector.matchExpressions().get(i), Operators.LABEL_SELECTOR, true,
          path + ".matchExpressions[" + i + "]", errors);
    }
  }

  /**
   * {@code ValidateLabelSelectorRequirement} and {@code ValidateNodeSelectorRequirement}: the value
   * count the operator needs, the key, and (when {@code checkValues}) each value's syntax. A
   * {@code Gt}/{@code Lt} value that is not an integer is reported in the words of kube-scheduler's
   * parser ({@code labels.NewRequirement}), which cannot match such a term; the API server accepts it.
   */
  public static void validateRequirement(Requirement r, Operators allowed, boolean checkValues, String path,
      List<FieldError> errors) {
    switch (r.operator()) {
      case IN, NOT_IN -> {
        if (r.values().isEmpty()) {
          errors.add(FieldError.required(path + ".values", "must be specified when `operator` is 'In' or 'NotIn'"));
        }
      }
      case EXISTS, DOES_NOT_EXIST -> {
        if (!r.values().isEmpty()) {
          errors.add(FieldError.forbidden(path + ".values",
              "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        }
      }
      case GT, LT -> {
        if (allowed == Operators.LABEL_SELECTOR) {
          errors.add(FieldError.invalid(path + ".operator", r.operator().wireName(), "not a valid selector operator"));
        } else if (r.values().size() != 1) {
          errors.add(FieldError.required(path + ".values",
              "must be specified single value when `operator` is 'Lt' or 'Gt'"));
        } else if (!isInteger(r.values().getFirst())) {
          errors.add(FieldError.invalid(path + ".values[0]", r.values().getFirst(),
              "for 'Gt', 'Lt' operators, the value must be an integer"));
        }
      }
    }
    validateLabelName(r.key(), path + ".key", errors);
    if (checkValues) {
      for (int v = 0; v < r.values().size(); v++) {
        for (String m : labelValueErrors(r.values().get(v))) {
          errors.add(FieldError.invalid(path + ".values[" + v + "]", r.values().get(v), m));
        }
      }
    }
  }

  private static boolean isInteger(String s) {
    try {
      Long.parseLong(s);
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
