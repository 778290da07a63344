"""What the tests of scripts/*_sensitivity.py share: running a script and
failing with a message."""
import subprocess
import sys


def run_script(script, *args):
    """(exit code, stdout, stderr) of `python3 script args...`."""
    p = subprocess.run([sys.executable, script, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL: {what}")
