#!/usr/bin/env python3
"""Line plots of wormcast sweep results (or any CSV with a header row).

    python3 scripts/plot.py results/NAME/NAME_summary.csv \\
        --x traffic.load --y metrics.latency_cycles.mean.mean --by topology.seed \\
        -o latency.png -o latency.svg

One curve per distinct value of --by (legend "COLUMN=value"), points joined in
order of x, with markers. Error bars come from --err; by default, when the y
column ends in ".mean" and a matching ".ci95" column exists (as in the
summary CSV that `wormcast sweep` writes), that column gives the bars (the
half-width of the 95% confidence interval of the mean). Each -o file is
written in the format its extension names (png, svg, pdf, ...).
--y A+B plots the sum of columns A and B per row (e.g. the wait at the
source plus the latency from the send call); its default error bars are
the sum of the parts' .ci95 half-widths, an upper bound.
--print-series prints what was plotted as JSON: {label: [[x, y, err], ...]}.

Needs Python 3 and matplotlib (Debian: apt-get install python3-matplotlib).
See docs/sweeps.md.
"""

import argparse
import csv
import json
import math
import os
import sys

from system_python import rerun_with_matplotlib, save_figure

MARKERS = ["o", "s", "^", "D", "v", "<", ">", "p", "*", "h"]


def fail(msg):
    print(f"plot.py: error: {msg}", file=sys.stderr)
    sys.exit(1)


def warn(msg):
    print(f"plot.py: warning: {msg}", file=sys.stderr)


def to_float(text):
    try:
        v = float(text)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def read_csv(path):
    if not os.path.isfile(path):
        fail(f"{path}: file not found")
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            columns = reader.fieldnames or []
            rows = list(reader)
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        fail(f"{path}: cannot read: {e}")
    if not columns:
        fail(f"{path}: empty file (no header row)")
    return columns, rows


def check_column(path, columns, name, option):
    if name not in columns:
        near = [c for c in columns if name.split(".")[-1] in c][:8]
        hint = f"; similar: {', '.join(near)}" if near else ""
        fail(f"{path}: {option} {name}: no such column{hint} (the header has {len(columns)} columns)")


def y_parts(y):
    """--y A+B+...: the columns whose sum is plotted."""
    return y.split("+")


def default_err(columns, y):
    """The .ci95 column(s) matching a .mean y column; for a sum, the sum of
    the parts' half-widths (an upper bound on the sum's), when every part
    has one."""
    errs = [part[: -len(".mean")] + ".ci95" for part in y_parts(y) if part.endswith(".mean")]
    if len(errs) == len(y_parts(y)) and all(e in columns for e in errs):
        return "+".join(errs)
    return None


def build_series(path, columns, rows, x, y, by, err):
    """Returns (series, categorical_x): series maps label -> [[x, y, err], ...]."""
    xs_numeric = all(to_float(r[x]) is not None for r in rows if r.get(x, "") != "")
    series = {}
    skipped = 0
    for line, r in enumerate(rows, start=2):
        ytexts = [r.get(part, "") for part in y_parts(y)]
        if "" in ytexts or r.get(x, "") == "":
            skipped += 1   # e.g. a grid point whose runs all failed
            continue
        yv = 0.0 if len(ytexts) > 1 else None
        for part, ytext in zip(y_parts(y), ytexts):
            v = to_float(ytext)
            if v is None:
                fail(f"{path}:{line}: column {part}: '{ytext}' is not a number")
            yv = v if yv is None else yv + v
        xv = to_float(r[x]) if xs_numeric else r[x]
        ev = None
        for part in (err.split("+") if err else []):
            etext = r.get(part, "")
            if etext != "":
                e = to_float(etext)
                if e is None:
                    fail(f"{path}:{line}: column {part}: '{etext}' is not a number")
                ev = e if ev is None else ev + e
        label = ", ".join(f"{c}={r[c]}" for c in by.split(",")) if by else y
        series.setdefault(label, []).append([xv, yv, ev])
    if skipped:
        warn(f"{skipped} row(s) without a value for {x} or {y} skipped")
    if xs_numeric:
        for pts in series.values():
            pts.sort(key=lambda p: p[0])
    for label, pts in series.items():
        seen = [p[0] for p in pts]
        if len(seen) != len(set(seen)):
            warn(f"series '{label}' has several rows with the same {x}; plot the summary CSV "
                 f"or separate them with --by")
    if by and "," not in by and all(to_float(lbl.split("=", 1)[1]) is not None for lbl in series):
        series = dict(sorted(series.items(), key=lambda kv: to_float(kv[0].split("=", 1)[1])))
    return series, not xs_numeric


