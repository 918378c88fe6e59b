#!/bin/bash
# ClickBench queries with the drop-in on and off, alternated run by run in one JVM per (cores, codec)
# (SparkClickBenchSideBySide), then the first query of fresh sessions (run-first-query.sh). Writes
# side-by-side-<cores>-<codec>.jsonl (one JSON object per query) next to this script.
# Build first: ./mvnw -q -o -pl spark-benchmarks -am package -DskipTests
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/../../../.."
JDK=${JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
ROUNDS=${ROUNDS:-4}
CP="${CP_PREFIX:-}spark-benchmarks/target/classes:$(cat spark-benchmarks/target/classpath.txt)"
FLAGS="-Xmx4g $(sed -n 's:.*<spark.java.options>\(.*\)</spark.java.options>.*:\1:p' spark-benchmarks/pom.xml)"
for cores in ${CORES:-1 2}; do
  for codec in ${CODECS:-uncompressed snappy}; do
    "$JDK/bin/java" $FLAGS ${JAVA_OPTS:-} -cp "$CP" dev.stringview.benchmarks.SparkClickBenchSideBySide "$cores" "$codec" \
        "$ROUNDS" ${QUERIES:-q21 q37 q13 q22 q24 q23 fixedScan q34} 2>/dev/null \
        | tee "$HERE/side-by-side-$cores-$codec.jsonl"
  done
done
