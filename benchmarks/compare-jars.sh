#!/usr/bin/env bash
# Old against new: the same JMH benchmarks from two benchmarks jars, one fork at a time, the two jars' forks
# interleaved (ABBA order: old, new, new, old, ...) so that a machine whose speed drifts by the minute moves both
# alike. Prints, per benchmark and parameter set, each jar's scores, their medians and new ÷ old.
#
#   benchmarks/compare-jars.sh [-r ROUNDS] [-o OUT_DIR] OLD_JAR NEW_JAR [JMH arguments...]
#
# OLD_JAR is the benchmarks.jar of the other build, e.g.
#   git worktree add /tmp/old <commit> && (cd /tmp/old && ./mvnw -B -q -pl benchmarks -am package -DskipTests)
#   benchmarks/compare-jars.sh -r 3 /tmp/old/benchmarks/target/benchmarks.jar benchmarks/target/benchmarks.jar \
#       'PrefixCollisionBatchBenchmark\.(views|pointerLength)$' -p kernel=lessThan -wi 2 -w 1s -i 3 -r 1s
#
# JMH arguments are passed to both jars unchanged, with -f 1 (one fork per call; ROUNDS calls per jar) and JSON
# results added, so leave out -f, -rf and -rff. JAVA (default: java on PATH) must be the JDK the build selected
# (22 or newer). Run an A/A comparison (the same jar twice) first: the spread it shows is what a difference must
# exceed to mean anything.
set -euo pipefail

rounds=3
out=""
while getopts "r:o:h" opt; do
    case "$opt" in
        r) rounds="$OPTARG" ;;
        o) out="$OPTARG" ;;
        *) sed -n '2,16p' "$0"; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -lt 2 ]; then
    sed -n '2,16p' "$0"
    exit 2
fi
old_jar="$1"
new_jar="$2"
shift 2
for jar in "$old_jar" "$new_jar"; do
    [ -f "$jar" ] || { echo "compare-jars: no such jar: $jar" >&2; exit 2; }
done
java="${JAVA:-java}"
out="${out:-$(dirname "$new_jar")/compare-$(date -u +%Y%m%dT%H%M%SZ)}"
mkdir -p "$out"

run() { # label jar round
    echo "== round $3, $1: $2" >&2
    "$java" -jar "$2" "${jmh_args[@]}" -f 1 -rf json -rff "$out/$1-$3.json" >"$out/$1-$3.log" 2>&1 \
        || { echo "compare-jars: JMH failed, see $out/$1-$3.log" >&2; exit 1; }
}
jmh_args=("$@")
for ((i = 1; i <= rounds; i++)); do
    if ((i % 2)); then
        run old "$old_jar" "$i"; run new "$new_jar" "$i"
    else
        run new "$new_jar" "$i"; run old "$old_jar" "$i"
    fi
done

if ! command -v python3 >/dev/null; then
    echo "compare-jars: results in $out (python3 not found for the summary)" >&2
    exit 0
fi
python3 - "$out" "$rounds" <<'EOF'
import json, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
scores, units = {}, {}
for label in ("old", "new"):
    for i in range(1, rounds + 1):
        for r in json.load(open(f"{out}/{label}-{i}.json")):
            params = ",".join(f"{k}={v}" for k, v in sorted(r.get("params", {}).items()))
            key = r["benchmark"].rsplit(".", 2)[-2] + "." + r["benchmark"].rsplit(".", 1)[-1] + (f" [{params}]" if params else "")
            scores.setdefault(key, {"old": [], "new": []})[label].append(r["primaryMetric"]["score"])
            units[key] = r["primaryMetric"]["scoreUnit"]
print(f"results: {out}")
print(f"{'benchmark':60} {'old':>28} {'new':>28} {'new/old':>8}")
for key in sorted(scores):
    o, n = scores[key]["old"], scores[key]["new"]
    fmt = lambda xs: " ".join(f"{x:.3g}" for x in xs)
    ratio = statistics.median(n) / statistics.median(o) if o and n and statistics.median(o) else float("nan")
    print(f"{key:60} {fmt(o):>28} {fmt(n):>28} {ratio:8.3f}  {units[key]}")
EOF
