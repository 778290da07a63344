#!/usr/bin/env python3
"""Draw the channels of a small direct network with their virtual-channel
classes, from the DOT graph `wormcast topo export` writes:

    build/wormcast topo export torus:4x4:uni --routing utr -o utr.dot
    python3 scripts/plot_channels.py utr.dot -o utr.png -o utr.svg

Nodes sit at the DOT graph's grid positions (dimension 0 along x, dimension 1
along y). A channel between grid neighbours is an arrow, shifted sideways so
that the two directions of a bidirectional link are both visible; a
wrap-around channel (dashed in the DOT graph) is drawn as a dashed arc outside
the grid, on the side its direction leaves from. Each channel is labelled with
the VC classes the routing uses on it (the DOT edge labels). Networks of more
than two dimensions are refused: their DOT layout shifts copies of the plane,
which this drawing does not untangle.

Needs Python 3 and matplotlib (Debian: apt-get install python3-matplotlib).
"""

import argparse
import os
import re
import sys

from system_python import rerun_with_matplotlib, save_figure

NODE_RE = re.compile(r'^\s*n(\d+) \[label="([^"]*)", pos="(-?[\d.]+),(-?[\d.]+)!"\];')
EDGE_RE = re.compile(r'^\s*n(\d+) -> n(\d+) \[label="([^"]*)"(, style=dashed)?\];')


class ChannelError(Exception):
    pass


def parse_dot(text, source="<dot>"):
    """Returns (title, nodes {id: (label, x, y)}, edges [(src, dst, label, wrap)])."""
    title, nodes, edges = "", {}, []
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("//") and not title:
            title = line[2:].split(";")[0].strip()
        m = NODE_RE.match(line)
        if m:
            nodes[int(m.group(1))] = (m.group(2), float(m.group(3)), float(m.group(4)))
            continue
        m = EDGE_RE.match(line)
        if m:
            edges.append((int(m.group(1)), int(m.group(2)), m.group(3), bool(m.group(4))))
            continue
        if "->" in line:
            raise ChannelError(f"{source}:{number}: not a channel line of `wormcast topo export`: {line.strip()}")
    if not nodes:
        raise ChannelError(f"{source}: no nodes: not a direct-network DOT file of `wormcast topo export`")
    for src, dst, _, _ in edges:
        for n in (src, dst):
            if n not in nodes:
                raise ChannelError(f"{source}: channel n{src} -> n{dst} names an unknown node n{n}")
    if any(len(label.strip("()").split(",")) > 2 for label, _, _ in nodes.values()):
        raise ChannelError(f"{source}: more than two dimensions: only 1-D and 2-D networks can be drawn")
    return title, nodes, edges


def grid_step(nodes):
    """The distance between grid neighbours (the smallest non-zero coordinate gap)."""
    gaps = {abs(a - b) for _, x, y in nodes.values() for _, u, v in nodes.values() for a, b in ((x, u), (y, v))}
    gaps.discard(0.0)
    return min(gaps) if gaps else 1.0


def arrow(ax, start, end, step, label, color, dashed=False):
    """An arrow from start to end, shifted to the right of its direction by a
    tenth of a grid step (so the two directions of a link do not overlap),
    with its label beside it."""
    (x0, y0), (x1, y1) = start, end
    dx, dy = x1 - x0, y1 - y0
    length = (dx * dx + dy * dy) ** 0.5
    ox, oy = dy / length * 0.09 * step, -dx / length * 0.09 * step
    ax.annotate("", xy=(x1 + ox, y1 + oy), xytext=(x0 + ox, y0 + oy),
                arrowprops=dict(arrowstyle="-|>", lw=1.0, color=color, linestyle="--" if dashed else "-"))
    if label:
        ax.text((x0 + x1) / 2 + ox * 2.4, (y0 + y1) / 2 + oy * 2.4, label, ha="center", va="center",
                fontsize=7, color=color)


