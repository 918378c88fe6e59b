#!/bin/bash
# Suite 1 before (e7f7726) / after (one path per kernel), one fork per cell, interleaved per benchmark class.
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
cd /work/suite1
O="-f 1 -wi 2 -w 1s -i 3 -r 1s"
run() { # name jar regex extra...
  local name=$1 jar=$2 re=$3; shift 3
  $J -jar $jar "$re" $O "$@" -rf json -rff $name.json > $name.log 2>&1
  echo "$(date +%T) $name load=$(cut -d' ' -f1-3 /proc/loadavg)" >> progress.txt
}
for cls in ContiguousHeapBenchmark ScatteredHeapBenchmark; do
  run $cls-before /tmp/head-benchmarks.jar "$cls.views\$"
  run $cls-after /tmp/after-benchmarks.jar "$cls.views\$"
  run $cls-pointer /tmp/after-benchmarks.jar "$cls.pointerLength\$"
done
run Prefix-before /tmp/head-benchmarks.jar 'PrefixCollisionBatchBenchmark.views$' -p kernel=lessThan,startsWith
run Prefix-after /tmp/after-benchmarks.jar 'PrefixCollisionBatchBenchmark.views$' -p kernel=lessThan,startsWith
run Prefix-pointer /tmp/after-benchmarks.jar 'PrefixCollisionBatchBenchmark.pointerLength$' -p kernel=lessThan,startsWith
run Argsort-before /tmp/head-benchmarks.jar 'ArgsortBenchmark.views$'
run Argsort-after /tmp/after-benchmarks.jar 'ArgsortBenchmark.views$'
run Argsort-string /tmp/after-benchmarks.jar 'ArgsortBenchmark.javaString$'
echo finished >> progress.txt