def plot(series, categorical, args, err_col):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    fig, ax = plt.subplots(figsize=(7.0, 4.6))
    categories = []
    if categorical:
        for pts in series.values():
            for p in pts:
                if p[0] not in categories:
                    categories.append(p[0])
    for i, (label, pts) in enumerate(series.items()):
        xs = [categories.index(p[0]) if categorical else p[0] for p in pts]
        ys = [p[1] for p in pts]
        marker = MARKERS[i % len(MARKERS)]
        if err_col and any(p[2] is not None for p in pts):
            errs = [p[2] if p[2] is not None else 0.0 for p in pts]
            ax.errorbar(xs, ys, yerr=errs, marker=marker, markersize=5, capsize=3, linewidth=1.4, label=label)
        else:
            ax.plot(xs, ys, marker=marker, markersize=5, linewidth=1.4, label=label)
    if categorical:
        ax.set_xticks(range(len(categories)))
        ax.set_xticklabels(categories)
    def plain_log_ticks(axis):
        # 100, 200, 500, 1000 rather than only 10^2, 10^3: log plots of
        # latency seldom span many decades.
        axis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        axis.set_minor_formatter(NullFormatter())

    if args.logx:
        ax.set_xscale("log")
        plain_log_ticks(ax.xaxis)
    if args.logy:
        ax.set_yscale("log")
        plain_log_ticks(ax.yaxis)
        # A wide error bar reaching (nearly) zero would stretch a log axis
        # over decades of nothing; let such bars run off the bottom instead.
        ys = [p[1] for pts in series.values() for p in pts if p[1] > 0]
        if ys:
            ax.set_ylim(bottom=0.5 * min(ys))
    ax.set_xlabel(args.xlabel or args.x)
    ax.set_ylabel(args.ylabel or args.y)
    title = args.title if args.title is not None else f"{args.y} vs {args.x}"
    if title:
        ax.set_title(title)
    ax.grid(True, alpha=0.3)
    if len(series) > 1 or args.by:
        ax.legend(title=None, fontsize="small")
    if err_col:
        fig.text(0.99, 0.01, f"error bars: {err_col}", ha="right", va="bottom", fontsize="x-small", color="0.4")
    fig.tight_layout()
    for out in args.output:
        parent = os.path.dirname(out)
        if parent:
            os.makedirs(parent, exist_ok=True)
        try:
            save_figure(fig, out, dpi=150)
        except (OSError, ValueError) as e:
            fail(f"{out}: cannot write: {e}")
        print(f"wrote {out}", file=sys.stderr)
    plt.close(fig)


def main(argv=None):
    p = argparse.ArgumentParser(description="Line plots of wormcast sweep CSVs (one curve per --by value).")
    p.add_argument("csv", help="CSV file with a header row (e.g. NAME_summary.csv from wormcast sweep)")
    p.add_argument("--x", required=True, help="column for the x axis")
    p.add_argument("--y", required=True,
                   help="column for the y axis; A+B plots the sum of columns A and B (e.g. a wait and a latency)")
    p.add_argument("--by", help="one curve per distinct value of this column (A,B: per pair of values of two "
                   "columns, in the order they first appear)")
    p.add_argument("--err", help="column with the error-bar half-width (default: <y minus .mean>.ci95 if present)")
    p.add_argument("--no-err", action="store_true", help="no error bars")
    p.add_argument("--logx", action="store_true", help="logarithmic x axis")
    p.add_argument("--logy", action="store_true", help="logarithmic y axis")
    p.add_argument("--title", help="plot title (default 'Y vs X'; '' for none)")
    p.add_argument("--xlabel", help="x axis label (default: the column name)")
    p.add_argument("--ylabel", help="y axis label (default: the column name)")
    p.add_argument("-o", "--output", action="append", default=[],
                   help="output file, format from its extension (.png, .svg, .pdf); repeatable")
    p.add_argument("--print-series", action="store_true",
                   help="print the plotted series as JSON {label: [[x, y, err], ...]} on stdout")
    args = p.parse_args(argv)
    if not args.output and not args.print_series:
        p.error("give at least one -o OUT.png/-o OUT.svg (or --print-series)")

    columns, rows = read_csv(args.csv)
    check_column(args.csv, columns, args.x, "--x")
    for part in y_parts(args.y):
        check_column(args.csv, columns, part, "--y")
    for part in args.by.split(",") if args.by else []:
        check_column(args.csv, columns, part, "--by")
    err_col = None
    if args.err and not args.no_err:
        check_column(args.csv, columns, args.err, "--err")
        err_col = args.err
    elif not args.no_err:
        err_col = default_err(columns, args.y)
    if not rows:
        fail(f"{args.csv}: no data rows")

    series, categorical = build_series(args.csv, columns, rows, args.x, args.y, args.by, err_col)
    if not series:
        fail(f"{args.csv}: no row has values for both {args.x} and {args.y}")
    if args.output:
        try:
            plot(series, categorical, args, err_col)
        except ImportError as e:
            # A python3 first on PATH (pyenv, venv) may lack Debian's
            # matplotlib: rerun under the system interpreter that has it.
            rerun_with_matplotlib()
            fail(f"matplotlib is not available to {sys.executable} ({e}); on Debian: apt-get install "
                 f"python3-matplotlib")
    if args.print_series:
        json.dump(series, sys.stdout, indent=None)
        sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
