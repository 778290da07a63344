"""Rerun a plotting script under Debian's /usr/bin/python3 when the python3
first on PATH (pyenv, a venv) lacks matplotlib. Python 3 standard library."""
import os
import sys

SYSTEM = "/usr/bin/python3"


def rerun_with_matplotlib():
    """Replace this process with the same command under /usr/bin/python3, once,
    if that is another interpreter; returns (only) when it cannot."""
    if os.path.realpath(sys.executable) != os.path.realpath(SYSTEM) and os.access(SYSTEM, os.X_OK) \
            and not os.environ.get("WORMCAST_PLOT_REEXEC"):
        os.environ["WORMCAST_PLOT_REEXEC"] = "1"
        os.execv(SYSTEM, [SYSTEM] + sys.argv)
