#!/usr/bin/env bash
# The interleaved runs of issue 35 (FloorSideBySide), as run on the loaded 2-core machine, from the repository root
# after ./mvnw -q -o -pl benchmarks -am package -DskipTests. Output: JSON lines in this folder.
set -euo pipefail
d=docs/benchmarks/runs/2026-11-29-floor
J=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
O="-Xmx6g --enable-native-access=ALL-UNNAMED --add-modules=jdk.incubator.vector -cp benchmarks/target/benchmarks.jar"
M=dev.stringview.benchmarks.FloorSideBySide
# The cells beside their floor and DuckDB (side-by-side-1.jsonl; at 05bf7e7+2b3276d).
$J $O $M --layouts snappy,dictZstd,dictUrlsZstd,lz4,dictZstdPa --queries q20Contains,equality,prefix \
  --ops floor,floorJava,scan1,scanAll,duckdb1,duckdbAll,noPageTest1 --warmup 2 --rounds 7 --out $d/side-by-side-1.jsonl
# Decision record 021: PLAIN-page equality and prefix against views (process CPU: ab-pagetest-processcpu.jsonl;
# thread CPU: ab-pagetest-threadcpu.jsonl).
$J $O $M --layouts snappy,dictZstd,lz4 --queries equality,prefix --ops floor,scan1,noPageTest1 --warmup 3 --rounds 11 \
  --out $d/ab-pagetest-threadcpu.jsonl
# Decision record 024: dictionary chunks one unit per thread against the finer cut.
$J $O $M --layouts dictUrlsZstd,dictZstd,snappy --queries q20Contains,equality --ops scan1,scanAll,fineDictionaryAll \
  --warmup 3 --rounds 15 --out $d/ab-parallel.jsonl
# Decision record 025 (measured at a73f726, which had the switch): three JVMs each way, alternating.
for fork in 1 2 3; do
  for fused in true false; do
    $J $O -Dstringview.fusedIds=$fused $M --layouts dictUrlsZstd --queries q20Contains,equality,prefix \
      --ops floor,scan1 --warmup 3 --rounds 11 --out $d/ab-fusedids-$fused.jsonl
  done
done
