"""What the tests of the pages' verdict scripts (scripts/*_sensitivity.py,
scripts/seed001_chapter6.py) share: running a script, failing with a
message, reading a table row's cells, and the page's check-write-check."""
import subprocess
import sys


def run_script(script, *args):
    """(exit code, stdout, stderr) of `python3 script args...`."""
    p = subprocess.run([sys.executable, script, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL: {what}")


def table_cells(out, prefix):
    """The cells of the first table row of `out` that starts with "| " + prefix."""
    line = [l for l in out.splitlines() if l.startswith("| " + prefix)][0]
    return [c.strip() for c in line.strip("|").split("|")]


def check_page_cycle(script, data, page):
    """A stale `page` fails --check, --write succeeds, and the written page passes --check."""
    rc, _, err = run_script(script, "--data", data, "--check", page)
    check(rc == 1 and "differs from the data" in err, f"a stale page fails the check ({err})")
    rc, _, err = run_script(script, "--data", data, "--write", page)
    check(rc == 0, f"--write ({err})")
    rc, _, err = run_script(script, "--data", data, "--check", page)
    check(rc == 0, f"the written page passes --check ({err})")
