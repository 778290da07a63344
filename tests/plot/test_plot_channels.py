#!/usr/bin/env python3
"""scripts/plot_channels.py: reads the DOT graph of `wormcast topo export`,
draws PNG and SVG files, refuses what it cannot draw.
usage: test_plot_channels.py WORMCAST_BINARY"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "plot_channels.py")
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
import plot_channels as pc  # noqa: E402


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


def export(wormcast, spec, routing, path):
    r = subprocess.run([wormcast, "topo", "export", spec, "--routing", routing, "-o", path],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def check_unidirectional_torus(path):
    # A 4x4 unidirectional torus: 16 nodes, one + channel per node and
    # dimension (32), of which the 4 + 4 from coordinate 3 to 0 wrap. UTR
    # (seed001 Eq. 4.1) has no h class on a wrap channel: they carry p only.
    with open(path) as f:
        title, nodes, edges = pc.parse_dot(f.read(), path)
    assert "torus:4x4:uni" in title and "utr" in title, title
    assert len(nodes) == 16 and len(edges) == 32, (len(nodes), len(edges))
    wraps = [e for e in edges if e[3]]
    assert len(wraps) == 8, wraps
    for src, dst, label, _ in wraps:
        a, b = nodes[src][0].strip("()").split(","), nodes[dst][0].strip("()").split(",")
        differ = [i for i in range(2) if a[i] != b[i]]
        assert len(differ) == 1 and a[differ[0]] == "3" and b[differ[0]] == "0", (a, b)
        assert label == "p", label
    assert pc.grid_step(nodes) > 0


def main():
    wormcast = sys.argv[1]
    with tempfile.TemporaryDirectory() as d:
        dot = os.path.join(d, "utr.dot")
        export(wormcast, "torus:4x4:uni", "utr", dot)
        check_unidirectional_torus(dot)
        png, svg = os.path.join(d, "c.png"), os.path.join(d, "c.svg")
        r = run(dot, "-o", png, "-o", svg)
        assert r.returncode == 0, r.stderr
        with open(png, "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n"
        with open(svg) as f:
            assert "<svg" in f.read()
        # Refusals: a file that is not such a DOT graph, three dimensions, a bad output format.
        bad = os.path.join(d, "bad.dot")
        with open(bad, "w") as f:
            f.write("digraph g { a -> b; }\n")
        r = run(bad, "-o", png)
        assert r.returncode != 0 and "bad.dot:1: not a channel line" in r.stderr, r.stderr
        cube = os.path.join(d, "cube.dot")
        export(wormcast, "torus:3x3x3:uni", "utr", cube)
        r = run(cube, "-o", png)
        assert r.returncode != 0 and "more than two dimensions" in r.stderr, r.stderr
        r = run(dot, "-o", os.path.join(d, "c.gif"))
        assert r.returncode != 0 and "unknown output format" in r.stderr, r.stderr
        r = run(os.path.join(d, "missing.dot"), "-o", png)
        assert r.returncode != 0 and "missing.dot" in r.stderr, r.stderr
    print("plot_channels: ok")


if __name__ == "__main__":
    main()