def straight_channel(ax, a, b, label, step):
    """A channel between grid neighbours a and b."""
    (x0, y0), (x1, y1) = a, b
    dx, dy = x1 - x0, y1 - y0
    length = (dx * dx + dy * dy) ** 0.5
    f = 0.22 * step / length
    arrow(ax, (x0 + dx * f, y0 + dy * f), (x1 - dx * f, y1 - dy * f), step, label, "black")


def wrap_channel(ax, a, b, label, step):
    """A wrap-around channel from a (at one edge of the grid) to b (at the
    other): a dashed stub leaving a outwards, labelled with its classes and
    the node it reaches, and a dashed stub entering b from outside."""
    (x0, y0), (x1, y1) = a, b
    dx, dy = x0 - x1, y0 - y1
    length = (dx * dx + dy * dy) ** 0.5
    ux, uy = dx / length * step, dy / length * step  # the direction of travel, one grid step long
    arrow(ax, (x0 + 0.22 * ux, y0 + 0.22 * uy), (x0 + 0.62 * ux, y0 + 0.62 * uy), step, label, "tab:red", True)
    arrow(ax, (x1 - 0.62 * ux, y1 - 0.62 * uy), (x1 - 0.22 * ux, y1 - 0.22 * uy), step, "", "tab:red", True)


def draw(title, nodes, edges, outputs, show_title=True):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    step = grid_step(nodes)
    xs = [x for _, x, _ in nodes.values()]
    ys = [y for _, _, y in nodes.values()]
    fig, ax = plt.subplots(figsize=(1.6 + 1.5 * (max(xs) - min(xs)) / step, 1.6 + 1.5 * (max(ys) - min(ys)) / step))
    for src, dst, label, wrap in edges:
        a, b = nodes[src][1:], nodes[dst][1:]
        (wrap_channel if wrap else straight_channel)(ax, a, b, label, step)
    for label, x, y in nodes.values():
        ax.add_patch(plt.Circle((x, y), 0.2 * step, fill=True, facecolor="white", edgecolor="black", lw=1.0,
                                zorder=3))
        ax.text(x, y, label, ha="center", va="center", fontsize=8, zorder=4)
    pad = 0.75 * step
    ax.set_xlim(min(xs) - pad, max(xs) + pad)
    ax.set_ylim(min(ys) - pad, max(ys) + pad)
    ax.set_aspect("equal")
    ax.axis("off")
    if show_title and title:
        ax.set_title(title, fontsize=9)
    fig.tight_layout()
    for out in outputs:
        save_figure(fig, out, dpi=110)
    plt.close(fig)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dot", help="DOT file written by `wormcast topo export NETWORK --routing R`")
    ap.add_argument("-o", "--output", action="append", required=True,
                    help="output file, format from its extension (.png, .svg); repeatable")
    ap.add_argument("--title", help="title (default: the DOT file's comment line)")
    args = ap.parse_args(argv)
    try:
        with open(args.dot, encoding="utf-8") as f:
            text = f.read()
        title, nodes, edges = parse_dot(text, args.dot)
        for out in args.output:
            ext = os.path.splitext(out)[1].lower()
            if ext not in (".png", ".svg", ".pdf"):
                raise ChannelError(f"{out}: unknown output format '{ext}' (use .png, .svg or .pdf)")
        draw(args.title if args.title is not None else title, nodes, edges, args.output)
    except (OSError, ChannelError) as e:
        print(f"plot_channels.py: error: {e}", file=sys.stderr)
        return 1
    except ImportError as e:
        rerun_with_matplotlib()   # python3 first on PATH may lack Debian's matplotlib
        print(f"plot_channels.py: error: matplotlib is not available to {sys.executable} ({e}); on Debian: "
              "apt-get install python3-matplotlib and run /usr/bin/python3", file=sys.stderr)
        return 1
    for out in args.output:
        print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
