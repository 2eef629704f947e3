package io.gpufleet.cli;

import java.lang.annotation.Annotation;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Writes {@code CommandSpecs.java}: every command's picocli model as code, from the model picocli
 * builds by reading the command's annotations. The annotations stay the one description of each
 * command; the written file is what a call runs, since reading annotations costs a cold JVM an
 * annotation proxy class per annotation type and a reflective accessor per field, none of which an
 * AOT cache holds. Options come in the order picocli's own model lists them (usage keeps that order
 * where a command does not sort), each with the annotation's own strings and the field's types, and
 * bound to its field through a small generated class instead of reflection. An annotation attribute
 * this writer does not carry over is an error here, never dropped. {@code CommandSpecsTest} holds
 * the file to this output and each built model to picocli's.
 */
final class CommandSpecsSource {
  private CommandSpecsSource() {}

  /** The file, relative to the cli module. */
  static final Path FILE = Path.of("src/main/java/io/gpufleet/cli/CommandSpecs.java");

  /** What picocli's annotations hold when no default value is given. */
  private static final String NO_DEFAULT = "__no_default_value__";

  private static final Set<String> COMMAND_ATTRIBUTES =
      Set.of("name", "description", "mixinStandardHelpOptions", "sortOptions", "subcommands", "version");
  private static final Set<String> OPTION_ATTRIBUTES = Set.of("names", "description", "paramLabel", "defaultValue",
      "split", "arity", "usageHelp", "versionHelp", "descriptionKey");
  private static final Set<String> PARAMETERS_ATTRIBUTES =
      Set.of("index", "description", "paramLabel", "arity", "defaultValue", "split");

  /** The top command and the subcommands {@link Main} names, picocli's help excepted. */
  static List<Class<?>> topCommands() {
    List<Class<?>> out = new ArrayList<>();
    out.add(Main.class);
    for (String name : Main.subcommandNames()) {
      if (!name.equals("help")) {
        out.add(Main.newCommand(name).getClass());
      }
    }
    return out;
  }

  static String generate() {
    List<Class<?>> commands = new ArrayList<>();
    for (Class<?> c : topCommands()) {
      addWithSubcommands(c, commands);
    }
    Map<Class<?>, List<Field>> bound = new LinkedHashMap<>();
    StringBuilder methods = new StringBuilder();
    for (Class<?> c : commands) {
      methods.append(command(c, bound));
    }
    StringBuilder s = new StringBuilder();
    s.append("""
        package io.gpufleet.cli;

        import java.util.List;
        import picocli.CommandLine.Model.CommandSpec;
        import picocli.CommandLine.Model.IGetter;
        import picocli.CommandLine.Model.ISetter;
        import picocli.CommandLine.Model.OptionSpec;
        import picocli.CommandLine.Model.PositionalParamSpec;

        /**
         * Written by CommandSpecsSource (test sources) from the commands' picocli annotations; do not edit:
         * change the annotations and run {@code ./run-tests -pl cli -am -Dtest=CommandSpecsTest
         * -Dgpufleet.regenerate=true}. Each command's picocli model built by code, so that a call does not
         * read annotations by reflection (an annotation proxy class per annotation type and a reflective
         * accessor per field, made at run time on a cold JVM, which no AOT cache holds). CommandSpecsTest
         * holds every model built here to the one picocli builds from the annotations.
         */
        @SuppressWarnings({"unchecked", "all"})
        final class CommandSpecs {
          private CommandSpecs() {}
        """);
    s.append("""

          /** The model of a command {@link Main} names, built here; null for another (picocli's help). */
          static CommandSpec of(Object command) {
        """);
    for (Class<?> c : topCommands()) {
      if (c != Main.class) {
        s.append("    if (command instanceof ").append(javaName(c)).append(" c) {\n      return ")
            .append(methodName(c)).append("(c);\n    }\n");
      }
    }
    s.append("    return null;\n  }\n");
    s.append(methods);
    for (Map.Entry<Class<?>, List<Field>> e : bound.entrySet()) {
      s.append(binding(e.getKey(), e.getValue()));
    }
    s.append("}\n");
    return s.toString();
  }

