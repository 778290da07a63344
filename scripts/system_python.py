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


def import_matplotlib(script):
    """matplotlib with the Agg backend, for a script that needs it from the
    start: reruns under /usr/bin/python3 when this interpreter lacks it, and
    exits naming `script` and the Debian package when neither has it."""
    try:
        import matplotlib
    except ImportError as e:
        rerun_with_matplotlib()
        sys.exit(f"{script}: matplotlib is not available to {sys.executable} ({e}); on Debian: "
                 "apt-get install python3-matplotlib")
    matplotlib.use("Agg")
    return matplotlib


def save_figure(fig, path, **kwargs):
    """fig.savefig without the creation date matplotlib writes into SVG
    metadata, so that redrawing unchanged data gives an unchanged file."""
    if str(path).lower().endswith(".svg"):
        kwargs.setdefault("metadata", {"Date": None})
    fig.savefig(path, **kwargs)
