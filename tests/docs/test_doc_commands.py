#!/usr/bin/env python3
"""ctest "docs: ...": every command written in the README, a docs page or a
sweep file's comments runs as written, on the files it names.

Commands are the lines of the pages' code blocks (continued with a
backslash) and the comment lines of the files under experiments/ that start
with `build/...`, `wormcast ...` or `python3 scripts/...`. Each page runs in
a fresh folder of its own, in the page's order, where `build`,
`experiments`, `scripts`, `docs`, `examples` and `topologies` lead to the
real ones; a YAML block right after a `<!-- file: NAME -->` line is written
there as NAME first (the README's walkthrough files). What a command would
take long to do is checked instead of done:

* `wormcast run EXP ...` is validated as a run validates it: `wormcast stats
  EXP` with the same --set and --seed (every key, value and plug-in is
  checked, the network is built);
* `wormcast sweep SWEEP ...` gets --dry-run (every point validated);
* `wormcast bench` gets --quick;
* `python3 scripts/X.py ...` runs `--help` (its inputs are a sweep's CSVs);
* set-up, build and test scripts, gtkwave and GNU parallel are not run.
Everything else (plan, topo, params, stats, the testbenches, the examples)
runs as written. A synopsis (`wormcast topo show FILE [--routing R]`) is not
a command and is not run.

    test_doc_commands.py BUILD_DIR SOURCE_DIR
"""
import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile

PREFIX = re.compile(r"^(build/\S+|wormcast\s|python3 scripts/)")
SUBCOMMANDS = {"run", "stats", "topo", "params", "plan", "bench", "sweep"}
LINKS = ("experiments", "scripts", "docs", "examples", "topologies")
NOT_RUN = {"bash", "gtkwave", "parallel", "sh"}
SEPARATORS = {"|", "&&", ";"}
REDIRECTS = {">", "2>", "<", ">>", "2>&1"}


class Joiner:
    """Lines continued with a backslash, joined; the commands among them go to `items`."""

    def __init__(self, items):
        self.items, self.cont = items, ""

    def take(self, i, text):
        text = self.cont + text if self.cont else text
        if text.endswith("\\"):
            self.cont = text[:-1] + " "
            return
        self.cont = ""
        if PREFIX.match(text):
            self.items.append((i, "cmd", text))

    def reset(self):
        self.cont = ""


def page_items(path):
    """(line, kind, text): kind 'cmd' for a command, 'file:NAME' for a YAML block to write."""
    items, in_block, pending_file, block, start = [], False, None, [], 0
    joiner = Joiner(items)
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for i, line in enumerate(lines, 1):
        m = re.match(r"\s*<!--\s*file:\s*(\S+)\s*-->", line)
        if m and not in_block:
            pending_file = m.group(1)
            continue
        if line.lstrip().startswith("```"):
            if in_block and block is not None and pending_file and block_kind == "file":
                items.append((start, "file:" + pending_file, "\n".join(block) + "\n"))
                pending_file = None
            in_block = not in_block
            block, start = [], i
            block_kind = "file" if in_block and pending_file else "code"
            continue
        if not in_block:
            continue
        if block_kind == "file":
            block.append(line)
            continue
        joiner.take(i, line.strip())
    return items


def comment_items(path):
    items = []
    joiner = Joiner(items)
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            m = re.match(r"\s*#\s*(.*)$", line)
            if m:
                joiner.take(i, m.group(1).strip())
            else:
                joiner.reset()
    return items


def first_command(text):
    """The words of each command of the line (split at && and ;, up to a pipe), without redirections."""
    words = shlex.split(text, comments=True)
    commands, cur, skip = [], [], False
    for w in words:
        if w in SEPARATORS:
            if cur:
                commands.append(cur)
            cur = []
            skip = w == "|"   # the rest of a pipeline is another tool
            continue
        if skip:
            continue
        if w in REDIRECTS:
            skip = w != "2>&1"
            continue
        cur.append(w)
    if cur:
        commands.append(cur)
    # after a pipe, nothing more of ours runs; after redirection only the target was skipped
    return [c for c in commands if c]