  private static void addWithSubcommands(Class<?> c, List<Class<?>> out) {
    out.add(c);
    for (Class<?> sub : c.getAnnotation(Command.class).subcommands()) {
      addWithSubcommands(sub, out);
    }
  }

  /** The method that builds {@code c}'s model for an instance of it. */
  static String methodName(Class<?> c) {
    String n = javaName(c).replace(".", "");
    return Character.toLowerCase(n.charAt(0)) + n.substring(1);
  }

  /** {@code c}'s name as code of this package writes it: NodeCommand.Describe. */
  static String javaName(Class<?> c) {
    return c.getName().substring(c.getPackageName().length() + 1).replace('$', '.');
  }

  private static String command(Class<?> c, Map<Class<?>, List<Field>> bound) {
    Command cmd = c.getAnnotation(Command.class);
    checkAttributes(cmd, COMMAND_ATTRIBUTES);
    CommandSpec reflective = CommandSpec.forAnnotatedObject(newInstance(c));
    Map<Class<?>, String> objects = new LinkedHashMap<>();
    StringBuilder b = new StringBuilder();
    b.append("\n  static CommandSpec ").append(methodName(c)).append("(").append(javaName(c)).append(" c) {\n");
    b.append("    CommandSpec spec = CommandSpec.wrapWithoutInspection(c);\n");
    b.append("    spec.name(").append(str(cmd.name())).append(");\n");
    if (cmd.version().length > 0) {
      b.append("    spec.version(").append(strs(cmd.version())).append(");\n");
    }
    if (cmd.description().length > 0) {
      b.append("    spec.usageMessage().description(").append(strs(cmd.description())).append(");\n");
    }
    if (!cmd.sortOptions()) {
      b.append("    spec.usageMessage().sortOptions(false);\n");
    }
    objects.put(c, "c");
    mixins(c, "c", objects, b);
    for (OptionSpec o : reflective.options()) {
      Field f = (Field) o.userObject();
      Option a = f.getAnnotation(Option.class);
      checkAttributes(a, OPTION_ATTRIBUTES);
      b.append("    spec.addOption(OptionSpec.builder(").append(strs(a.names())).append(")");
      common(b, o, a.description(), a.paramLabel(), a.arity(), a.defaultValue(), a.split());
      if (a.usageHelp()) {
        b.append("\n        .usageHelp(true)");
      }
      if (a.versionHelp()) {
        b.append("\n        .versionHelp(true)");
      }
      b.append("\n        .descriptionKey(").append(str(a.descriptionKey())).append(")");
      binding(b, o, f, objects, bound);
      b.append(".build());\n");
    }
    for (PositionalParamSpec p : reflective.positionalParameters()) {
      Field f = (Field) p.userObject();
      Parameters a = f.getAnnotation(Parameters.class);
      checkAttributes(a, PARAMETERS_ATTRIBUTES);
      b.append("    spec.addPositional(PositionalParamSpec.builder()");
      if (!a.index().isEmpty()) {
        b.append("\n        .index(").append(str(a.index())).append(")");
      }
      common(b, p, a.description(), a.paramLabel(), a.arity(), a.defaultValue(), a.split());
      b.append("\n        .descriptionKey(").append(str(a.descriptionKey())).append(")");
      binding(b, p, f, objects, bound);
      b.append(".build());\n");
    }
    for (Map.Entry<Class<?>, String> e : objects.entrySet()) {
      for (Field f : e.getKey().getDeclaredFields()) {
        Spec spec = f.getAnnotation(Spec.class);
        if (spec == null) {
          continue;
        }
        boolean self = e.getKey() == c;
        if (self != (spec.value() == Spec.Target.SELF)) {
          throw new IllegalStateException(f + ": only @Spec on a command and @Spec(MIXEE) on a mixin are written");
        }
        b.append("    ").append(e.getValue()).append(".").append(f.getName()).append(" = spec;\n");
      }
    }
    for (Class<?> sub : cmd.subcommands()) {
      b.append("    spec.addSubcommand(").append(str(sub.getAnnotation(Command.class).name())).append(", ")
          .append(methodName(sub)).append("(new ").append(javaName(sub)).append("()));\n");
    }
    b.append("    return spec;\n  }\n");
    return b.toString();
  }

