"""What the pages' generated verdict tables share: reading sweep summaries,
saving the columns a table reads (for committing), and writing or checking
the table between a page's BEGIN/END marker lines.

Used by scripts/seed003_sensitivity.py, scripts/seed004_sensitivity.py and
scripts/seed001_chapter6.py.
"""
import csv
import os
import sys


class DataError(Exception):
    """Bad or missing data: the message names the file (and line) and the reason."""


def summary_path(data, name):
    """DIR/<name>_summary.csv, or the sweep's own results/<name>/<name>_summary.csv."""
    return os.path.join(data if data else os.path.join("results", name), f"{name}_summary.csv")


def read_rows(path, need, sweep):
    """The rows of a summary, refused when missing, empty or without a column of `need`."""
    if not os.path.exists(path):
        raise DataError(f"{path} is missing: run {sweep}")
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        raise DataError(f"{path}: no rows")
    missing = [k for k in need if k not in rows[0]]
    if missing:
        raise DataError(f"{path}: no column {', '.join(missing)}")
    return rows


def save_columns(src, dst_dir, keep):
    """A copy of summary `src` in dst_dir with only the columns in `keep` (in file order)."""
    with open(src, newline="") as f:
        rows = list(csv.DictReader(f))
    cols = [c for c in rows[0] if c in keep]
    os.makedirs(dst_dir, exist_ok=True)
    dst = os.path.join(dst_dir, os.path.basename(src))
    with open(dst + ".tmp", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols, extrasaction="ignore", lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    os.replace(dst + ".tmp", dst)


def markers(script):
    return (f"<!-- {script}: begin (generated; do not edit) -->", f"<!-- {script}: end -->")


def splice_all(page_text, blocks, page, script):
    """splice for a table (str: one marker pair named after the script) or
    several ({name: text}: a marker pair "SCRIPT NAME" each)."""
    if isinstance(blocks, str):
        return splice(page_text, blocks, page, script)
    for name, block in blocks.items():
        page_text = splice(page_text, block, page, f"{script} {name}")
    return page_text


def splice(page_text, block, page, script):
    begin, end = markers(script)
    if page_text.count(begin) != 1 or page_text.count(end) != 1:
        raise DataError(f"{page}: needs one line '{begin}' and one '{end}'")
    head, rest = page_text.split(begin, 1)
    _, tail = rest.split(end, 1)
    return head + begin + "\n" + block + end + tail


def cell(ok, evidence):
    return f"{'agrees' if ok else 'differs'} ({evidence})"


def run_cli(script, make_table, save, args):
    """The three modes of a sensitivity script: print, --write PAGE, --check PAGE, or --save DIR."""
    try:
        if args.save:
            save(args.data, args.save)
            return 0
        block = make_table(args.data)
        if not (args.write or args.check):
            sys.stdout.write(block if isinstance(block, str) else "\n".join(block.values()))
            return 0
        page = args.write or args.check
        with open(page) as f:
            text = f.read()
        new = splice_all(text, block, page, script)
        if args.check:
            if new != text:
                sys.stderr.write(f"{script}: {page}: the verdict table differs from the data's; "
                                 f"rerun with --write {page}\n")
                return 1
            return 0
        with open(page + ".tmp", "w") as f:
            f.write(new)
        os.replace(page + ".tmp", page)
        return 0
    except DataError as e:
        sys.stderr.write(f"{script}: {e}\n")
        return 1


def main(script, doc, make_table, save):
    """A sensitivity script's command line (see add_arguments and run_cli)."""
    import argparse
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    add_arguments(ap)
    return run_cli(script, make_table, save, ap.parse_args())


def add_arguments(ap):
    ap.add_argument("--data", help="directory of the summary CSVs (default: results/<sweep>/)")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--write", metavar="PAGE", help="replace the table in PAGE")
    mode.add_argument("--check", metavar="PAGE", help="exit 1 when PAGE's table differs from the data's")
    mode.add_argument("--save", metavar="DIR", help="write the columns the table reads to DIR (for committing)")
