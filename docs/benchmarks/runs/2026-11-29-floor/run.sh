#!/usr/bin/env bash
# Issue 35: Suite 3's compressed cells beside their decompression floor and DuckDB, in one JMH invocation
# (HitsFloorBenchmark.decompressOnly is the floor; HitsQueryBenchmark's scan and DuckDB methods are the cells).
# Then DuckDB's Python package on the same files (benchmarks/duckdb-hits.py), right after, in the same window.
# Usage: docs/benchmarks/runs/2026-11-29-floor/run.sh <out-dir> [forks] [layouts]
set -euo pipefail
out=${1:?out dir}
forks=${2:-1}
layouts=${3:-plain,snappy,dictZstd,dictUrlsZstd,lz4,snappyPa,dictZstdPa}
java=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
jar=benchmarks/target/benchmarks.jar
mkdir -p "$out"
uptime > "$out/uptime-before.txt"
git rev-parse HEAD > "$out/commit.txt"
"$java" ${JMH_JAVA_OPTS:-} -jar "$jar" \
  'HitsFloorBenchmark\.(decompressOnly|decompressJava)$|HitsQueryBenchmark\.(scanOneThread|scanAllCores|duckdb|duckdbDefaultThreads)$' \
  -p layout="$layouts" -f "$forks" ${JMH_ITERATIONS:--wi 2 -w 1s -i 3 -r 1s} -rf json -rff "$out/jmh.json" | tee "$out/jmh.txt"
uptime > "$out/uptime-after-jmh.txt"
IFS=$'\t' read -r equal prefix < <("$java" -cp "$jar" dev.stringview.benchmarks.HitsGenerator)
files=()
for l in ${layouts//,/ }; do files+=("benchmarks/target/bench-data/hits-v1-$l-2000000.parquet"); done
python3 benchmarks/duckdb-hits.py --equal "$equal" --prefix "$prefix" --repeat "${DUCKDB_REPEAT:-11}" "${files[@]}" \
  | tee "$out/duckdb-python.jsonl"
uptime > "$out/uptime-after.txt"
python3 benchmarks/floor-report.py "$out/jmh.json" "$out/duckdb-python.jsonl" | tee "$out/table.md"