  /** Creates the command's mixins where picocli would (a field still null), and names each object. */
  private static void mixins(Class<?> c, String expr, Map<Class<?>, String> objects, StringBuilder b) {
    for (Field f : c.getDeclaredFields()) {
      if (f.getAnnotation(Mixin.class) == null) {
        continue;
      }
      if (!f.getAnnotation(Mixin.class).name().isEmpty()) {
        throw new IllegalStateException(f + ": a named mixin is not written");
      }
      String e = expr + "." + f.getName();
      if (objects.put(f.getType(), e) != null) {
        throw new IllegalStateException(f + ": a mixin class used twice in one command is not written");
      }
      b.append("    if (").append(e).append(" == null) {\n      ").append(e).append(" = new ")
          .append(javaName(f.getType())).append("();\n    }\n");
      mixins(f.getType(), e, objects, b);
    }
  }

  private static void common(StringBuilder b, ArgSpec spec, String[] description, String paramLabel, String arity,
      String defaultValue, String split) {
    if (description.length > 0) {
      b.append("\n        .description(").append(strs(description)).append(")");
    }
    // Unwritten, picocli's label is the field's name in angle brackets; the builder's would be PARAM.
    b.append("\n        .paramLabel(").append(str(paramLabel.isEmpty() ? spec.paramLabel() : paramLabel)).append(")");
    if (!arity.isEmpty()) {
      b.append("\n        .arity(").append(str(arity)).append(")");
    }
    if (!defaultValue.equals(NO_DEFAULT)) {
      b.append("\n        .defaultValue(").append(str(defaultValue)).append(")");
    }
    if (!split.isEmpty()) {
      b.append("\n        .splitRegex(").append(str(split)).append(")");
    }
    b.append("\n        .type(").append(classLiteral(spec.type())).append(")");
    if (spec.auxiliaryTypes().length > 0) {
      b.append(".auxiliaryTypes(");
      for (int i = 0; i < spec.auxiliaryTypes().length; i++) {
        b.append(i > 0 ? ", " : "").append(classLiteral(spec.auxiliaryTypes()[i]));
      }
      b.append(")");
    }
  }

  /** The option's getter and setter: its field through the owner's generated class, or none for picocli's own. */
  private static void binding(StringBuilder b, ArgSpec spec, Field f, Map<Class<?>, String> objects,
      Map<Class<?>, List<Field>> bound) {
    String owner = objects.get(f.getDeclaringClass());
    if (owner == null) {
      if (!f.getDeclaringClass().getName().equals("picocli.CommandLine$AutoHelpMixin")) {
        throw new IllegalStateException(f + ": its object is neither the command nor one of its mixins");
      }
      // picocli's standard help options: a parse reads them from the parse result, not their fields.
      Object initial = spec.initialValue();
      b.append("\n        .hasInitialValue(").append(spec.hasInitialValue()).append(")");
      if (initial != null) {
        b.append(".initialValue(").append(initial).append(")");
      }
      return;
    }
    List<Field> fields = bound.computeIfAbsent(f.getDeclaringClass(), k -> new ArrayList<>());
    if (!fields.contains(f)) {
      fields.add(f);
    }
    String handle = "new " + bindingName(f.getDeclaringClass()) + "(" + owner + ", " + fields.indexOf(f) + ")";
    b.append("\n        .hasInitialValue(").append(spec.hasInitialValue()).append(").initialValue(")
        .append(owner).append(".").append(f.getName()).append(")")
        .append("\n        .getter(").append(handle).append(").setter(").append(handle).append(")");
  }

  private static String bindingName(Class<?> c) {
    return javaName(c).replace(".", "") + "Fields";
  }

