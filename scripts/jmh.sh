#!/usr/bin/env bash
# JMH microbenchmarks of CC paths (benchmarks/src/main/java/org/tebaldi/bench/jmh; docs/jmh.md):
#   scripts/jmh.sh                                   # everything: CcPathBenchmark and CcPhaseBenchmark over 20
#                                                    # paths (2pl/rp/ssi/tso at depth 1-4, none-1, 2pl/rp, ssi/rp,
#                                                    # rp/rp), ProcInterpreterBenchmark, MessageBenchmark; ~19 min
#                                                    # on 2 cores (also: scripts/tebaldi jmh ...)
#   scripts/jmh.sh CcPathBenchmark                   # whole transactions of 1 and 7 updates (40 benchmarks, ~3 min)
#   scripts/jmh.sh CcPhaseBenchmark -p path=2pl-1,2pl-4   # any JMH options: regex, -p, -wi, -i, -f, -rf json ...
#   scripts/jmh.sh -h                                # JMH's help; results and their reading: docs/jmh.md
# Builds benchmarks/target/jmh.jar (mvn -P jmh: JMH's annotation processor runs only in that profile) when it is
# missing or older than any pom.xml or main source file, then runs it. JVM options for the benchmark JVMs (JMH
# forks one per benchmark): -jvmArgsAppend '-Xmx2g ...'.
set -euo pipefail

dir_of() { case "$1" in */*) echo "${1%/*}" ;; *) echo . ;; esac; }
src="${BASH_SOURCE[0]}"
while [ -L "$src" ]; do
  link="$(readlink "$src")"
  [[ "$link" == /* ]] && src="$link" || src="$(dir_of "$src")/$link"
done
ROOT="$(cd -P "$(dir_of "$src")/.." && pwd)"
JAR="$ROOT/benchmarks/target/jmh.jar"

die() { echo "jmh: $*" >&2; exit 3; }

command -v java >/dev/null 2>&1 || die "java not found: install a Java 17 (or newer) JDK and put java on the PATH"

needs_build() {
  [ -f "$JAR" ] || return 0
  [ -n "$(find "$ROOT" \( -name .git -o -name target -o -name results \) -prune -o \
      \( -name pom.xml -o -path '*/src/main/*' \) -type f -newer "$JAR" -print -quit)" ]
}

if needs_build; then
  command -v mvn >/dev/null 2>&1 || die "mvn not found: install Apache Maven 3.8+ to build $JAR"
  echo "jmh: building $JAR (mvn -B -q -pl benchmarks -am -P jmh -DskipTests package) ..." >&2
  (cd "$ROOT" && mvn -B -q -pl benchmarks -am -P jmh -DskipTests package) >&2 || die "build failed (see above)"
  [ -f "$JAR" ] || die "build finished but $JAR is missing"
fi

exec java -jar "$JAR" "$@"
