#!/bin/bash
# The runs of decision records 030-033. Jars: /tmp/s38core-before.jar = main 1aa887c (benchmarks.jar built
# from the kernels of 2a6a037, comment-only changes since), /tmp/s38core-simple.jar = 34e5683 (the rewrite, held back
# by 003), /tmp/s38core-final.jar = this branch (f1de499), /tmp/s38core-nocount.jar / -count.jar = 34e5683's jar with
# core classes of this branch without / with the counted loop of 031 (javac, jar uf). /tmp/s38runs/java runs
# Temurin 25 with -Djmh.ignoreLock=true (other sessions ran JMH at the same time).

# ---- ab.sh
# Variant A/B runs (decision records 031, 033): interleaved forks, 3 rounds, benchmarks/compare-jars.sh.
cd /work/wt-core
export JAVA=/tmp/s38runs/java
log() { echo "$(date -u +%T) $1 load=$(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/s38runs/progress.txt; }
log start-counted
benchmarks/compare-jars.sh -r 3 -o /tmp/s38runs/counted /tmp/s38core-nocount.jar /tmp/s38core-count.jar \
  'PrefixCollisionBatchBenchmark.views$' -p kernel=lessThan,startsWith -p lengths=25,mix -wi 4 -w 1s -i 3 -r 1s > /tmp/s38runs/counted.txt 2>&1
log start-argsort
benchmarks/compare-jars.sh -r 3 -o /tmp/s38runs/argsort /tmp/s38core-simple.jar /tmp/s38core-count.jar \
  'ArgsortBenchmark.views$' -p data=url -wi 3 -i 3 > /tmp/s38runs/argsort.txt 2>&1
log done

# ---- bv.sh
# ByteViewBenchmark rows of issue 36 at length 36: the held-back rewrite's jar (34e5683) against this branch's jar,
# 3 rounds of interleaved forks (ByteRanges.equal's word loop is the only change on these paths; decision 032).
cd /work/wt-core
export JAVA=/tmp/s38runs/java
echo "$(date -u +%T) start bv load=$(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/s38runs/progress.txt
benchmarks/compare-jars.sh -r 3 -o /tmp/s38runs/bv /tmp/s38core-simple.jar /tmp/s38core-final.jar \
  'ByteViewBenchmark.(read|lookup)' -p length=36 -wi 2 -w 1s -i 3 -r 1s > /tmp/s38runs/bv.txt 2>&1
echo "$(date -u +%T) bv-done load=$(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/s38runs/progress.txt

# ---- table.sh
# Suite 1 and argsort before (main 1aa887c's jar) / after (this branch's jar), one round of interleaved forks per
# class (compare-jars.sh -r 1), then the baselines (pointer+length, String[], streaming floor) on the after jar.
cd /work/wt-core
export JAVA=/tmp/s38runs/java
B=/tmp/s38core-before.jar; A=/tmp/s38core-final.jar; O="-wi 2 -w 1s -i 2 -r 1s"
log() { echo "$(date -u +%T) $1 load=$(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/s38runs/progress.txt; }
cmp() { log "start $1"; benchmarks/compare-jars.sh -r 1 -o /tmp/s38runs/table-$1 $B $A "${@:2}" > /tmp/s38runs/table-$1.txt 2>&1; }
base() { log "start base-$1"; $JAVA -jar $A "${@:2}" -f 1 -rf json -rff /tmp/s38runs/base-$1.json > /tmp/s38runs/base-$1.log 2>&1; }
cmp prefix 'PrefixCollisionBatchBenchmark.views$' -p kernel=lessThan,startsWith $O
cmp argsort 'ArgsortBenchmark.views$' -wi 2 -i 2
cmp contiguous 'ContiguousHeapBenchmark.views$' $O
cmp scattered 'ScatteredHeapBenchmark.views$' $O
base prefix 'PrefixCollisionBatchBenchmark.pointerLength$' -p kernel=lessThan,startsWith $O
base argsort 'ArgsortBenchmark.javaString$' -wi 2 -i 2
base contiguous 'ContiguousHeapBenchmark.pointerLength$' $O
base scattered 'ScatteredHeapBenchmark.pointerLength$' $O

log table-done

# ---- base2.sh
# Baselines on the after jar, in parallel with table.sh: pointer+length of the prefix-collision batch, String[] argsort.
J=/tmp/s38runs/java; A=/tmp/s38core-final.jar
log() { echo "$(date -u +%T) $1 load=$(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/s38runs/progress.txt; }
log start-base2-prefix
$J -jar $A 'PrefixCollisionBatchBenchmark.pointerLength$' -p kernel=lessThan,startsWith -wi 2 -w 1s -i 2 -r 1s -f 1 -rf json -rff /tmp/s38runs/base2-prefix.json > /tmp/s38runs/base2-prefix.log 2>&1
log start-base2-argsort
$J -jar $A 'ArgsortBenchmark.javaString$' -wi 2 -i 2 -f 1 -rf json -rff /tmp/s38runs/base2-argsort.json > /tmp/s38runs/base2-argsort.log 2>&1
log base2-done

# ---- cpu-ab.sh
# Thread-CPU-time A/B of the counted loop (decision record 031): CpuDriver (thread CPU ns per row of
# PrefixCollisionBatchBenchmark.views, 4 s warm-up, best of five 200 ms CPU slices) in fresh JVMs, the jar without
# the variant and the jar with it in ABBA order, 3 JVMs each.
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
FL="-Xmx3g --add-modules=jdk.incubator.vector --enable-native-access=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED -Darrow.enable_unsafe_memory_access=true"
run() { $J $FL -cp /tmp/s38drv/classes:/tmp/s38core-$1.jar dev.stringview.benchmarks.CpuDriver lessThan,startsWith 25,mix 4 2>&1 | grep ns/row > /tmp/s38runs/cpu/$1-$2.txt; echo "$(date -u +%T) $1-$2 load=$(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/s38runs/cpu/progress.txt; }
run nocount 1; run count 1; run count 2; run nocount 2; run nocount 3; run count 3

# ---- cpu2.sh
# Thread-CPU-time runs (CpuDriver2) of argsort, ByteViewBenchmark's issue-36 rows and the prefix-collision
# pointer+length baseline, one JVM per line, run in parallel.
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
FL="-Xmx3g --add-modules=jdk.incubator.vector --enable-native-access=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED -Darrow.enable_unsafe_memory_access=true"
run() { local out=$1 jar=$2; shift 2; $J $FL -cp /tmp/s38drv/classes:/tmp/s38core-$jar.jar dev.stringview.benchmarks.CpuDriver2 "$@" > /tmp/s38runs/cpu2/$out.txt 2>&1; echo "$(date -u +%T) $out load=$(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/s38runs/cpu2/progress.txt; }
run argsort-final final argsort url,8,25 string &
run argsort-before before argsort url,8,25 &
run argsort-simple simple argsort url &
run bv-final final bv &
run bv-simple simple bv &
run pointer-final final pointer lessThan,startsWith 8,25,mix &
wait

# ---- cpu3.sh
# Thread-CPU-time runs (CpuDriver2 heap) of the Suite 1 cells decision 003 flagged: contiguous 10M equal 25/mix,
# scattered 256 MiB equal 25 and startsWith 8, before (main), the held-back rewrite and this branch, plus
# pointer+length on this branch's jar.
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
FL="-Xmx3g --add-modules=jdk.incubator.vector --enable-native-access=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED -Darrow.enable_unsafe_memory_access=true"
run() { local out=$1 jar=$2; shift 2; $J $FL -cp /tmp/s38drv/classes:/tmp/s38core-$jar.jar dev.stringview.benchmarks.CpuDriver2 "$@" > /tmp/s38runs/cpu2/$out.txt 2>&1; echo "$(date -u +%T) $out load=$(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/s38runs/cpu2/progress.txt; }
for jar in before simple final; do
  run contiguous-$jar $jar heap contiguous equal 25,mix views &
  run scattered-$jar $jar heap scattered equal,startsWith 25,8 views &
done
run contiguous-pointer final heap contiguous equal 25,mix pointerLength &
wait
