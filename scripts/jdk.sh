# Sourced by ./gpufleet and ./run-tests: sets JAVA_HOME to a JDK 25 or newer, or explains what is missing.
# Order: $JAVA_HOME if it is 25+, then the usual install places, newest first.

gpufleet_jdk_major() { # prints the feature version of the JDK at $1, or nothing
  local release="$1/release" v
  [ -x "$1/bin/java" ] || return 0
  if [ -r "$release" ]; then
    v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$release")
  else
    v=$("$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1)
  fi
  printf '%s' "$v"
}

gpufleet_find_jdk() {
  local need=25 best="" best_major=0 d m
  if [ -n "${JAVA_HOME:-}" ]; then
    m=$(gpufleet_jdk_major "$JAVA_HOME")
    if [ -n "$m" ] && [ "$m" -ge "$need" ]; then return 0; fi
  fi
  for d in /usr/lib/jvm/* /usr/java/* /opt/java/* /opt/jdk* "$HOME"/.sdkman/candidates/java/* \
           /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    [ -d "$d" ] || continue
    m=$(gpufleet_jdk_major "$d")
    if [ -n "$m" ] && [ "$m" -ge "$need" ] && [ "$m" -gt "$best_major" ]; then best="$d"; best_major="$m"; fi
  done
  if [ -z "$best" ]; then
    {
      echo "gpufleet: no JDK $need or newer found."
      [ -n "${JAVA_HOME:-}" ] && echo "  JAVA_HOME=$JAVA_HOME is JDK $(gpufleet_jdk_major "$JAVA_HOME"), too old."
      echo "  Looked in: \$JAVA_HOME, /usr/lib/jvm, /usr/java, /opt/java, ~/.sdkman, /Library/Java."
      echo "  Install a JDK $need (for example Temurin 25) or point JAVA_HOME at one."
    } >&2
    return 1
  fi
  export JAVA_HOME="$best"
}

gpufleet_require_maven() {
  if ! command -v mvn >/dev/null 2>&1; then
    echo "gpufleet: Maven (mvn) is not on PATH; it builds the project. Install Maven 3.8 or newer (Debian: apt-get install maven)." >&2
    return 1
  fi
}
