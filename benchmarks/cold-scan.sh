#!/usr/bin/env bash
# Cold whole processes, side by side: one `./stringview scan` (a fresh JVM, the launcher's AOT cache), one Python
# process running the `duckdb` package on the same query, and, as the JVM's own floor, `./stringview --help` (the
# same JVM, launcher and AOT cache, no file read). The three are alternated round by round, so that a machine whose
# speed drifts moves them alike. Prints each one's wall and CPU (user + sys) seconds: min / median / max.
#
#   benchmarks/cold-scan.sh [-n ROUNDS] [-t THREADS] FILE COLUMN NEEDLE
#
# e.g. benchmarks/cold-scan.sh -n 7 benchmarks/target/bench-data/hits-v1-snappy-2000000.parquet URL google
# Without -t both use their default threads (ours: all cores; DuckDB: all cores). Needs /usr/bin/time, python3
# with duckdb, and a built tree (./mvnw package -DskipTests). The first round trains the AOT cache if it is stale
# and is not counted.
set -euo pipefail

rounds=7
threads=""
while getopts "n:t:h" opt; do
    case "$opt" in
        n) rounds="$OPTARG" ;;
        t) threads="$OPTARG" ;;
        *) sed -n '2,13p' "$0"; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -ne 3 ]; then
    sed -n '2,13p' "$0"
    exit 2
fi
file="$1" column="$2" needle="$3"
root="$(cd "$(dirname "$0")/.." && pwd)"
[ -f "$file" ] || { echo "cold-scan.sh: no such file: $file" >&2; exit 2; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

ours=("$root/stringview" scan "$file" --column "$column" --contains "$needle")
duck_threads=""
if [ -n "$threads" ]; then
    ours+=(--threads "$threads")
    duck_threads="con.execute('SET threads=$threads');"
fi
duck=(python3 -c "import duckdb; con = duckdb.connect(); $duck_threads print(con.sql(\"SELECT count(*) FROM '$file' WHERE \\\"$column\\\" LIKE '%$needle%'\").fetchall()[0][0])")
floor=("$root/stringview" --help)

"${ours[@]}" > /dev/null 2>&1 # trains the AOT cache if it is stale; not counted

run() { # name, command...: appends "wall cpu" to $tmp/name
    local name="$1"
    shift
    /usr/bin/time -f "%e %U %S" -o "$tmp/t" "$@" > "$tmp/out" 2>/dev/null || { echo "cold-scan.sh: $name failed: $*" >&2; exit 1; }
    awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$tmp/t" >> "$tmp/$name"
}
for i in $(seq 1 "$rounds"); do
    run stringview "${ours[@]}"
    echo "stringview count: $(tail -1 "$tmp/out")" > "$tmp/ours-count"
    run duckdb "${duck[@]}"
    echo "duckdb count: $(cat "$tmp/out")" > "$tmp/duck-count"
    run jvm-floor "${floor[@]}"
done

stats() { # column of a file: min / median / max
    cut -d' ' -f"$2" "$1" | sort -n | awk '{ v[NR] = $1 } END { printf "%s / %s / %s", v[1], v[int((NR + 1) / 2)], v[NR] }'
}
echo "rounds=$rounds file=$file column=$column needle=$needle threads=${threads:-default} $(uptime | sed 's/.*load/load/')"
printf "%-12s %-24s %-24s\n" process "wall s (min/med/max)" "CPU s (min/med/max)"
for name in stringview duckdb jvm-floor; do
    printf "%-12s %-24s %-24s\n" "$name" "$(stats "$tmp/$name" 1)" "$(stats "$tmp/$name" 2)"
done
cat "$tmp/ours-count" "$tmp/duck-count"
