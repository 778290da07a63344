#!/usr/bin/env python3
"""A GTKWave save file (.gtkw) for a wormcast waveform (docs/user_guide.md,
"Waveforms"): every traced signal of the VCD, grouped by module and port
under a comment row naming it, one-bit signals in binary and counters in
decimal. Open both with `gtkwave WAVE.vcd WAVE.gtkw`.

    python3 scripts/gtkw_save.py WAVE.vcd -o WAVE.gtkw [--title TEXT] [--no-dumpfile]
    python3 scripts/gtkw_save.py WAVE.vcd --check SAVE.gtkw

--check reports the signals of an existing save file that the waveform does
not have (a save file from docs/gtkwave/ against your own trace), exit 1 if
any.

Standard library only.
"""
import argparse
import os
import sys

BIN, DEC, BLANK = "@28", "@24", "@200"


class VcdError(Exception):
    pass


def read_signals(path):
    """The (scope path, name, width) of every $var in the VCD's header, in order."""
    signals, scopes = [], []
    try:
        with open(path, encoding="ascii", errors="replace") as f:
            for lineno, line in enumerate(f, 1):
                words = line.split()
                if not words:
                    continue
                if words[0] == "$scope" and len(words) >= 3:
                    scopes.append(words[2])
                elif words[0] == "$upscope":
                    if not scopes:
                        raise VcdError(f"{path}:{lineno}: $upscope without a $scope")
                    scopes.pop()
                elif words[0] == "$var":
                    if len(words) < 5:
                        raise VcdError(f"{path}:{lineno}: a $var line needs type, width, id and name: {line.strip()}")
                    try:
                        width = int(words[2])
                    except ValueError:
                        raise VcdError(f"{path}:{lineno}: $var width '{words[2]}' is not a number")
                    name = words[4]
                    if len(words) > 5 and words[5].startswith("["):
                        name += words[5]
                    signals.append((tuple(scopes), name, width))
                elif words[0] == "$enddefinitions":
                    return signals
    except OSError as e:
        raise VcdError(f"{path}: {e.strerror}")
    raise VcdError(f"{path}: no $enddefinitions: not a VCD file, or cut short")


def full_name(scope, name):
    return ".".join(scope + (name,))


def save_text(vcd, signals, title, dumpfile=True):
    lines = [f"[*] {title}"]
    if dumpfile:
        lines.append(f'[dumpfile] "{os.path.abspath(vcd)}"')
    lines.append("[timestart] 0")
    opened = set()
    for scope, _, _ in signals:
        for i in range(1, len(scope) + 1):
            if scope[:i] not in opened:
                opened.add(scope[:i])
                lines.append("[treeopen] " + ".".join(scope[:i]) + ".")
    last = None
    for scope, name, width in signals:
        if scope != last:
            lines += [BLANK, "-" + ".".join(scope[1:])]   # a comment row: the module (and port)
            last = scope
        lines += [BIN if width == 1 else DEC, full_name(scope, name)]
    return "\n".join(lines) + "\n"


def saved_signals(path):
    """The signal rows of a save file (not its comment rows or settings)."""
    try:
        with open(path, encoding="utf-8") as f:
            rows = [l.strip() for l in f]
    except OSError as e:
        raise VcdError(f"{path}: {e.strerror}")
    return [r for r in rows if r and r[0] not in "[@-*"]


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("vcd")
    p.add_argument("-o", "--output", help="the save file to write")
    p.add_argument("--title", help="its first line (default: the waveform's name)")
    p.add_argument("--no-dumpfile", action="store_true",
                   help="leave the waveform's path out (give it to gtkwave: gtkwave WAVE.vcd SAVE.gtkw)")
    p.add_argument("--check", metavar="SAVE", help="report the save file's signals the waveform lacks")
    a = p.parse_args(argv)
    if bool(a.output) == bool(a.check):
        p.error("give -o SAVE.gtkw to write a save file, or --check SAVE.gtkw to check one")
    try:
        signals = read_signals(a.vcd)
        if not signals:
            raise VcdError(f"{a.vcd}: no signals traced")
        if a.check:
            have = {full_name(s, n) for s, n, _ in signals}
            missing = [s for s in saved_signals(a.check) if s not in have]
            for s in missing:
                print(f"{a.check}: {s} is not in {a.vcd}", file=sys.stderr)
            print(f"{a.check}: {len(saved_signals(a.check)) - len(missing)} signals found, {len(missing)} missing")
            return 1 if missing else 0
        text = save_text(a.vcd, signals, a.title or f"wormcast waveform {os.path.basename(a.vcd)}",
                         not a.no_dumpfile)
        tmp = a.output + ".tmp"
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, a.output)
        except OSError as e:
            raise VcdError(f"{a.output}: cannot write: {e.strerror}")
        print(f"{a.output}: {len(signals)} signals of {a.vcd}")
        return 0
    except VcdError as e:
        print(f"gtkw_save.py: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
