#!/usr/bin/env python3
"""scripts/csv_where.py: keeps the matching rows (numbers compared as numbers), refuses unknown columns."""
import csv
import os
import subprocess
import sys
import tempfile

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "csv_where.py")


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


def main():
    with tempfile.TemporaryDirectory() as d:
        src, out = os.path.join(d, "in.csv"), os.path.join(d, "out.csv")
        with open(src, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["ni.t_ns", "traffic.scheme", "y"])
            w.writerows([["1000", "tree", "1"], ["200", "tree", "2"], ["1000.0", "ni", "3"], ["200", "ni", "4"]])
        r = run(src, out, "ni.t_ns=1000")
        assert r.returncode == 0, r.stderr
        with open(out, newline="") as f:
            rows = list(csv.DictReader(f))
        assert [x["y"] for x in rows] == ["1", "3"], rows
        r = run(src, out, "ni.t_ns=200", "traffic.scheme=ni")
        with open(out, newline="") as f:
            assert [x["y"] for x in csv.DictReader(f)] == ["4"]
        r = run(src, out, "nope=1")
        assert r.returncode != 0 and "no column 'nope'" in r.stderr, r.stderr
        r = run(src, out, "ni.t_ns=5")
        assert r.returncode != 0 and "no row matches" in r.stderr, r.stderr
    print("csv_where: ok")


if __name__ == "__main__":
    main()