def take_option(words, name, has_value):
    out, i, values = [], 0, []
    while i < len(words):
        w = words[i]
        if w == name and has_value and i + 1 < len(words):
            values.append(words[i + 1])
            i += 2
            continue
        if w.startswith(name + "=") and has_value:
            values.append(w.split("=", 1)[1])
            i += 1
            continue
        if w == name and not has_value:
            values.append(True)
            i += 1
            continue
        out.append(w)
        i += 1
    return out, values


# A synopsis, not a command: optional parts in brackets, or a placeholder
# in capitals (FILE, EXPERIMENT.yaml, SCHEME).
PLACEHOLDER = re.compile(r"^(\[.*|[A-Z][A-Z_]+(\.[a-z]+)?\]?\.*)$")


def synopsis(words):
    return any(PLACEHOLDER.match(w) for w in words[1:])


def plan(words):
    """What to run for one command's words, or None when it is not run."""
    if synopsis(words):
        return None
    if words[0] == "wormcast":
        words = ["build/wormcast"] + words[1:]
    prog = words[0]
    if prog in NOT_RUN or prog == "cd":
        return None
    if prog == "python3":
        return ["python3", words[1], "--help"] if len(words) > 1 and words[1].startswith("scripts/") else None
    if prog != "build/wormcast":
        return words if prog.startswith("build/") else None
    if len(words) < 2 or words[1] not in SUBCOMMANDS:
        return None   # program output in a code block ("wormcast 0.1.0 — ...")
    sub = words[1]
    if sub == "run":
        rest = words[2:]
        for opt in ("--out", "--vcd"):
            rest, _ = take_option(rest, opt, True)
        rest, filters = take_option(rest, "--vcd-filter", True)
        rest, seeds = take_option(rest, "--seed", True)
        for flag in ("--force", "--progress", "--no-progress"):
            rest, _ = take_option(rest, flag, False)
        cmd = ["build/wormcast", "stats"] + rest + [w for s in seeds for w in ("--set", "seed=" + s)]
        return cmd
    if sub == "sweep":
        rest = words[2:]
        for opt in ("-j", "--jobs", "--slurm-args"):
            rest, _ = take_option(rest, opt, True)
        for flag in ("--slurm", "--emit-jobs", "--force", "--dry-run"):
            rest, _ = take_option(rest, flag, False)
        return ["build/wormcast", "sweep"] + rest + ["--dry-run"]
    if sub == "bench" and "--quick" not in words:
        return words + ["--quick"]
    return words


def run_page(items, where, build, src, failures, counts):
    with tempfile.TemporaryDirectory() as cwd:
        os.symlink(build, os.path.join(cwd, "build"))
        for name in LINKS:
            os.symlink(os.path.join(src, name), os.path.join(cwd, name))
        for line, kind, text in items:
            if kind.startswith("file:"):
                with open(os.path.join(cwd, kind[5:]), "w") as f:
                    f.write(text)
                continue
            try:
                commands = first_command(text)
            except ValueError as e:
                failures.append(f"{where}:{line}: cannot read the command ({e}): {text}")
                continue
            for words in commands:
                cmd = plan(words)
                if cmd is None:
                    counts["not run"] += 1
                    continue
                try:
                    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=300)
                    code, out = r.returncode, r.stdout + r.stderr
                except subprocess.TimeoutExpired:
                    code, out = -1, "timed out after 300 s"
                except OSError as e:
                    code, out = -1, str(e)
                counts["run"] += 1
                if code != 0:
                    failures.append(f"{where}:{line}: {text}\n    ran: {' '.join(shlex.quote(c) for c in cmd)}\n"
                                    f"    exit {code}: {out.strip()[-600:]}")


def main():
    build, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    failures, counts = [], {"run": 0, "not run": 0}
    pages = [os.path.join(src, "README.md")] + sorted(glob.glob(os.path.join(src, "docs", "*.md")))
    for page in pages:
        run_page(page_items(page), os.path.relpath(page, src), build, src, failures, counts)
    for y in sorted(glob.glob(os.path.join(src, "experiments", "**", "*.yaml"), recursive=True)):
        items = comment_items(y)
        if items:
            run_page(items, os.path.relpath(y, src), build, src, failures, counts)
    for f in failures:
        print("FAILED:", f)
    print(f"{counts['run']} commands run, {counts['not run']} not run (synopses; set-up, build, gtkwave, parallel), "
          f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
