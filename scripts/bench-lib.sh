# Sourced by the benchmark scripts that build a second commit or pack a runtime (scripts/event-cost-ab,
# scripts/devbench-ab, scripts/devbench-pack), after scripts/jdk.sh has found a JDK.

# gpufleet_bench_build TREE LOG NAME: packages TREE's bench module and what it needs, or shows Maven's
# output and exits 3 with NAME's message.
gpufleet_bench_build() {
  if ! ( cd "$1" && mvn -q -B -ntp -Dstyle.color=never -DskipTests -pl bench -am package ) >"$2" 2>&1; then
    sed 's/\x1b\[[0-9;]*m//g' "$2" >&2
    echo "$3: the build of $1 failed; see the Maven output above." >&2
    exit 3
  fi
}

# gpufleet_jlink OUT MODULES COMPRESS: a runtime of MODULES at OUT (jlink's --compress=COMPRESS), the JVM's
# symbols stripped and java.desktop's native graphics libraries left out (only java.beans is used, headless),
# so that it travels to a machine with no JDK in what a device run carries.
gpufleet_jlink() {
  "$JAVA_HOME/bin/jlink" --add-modules "$2" --strip-debug --no-man-pages --no-header-files --compress="$3" \
    --output "$1"
  strip --strip-unneeded "$1/lib/server/libjvm.so" 2>/dev/null || true
  rm -f "$1"/lib/lib{awt,awt_headless,awt_xawt,fontmanager,freetype,javajpeg,jsound,lcms,mlib_image,splashscreen}.so
}