  /** A class giving access to {@code c}'s option fields by number, without reflection. */
  private static String binding(Class<?> c, List<Field> fields) {
    String name = bindingName(c);
    StringBuilder b = new StringBuilder();
    b.append("\n  /** The option fields of ").append(javaName(c)).append(", by number. */\n");
    b.append("  private static final class ").append(name).append(" implements IGetter, ISetter {\n");
    b.append("    private final ").append(javaName(c)).append(" o;\n    private final int field;\n\n");
    b.append("    ").append(name).append("(").append(javaName(c)).append(" o, int field) {\n");
    b.append("      this.o = o;\n      this.field = field;\n    }\n\n");
    b.append("    @Override\n    public <T> T get() {\n      return (T) switch (field) {\n");
    for (int i = 0; i < fields.size(); i++) {
      b.append("        case ").append(i).append(" -> (Object) o.").append(fields.get(i).getName()).append(";\n");
    }
    b.append("        default -> throw new IllegalStateException(\"no field \" + field);\n      };\n    }\n\n");
    b.append("    @Override\n    public <T> T set(T value) {\n      T old = get();\n      switch (field) {\n");
    for (int i = 0; i < fields.size(); i++) {
      Field f = fields.get(i);
      b.append("        case ").append(i).append(" -> o.").append(f.getName()).append(" = (")
          .append(castType(f)).append(") value;\n");
    }
    b.append("        default -> throw new IllegalStateException(\"no field \" + field);\n      }\n");
    b.append("      return old;\n    }\n  }\n");
    return b.toString();
  }

  private static String castType(Field f) {
    Class<?> t = f.getType();
    if (t.isPrimitive()) {
      return switch (t.getName()) {
        case "boolean" -> "Boolean";
        case "int" -> "Integer";
        case "long" -> "Long";
        case "double" -> "Double";
        default -> throw new IllegalStateException(f + ": a field of type " + t + " is not written");
      };
    }
    if (t == List.class) {
      return "List<" + ((Class<?>) ((ParameterizedType) f.getGenericType())
          .getActualTypeArguments()[0]).getName().replace('$', '.') + ">";
    }
    return sourceName(t);
  }

  private static String classLiteral(Class<?> t) {
    return sourceName(t) + ".class";
  }

  /** {@code t} as the written file names it: primitives, java.lang and the imported List by simple name. */
  private static String sourceName(Class<?> t) {
    boolean simple = t.isPrimitive() || t == List.class
        || (t.getName().startsWith("java.lang.") && t.getName().indexOf('.', 10) < 0);
    return simple ? t.getSimpleName() : t.getName().replace('$', '.');
  }

  /** Fails on an annotation attribute that differs from its default and is not in {@code carried}. */
  private static void checkAttributes(Annotation a, Set<String> carried) {
    for (Method m : a.annotationType().getDeclaredMethods()) {
      Object value;
      try {
        value = m.invoke(a);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
      Object def = m.getDefaultValue();
      boolean same = def != null && Arrays.deepEquals(new Object[] {value}, new Object[] {def});
      if (!same && !carried.contains(m.getName())) {
        throw new IllegalStateException(a.annotationType().getSimpleName() + "." + m.getName()
            + " is set but CommandSpecsSource does not carry it over: add it there");
      }
    }
  }

  private static Object newInstance(Class<?> c) {
    try {
      Constructor<?> k = c.getDeclaredConstructor();
      k.setAccessible(true);
      return k.newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String strs(String[] values) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < values.length; i++) {
      b.append(i > 0 ? ", " : "").append(str(values[i]));
    }
    return b.toString();
  }

  /** A Java string literal of {@code s}. */
  static String str(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char ch : s.toCharArray()) {
      switch (ch) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\t' -> b.append("\\t");
        case '\r' -> b.append("\\r");
        default -> {
          if (ch < 0x20 || ch > 0x7e) {
            b.append(String.format("\\u%04x", (int) ch));
          } else {
            b.append(ch);
          }
        }
      }
    }
    return b.append('"').toString();
  }
}
