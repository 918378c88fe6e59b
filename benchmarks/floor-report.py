#!/usr/bin/env python3
"""Suite 3's cells as multiples of their decompression floor, beside DuckDB (issue 35).

  python3 benchmarks/floor-report.py jmh.json [duckdb-python.jsonl]

jmh.json: one JMH run holding HitsFloorBenchmark.decompressOnly (the floor) and HitsQueryBenchmark's scanOneThread,
scanAllCores, duckdb and duckdbDefaultThreads (docs/benchmarks/runs/2026-11-29-floor/run.sh). Scores are ns/row over
the file's rows; the table gives ms per scan of the whole file. duckdb-python.jsonl: benchmarks/duckdb-hits.py's output.
"""
import json
import os
import sys


def main():
    runs = json.load(open(sys.argv[1]))
    score = {}
    rows = {}
    for r in runs:
        method = r["benchmark"].rsplit(".", 2)
        key = (method[-2] + "." + method[-1], r["params"].get("layout"), r["params"].get("query"))
        score[key] = r["primaryMetric"]["score"]
        rows[key] = int(r["params"].get("rows", "2000000"))
    python = {}
    if len(sys.argv) > 2 and os.path.exists(sys.argv[2]):
        for line in open(sys.argv[2]):
            d = json.loads(line)
            layout = os.path.basename(d["file"]).split("-")[2]
            python[(layout, d["query"], "1" if d["threads"] == "1" else "default")] = d["medianMs"]

    def ms(method, layout, query=None):
        key = (method, layout, query)
        if key not in score:
            return None
        return score[key] * rows[key] / 1e6

    def f(x, digits=0):
        return "n/a" if x is None else f"{x:.{digits}f}"

    def ratio(a, b):
        return "n/a" if a is None or b is None or b == 0 else f"{a / b:.2f}x"

    layouts = []
    for (_, layout, _) in score:
        if layout not in layouts:
            layouts.append(layout)
    print("| layout | query | floor ms (native; Java) | ours 1 thread ms (x floor) | ours all cores ms (x floor) "
          "| all / 1 thread | DuckDB 1 thread ms (ours / DuckDB) | DuckDB default ms (ours all / DuckDB) "
          "| DuckDB Python 1 / default ms |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for layout in layouts:
        floor = ms("HitsFloorBenchmark.decompressOnly", layout)
        java = ms("HitsFloorBenchmark.decompressJava", layout)
        for query in ("q20Contains", "equality", "prefix"):
            one = ms("HitsQueryBenchmark.scanOneThread", layout, query)
            if one is None:
                continue
            allc = ms("HitsQueryBenchmark.scanAllCores", layout, query)
            d1 = ms("HitsQueryBenchmark.duckdb", layout, query)
            dd = ms("HitsQueryBenchmark.duckdbDefaultThreads", layout, query)
            p1 = python.get((layout, query, "1"))
            pd = python.get((layout, query, "default"))
            print(f"| {layout} | {query} | {f(floor)}; {f(java)} | {f(one)} ({ratio(one, floor)}) "
                  f"| {f(allc)} ({ratio(allc, floor)}) | {ratio(one, allc)} | {f(d1)} ({ratio(one, d1)}) "
                  f"| {f(dd)} ({ratio(allc, dd)}) | {f(p1)} / {f(pd)} |")


if __name__ == "__main__":
    main()
