#!/bin/bash
# The first query of a fresh session, drop-in on against off: each run is a new JVM with a new local[CORES]
# session (SparkFirstQuery), the two sides alternated, ROUNDS rounds per query. Needs the tables the JMH run
# writes (benchmarks/target/bench-data/clickbench-*). Usage: run-first-query.sh [ROUNDS] [CORES] [CODEC] [QUERIES...]
set -euo pipefail
cd "$(dirname "$0")/../../../.."
JDK=${JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
ROUNDS=${1:-3}; CORES=${2:-2}; CODEC=${3:-uncompressed}; shift 3 || true
QUERIES=${*:-q21}
CP="${CP_PREFIX:-}spark-benchmarks/target/classes:$(cat spark-benchmarks/target/classpath.txt)"
FLAGS="-Xmx4g $(sed -n 's:.*<spark.java.options>\(.*\)</spark.java.options>.*:\1:p' spark-benchmarks/pom.xml)"
for q in $QUERIES; do
  for r in $(seq 1 "$ROUNDS"); do
    for side in on off; do
      # off first in even rounds, so neither side always runs second
      s=$side; if (( r % 2 == 0 )); then s=$([ "$side" = on ] && echo off || echo on); fi
      "$JDK/bin/java" $FLAGS -cp "$CP" dev.stringview.benchmarks.SparkFirstQuery "$s" "$CODEC" "$q" "$CORES" \
          2>/dev/null | grep '^side='
    done
  done
done
