# Sourced by ./gpufleet and ./run-tests: sets JAVA_HOME to a JDK 25 or newer, or explains what is missing.
# Order: $JAVA_HOME if it is 25+, then the usual install places, newest first.
# ./gpufleet sources this on every call, so the usual path (a JAVA_HOME with a release file) runs
# in the shell itself: no command substitution, no other process.

gpufleet_jdk_major() { # sets gpufleet_major to the feature version of the JDK at $1, or to nothing
  local release="$1/release" line
  gpufleet_major=""
  [ -x "$1/bin/java" ] || return 0
  if [ -r "$release" ]; then
    while IFS= read -r line || [ -n "$line" ]; do
      case "$line" in
        JAVA_VERSION=\"[0-9]*) gpufleet_major="${line#JAVA_VERSION=\"}"; gpufleet_major="${gpufleet_major%%[!0-9]*}"; break ;;
      esac
    done <"$release"
  else
    gpufleet_major=$("$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1)
  fi
}

gpufleet_find_jdk() {
  local need=25 best="" best_major=0 d
  if [ -n "${JAVA_HOME:-}" ]; then
    gpufleet_jdk_major "$JAVA_HOME"
    if [ -n "$gpufleet_major" ] && [ "$gpufleet_major" -ge "$need" ]; then return 0; fi
  fi
  for d in /usr/lib/jvm/* /usr/java/* /opt/java/* /opt/jdk* "$HOME"/.sdkman/candidates/java/* \
           /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    [ -d "$d" ] || continue
    gpufleet_jdk_major "$d"
    if [ -n "$gpufleet_major" ] && [ "$gpufleet_major" -ge "$need" ] && [ "$gpufleet_major" -gt "$best_major" ]; then
      best="$d"; best_major="$gpufleet_major"
    fi
  done
  if [ -z "$best" ]; then
    {
      echo "gpufleet: no JDK $need or newer found."
      if [ -n "${JAVA_HOME:-}" ]; then
        gpufleet_jdk_major "$JAVA_HOME"
        echo "  JAVA_HOME=$JAVA_HOME is JDK $gpufleet_major, too old."
      fi
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
