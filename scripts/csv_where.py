#!/usr/bin/env python3
"""Keep the rows of a CSV whose columns have the given values.

    python3 scripts/csv_where.py IN.csv OUT.csv COLUMN=VALUE [COLUMN=VALUE ...]

Used to plot a sweep that varies more than the x axis and the --by column
(e.g. one value of R of experiments/seed000/sweeps/fig19_R.yaml) with
scripts/plot.py. Values compare as numbers when both parse as numbers.
"""
import csv
import sys


def same(a, b):
    try:
        return float(a) == float(b)
    except ValueError:
        return a == b


def main(argv):
    if len(argv) == 2 and argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return
    if len(argv) < 4 or any("=" not in c for c in argv[3:]):
        sys.exit(__doc__.strip())
    conds = [c.split("=", 1) for c in argv[3:]]
    with open(argv[1], newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"csv_where: {argv[1]}: no rows")
    for col, _ in conds:
        if col not in rows[0]:
            sys.exit(f"csv_where: {argv[1]}: no column '{col}'")
    kept = [r for r in rows if all(same(r[c], v) for c, v in conds)]
    if not kept:
        sys.exit(f"csv_where: no row matches {' '.join(argv[3:])}")
    with open(argv[2], "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(kept)


if __name__ == "__main__":
    main(sys.argv)
