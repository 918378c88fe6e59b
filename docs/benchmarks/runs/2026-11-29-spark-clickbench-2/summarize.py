#!/usr/bin/env python3
"""Medians and off/on ratios of the side-by-side runs: one row per (cores, codec, query), then the geomeans."""
import glob, json, math, os, statistics, sys

here = os.path.dirname(os.path.abspath(__file__))
rows = []
for path in sorted(glob.glob(os.path.join(here, "side-by-side-*.jsonl"))):
    for line in open(path):
        if line.startswith("{"):
            rows.append(json.loads(line))
print("| cores | codec | query | on wall ms | off wall ms | off/on wall | on CPU ms | off CPU ms | off/on CPU |")
print("| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
geo = {}
for r in rows:
    m = {k: statistics.median(r[k]) for k in ("onWallMs", "offWallMs", "onCpuMs", "offCpuMs")}
    wall = m["offWallMs"] / m["onWallMs"]
    cpu = m["offCpuMs"] / m["onCpuMs"]
    geo.setdefault((r["cores"], r["codec"]), []).append((wall, cpu))
    print(f"| {r['cores']} | {r['codec']} | {r['query']} | {m['onWallMs']:.0f} | {m['offWallMs']:.0f} | {wall:.2f} "
          f"| {m['onCpuMs']:.0f} | {m['offCpuMs']:.0f} | {cpu:.2f} |")
for (cores, codec), v in geo.items():
    gw = math.exp(sum(math.log(w) for w, _ in v) / len(v))
    gc = math.exp(sum(math.log(c) for _, c in v) / len(v))
    print(f"geomean cores={cores} codec={codec} queries={len(v)} wall={gw:.2f} cpu={gc:.2f}")
