#!/usr/bin/env python3
"""DuckDB (Python package) on Suite 3's queries over the hits-like files, as `stringview scan --repeat N` measures ours.

For each file and query: the median (and minimum) wall time of `SELECT count(*) ... WHERE` over `--repeat` runs after
`--warmup` runs, once with `SET threads=1` and once at DuckDB's default thread count. One JSON object per line on
stdout, so that a run script can interleave it with ours in the same time window.

  python3 benchmarks/duckdb-hits.py --equal <EQUAL_URL> --prefix <PREFIX_URL> file.parquet...

The constants are the generator's (`java -cp benchmarks/target/benchmarks.jar dev.stringview.benchmarks.HitsGenerator`
prints them, tab-separated); the same SQL as `Query.sql` in the benchmarks.
"""
import argparse
import json
import statistics
import sys
import time

import duckdb


def like_escape(s):
    return s.replace("'", "''").replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def sql(file, kind, constant):
    source = "read_parquet('" + file.replace("'", "''") + "')"
    if kind == "q20Contains":
        where = "\"URL\" LIKE '%" + like_escape(constant) + "%'"
    elif kind == "equality":
        where = "\"URL\" = '" + constant.replace("'", "''") + "'"
    else:
        where = "\"URL\" LIKE '" + like_escape(constant) + "%'"
    if any(c in constant for c in "%_\\"):
        where += " ESCAPE '\\'"
    return "SELECT count(*) FROM " + source + " WHERE " + where


def timed(connection, query, warmup, repeat):
    count = None
    for _ in range(warmup):
        count = connection.execute(query).fetchone()[0]
    times = []
    for _ in range(repeat):
        start = time.perf_counter_ns()
        count = connection.execute(query).fetchone()[0]
        times.append((time.perf_counter_ns() - start) / 1e6)
    return count, statistics.median(times), min(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("files", nargs="+")
    parser.add_argument("--equal", required=True)
    parser.add_argument("--prefix", required=True)
    parser.add_argument("--queries", default="q20Contains,equality,prefix")
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    constants = {"q20Contains": "google", "equality": args.equal, "prefix": args.prefix}
    one = duckdb.connect()
    one.execute("SET threads=1")
    default = duckdb.connect()
    default_threads = default.execute("SELECT current_setting('threads')").fetchone()[0]
    for file in args.files:
        for q in args.queries.split(","):
            query = sql(file, q, constants[q])
            for threads, connection in (("1", one), ("default:" + str(default_threads), default)):
                count, median, minimum = timed(connection, query, args.warmup, args.repeat)
                print(json.dumps({"engine": "duckdb " + duckdb.__version__, "file": file, "query": q,
                                  "threads": threads, "count": count, "medianMs": round(median, 2),
                                  "minMs": round(minimum, 2), "repeat": args.repeat}), flush=True)


if __name__ == "__main__":
    sys.exit(main())
