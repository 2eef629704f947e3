import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.ClassElement;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassFileVersion;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeTransform;
import java.lang.classfile.MethodModel;
import java.lang.classfile.MethodTransform;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * A build step of the cli module: copies the classes of a library jar under one package into the
 * module's class folder, re-emitting each class file older than Java 6 (version 50) as Java 8
 * (version 52) with the stack maps that version requires.
 *
 * <p>Why: a Java 25 AOT cache (JEP 483) holds only classes the split verifier checked; a class of
 * version 49 or older is verified by the old inference verifier at run time and left out of the
 * cache ("Skipping ...: Old class has been linked" in {@code -Xlog:aot}). picocli 4.7's classes are
 * version 49, so every call of {@code gpufleet} loaded and verified about 170 of them from the jar.
 * The instructions are copied one for one; only the version and the StackMapTable attributes (computed
 * by the JDK's {@code java.lang.classfile} API, over the jar's own classes and the JDK's) change. Same
 * input, same bytes.
 *
 * <p>Run as a source file: {@code java UpgradeClassFiles.java JAR PACKAGE OUTPUT_DIR}, e.g.
 * {@code picocli-4.7.7.jar picocli target/classes}. Entries outside {@code PACKAGE/} (the jar's
 * manifest, its Java 9 module descriptor) are not copied. Prints how many classes it copied and
 * upgraded.
 */
public final class UpgradeClassFiles {
  private UpgradeClassFiles() {}

  /** The first version whose classes the split verifier checks (JVMS 4.10.1). */
  private static final int FIRST_WITH_STACK_MAPS = ClassFile.JAVA_6_VERSION;

  public static void main(String[] args) throws IOException {
    if (args.length != 3) {
      System.err.println("usage: java UpgradeClassFiles.java JAR PACKAGE OUTPUT_DIR");
      System.exit(2);
    }
    Path jar = Path.of(args[0]);
    String prefix = args[1].replace('.', '/') + "/";
    Path out = Path.of(args[2]);
    int copied = 0;
    int upgraded = 0;
    try (URLClassLoader classes = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null);
        InputStream in = Files.newInputStream(jar);
        ZipInputStream zip = new ZipInputStream(in)) {
      // Stack maps name the common supertype of two branches' values; the jar's classes and the
      // JDK's answer every such question for a self-contained library.
      ClassFile cf = ClassFile.of(
          ClassFile.ClassHierarchyResolverOption.of(ClassHierarchyResolver.defaultResolver()
              .orElse(ClassHierarchyResolver.ofResourceParsing(classes)).cached()),
          ClassFile.StackMapsOption.GENERATE_STACK_MAPS);
      for (ZipEntry e = zip.getNextEntry(); e != null; e = zip.getNextEntry()) {
        String name = e.getName();
        if (e.isDirectory() || !name.startsWith(prefix) || !name.endsWith(".class")) {
          continue;
        }
        byte[] bytes = zip.readAllBytes();
        ClassModel model = cf.parse(bytes);
        if (model.majorVersion() < FIRST_WITH_STACK_MAPS) {
          bytes = upgrade(cf, model);
          upgraded++;
        }
        Path target = out.resolve(name);
        Files.createDirectories(target.getParent());
        Files.write(target, bytes);
        copied++;
      }
    }
    System.out.println("UpgradeClassFiles: copied " + copied + " classes of " + jar.getFileName() + ", "
        + upgraded + " upgraded to class-file version " + ClassFile.JAVA_8_VERSION);
  }

  /** The class as version 52, every method body rebuilt so that its stack maps are generated. */
  static byte[] upgrade(ClassFile cf, ClassModel model) {
    return cf.build(model.thisClass().asSymbol(), cb -> {
      cb.withVersion(ClassFile.JAVA_8_VERSION, 0);
      for (ClassElement element : model) {
        switch (element) {
          case ClassFileVersion v -> { } // replaced above
          case MethodModel m -> cb.transformMethod(m, MethodTransform.transformingCode(CodeTransform.ACCEPT_ALL));
          default -> cb.with(element);
        }
      }
    });
  }
}
