#!/usr/bin/env python3
"""Seeded mutation fuzz test of wormcast's input surfaces (docs/testing.md).

Mutates four kinds of input and runs the real binary on each mutant:

  experiment  every network kind's and workload's experiment file (switch,
              mesh, torus, hypercube, fat tree, SCI torus; synthetic,
              single_multicast, multicast_load, direct_multicast,
              ib_multicast)               wormcast run FILE --set sim.warmup=500 --set sim.measure=2000 ...
  topology    `wormcast topo generate -o`  wormcast topo show FILE
  sweep       every sweep file of experiments/ (next to copies of their
              experiments)                wormcast sweep --dry-run FILE
  arguments   plan (a scheme of every family) and topo show / export /
              generate command lines      wormcast plan ... / wormcast topo ...

Mutations of files: byte flips, deleted / duplicated / swapped lines, swapped
values, huge and odd numbers, values of the wrong type, truncation,
re-indentation, YAML syntax (anchors, tags, flow collections, documents),
junk keys. Of command lines: a value replaced by an odd number, a wrong type
or junk, an argument deleted, duplicated or swapped, bytes flipped, an
unknown option. One to three per case.

Each run must end within the timeout (no hang), by exiting (no signal, no
sanitizer report) with 0 or 1..3; a file case's non-zero exit must print
`wormcast: error:` on stderr naming the mutated file; an argument case's
exit 1 or 3 must print `wormcast: error:`, and its usage error (2) a message.
Deterministic: the seed fixes every case. A failing case is written to the
--keep directory (default: a temporary one, printed) so it can be rerun by
hand.

Usage: fuzz_loaders.py --wormcast BUILD/wormcast --source SRC [--cases N]
       [--seed S] [--jobs J] [--timeout SECONDS] [--only KIND] [--case ID]
"""
import argparse
import concurrent.futures
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile

from fuzz_common import checked_paths, SANITIZER_EXITS, SANITIZER_MARKS, add_common_arguments, sanitizer_env

# Numbers beyond any sensible range, not numbers, or not whole: every loader
# must reject them (or clamp them harmlessly).
ODD_NUMBERS = ["0", "-1", "-2147483649", "9223372036854775807", "9223372036854775808", "18446744073709551616",
               "99999999999999999999999", "1e308", "-1e308", "1e-320", "nan", ".inf", "-.inf", "0x7fffffff",
               "0.0000001", "3.5", "-0", "65536", "100000", "1e5"]
# Large but possibly legal: a run given these may legitimately simulate for
# hours (sim.warmup: 4294967296), so only the commands that simulate nothing
# (topo show, sweep --dry-run) get them.
LARGE_NUMBERS = ["2147483648", "4294967296", "1e9", "100000000", "9007199254740992", "9007199254740993"]
WRONG_TYPES = ["[1, 2, 3]", "{a: 1}", "\"text\"", "~", "true", "", "[]", "{}", "!!binary aGVsbG8=",
               "*nowhere", "&anchor 5", "|\n  block", "'", "\"unterminated", "- item", "0b101", "yes",
               "12flits", "5ns", "80%", "-5ns", "abc%", "1/0"]
JUNK_LINES = ["unknown_key: 1", "---", "...", "%YAML 1.2", "? complex", "!!map", "\t", "- list_item",
              "[", "{", "}", "]", ": no key", "key: value: other", "&a x: *a", "<<: *a", "#", "\x00",
              "\xff\xfe", "topology: {kind: irregular}", "sim: []", "grid: {}", "zip: {x: [1]}", "trials: -3"]


# --- mutations (each takes and returns the file's text) ---------------------

def lines_of(text):
  return text.split("\n")


def value_lines(ls):
  return [i for i, l in enumerate(ls) if re.match(r"^\s*[^#\s][^:#]*:\s*\S", l)]


def m_byte_flip(r, text):
  b = bytearray(text.encode("utf-8", "surrogateescape"))
  if not b:
    return text
  for _ in range(r.randint(1, 4)):
    i = r.randrange(len(b))
    b[i] = r.choice([b[i] ^ (1 << r.randrange(8)), r.randrange(256), ord(r.choice(":-[]{}#&*!|>'\"%@`,? \t\n"))])
  return b.decode("utf-8", "surrogateescape")


def m_delete_line(r, text):
  ls = lines_of(text)
  del ls[r.randrange(len(ls))]
  return "\n".join(ls)


def m_duplicate_line(r, text):
  ls = lines_of(text)
  i = r.randrange(len(ls))
  ls.insert(r.randrange(len(ls) + 1), ls[i])
  return "\n".join(ls)


def m_swap_lines(r, text):
  ls = lines_of(text)
  i, j = r.randrange(len(ls)), r.randrange(len(ls))
  ls[i], ls[j] = ls[j], ls[i]
  return "\n".join(ls)


def split_value(line):
  m = re.match(r"^(\s*[^:#]*:\s*)(.*?)(\s*#.*)?$", line)
  return (m.group(1), m.group(2), m.group(3) or "") if m else None


def section_of(ls, i):
  while i > 0 and ls[i][:1] in (" ", "\t"):
    i -= 1
  return i


def m_swap_values(r, text):
  # Two values of one section in experiment files (topology.switches <->
  # topology.nodes, sim.warmup <-> sim.drain_limit, ...): across sections a
  # swap can make a legal but enormous network (topology.switches: 50000).
  ls = lines_of(text)
  vl = value_lines(ls)
  if len(vl) < 2:
    return text
  i, j = r.sample(vl, 2)
  if not r.large_ok:
    same = [k for k in vl if k != i and section_of(ls, k) == section_of(ls, i)]
    if not same:
      return text
    j = r.choice(same)
  a, b = split_value(ls[i]), split_value(ls[j])
  if not a or not b:
    return text
  ls[i] = a[0] + b[1] + a[2]
  ls[j] = b[0] + a[1] + b[2]
  return "\n".join(ls)


def numbers(r):
  return ODD_NUMBERS + (LARGE_NUMBERS if r.large_ok else [])


def m_odd_number(r, text):
  nums = list(re.finditer(r"-?\d+(\.\d+)?", text))
  if not nums:
    return text
  m = r.choice(nums)
  return text[:m.start()] + r.choice(numbers(r)) + text[m.end():]


def m_wrong_type(r, text):
  ls = lines_of(text)
  vl = value_lines(ls)
  if not vl:
    return text
  i = r.choice(vl)
  p = split_value(ls[i])
  if p:
    ls[i] = p[0] + r.choice(WRONG_TYPES + numbers(r)) + p[2]
  return "\n".join(ls)


def m_truncate(r, text):
  return text[:r.randrange(len(text) + 1)]


def m_reindent(r, text):
  ls = lines_of(text)
  i = r.randrange(len(ls))
  if ls[i].startswith(" ") and r.random() < 0.5:
    ls[i] = ls[i][r.randint(1, len(ls[i]) - len(ls[i].lstrip(" "))):]
  else:
    ls[i] = " " * r.choice([1, 2, 3, 4, 8]) + ls[i]
  return "\n".join(ls)


def m_junk_line(r, text):
  ls = lines_of(text)
  ls.insert(r.randrange(len(ls) + 1), r.choice(JUNK_LINES))
  return "\n".join(ls)


def m_list_blowup(r, text):
  # A flow list made long, or a list item repeated: large but legal inputs.
  ls = lines_of(text)
  i = r.randrange(len(ls))
  if "[" in ls[i] and "]" in ls[i]:
    inner = ls[i][ls[i].index("[") + 1:ls[i].rindex("]")]
    ls[i] = ls[i][:ls[i].index("[") + 1] + ", ".join([inner] * r.randint(2, 6)) + ls[i][ls[i].rindex("]"):]
  elif ls[i].lstrip().startswith("- "):
    ls[i:i + 1] = [ls[i]] * r.randint(2, 50)
  return "\n".join(ls)


MUTATIONS = [m_byte_flip, m_delete_line, m_duplicate_line, m_swap_lines, m_swap_values, m_odd_number,
             m_odd_number, m_wrong_type, m_wrong_type, m_truncate, m_reindent, m_junk_line, m_list_blowup]


def mutate(r, text):
  names = []
  for _ in range(r.choice([1, 1, 1, 2, 2, 3])):
    m = r.choice(MUTATIONS)
    text = m(r, text)
    names.append(m.__name__[2:])
  return text, names


# --- command lines (arguments) ---------------------------------------------

# Unmutated, each exits 0: a scheme of every plan family on its network kind,
# and the topo subcommands that read specs.
ARGUMENTS = [
    ["plan", "kbinomial", "--topology", "irregular:8x8p32s1", "--random", "7", "--packets", "2"],
    ["plan", "ssr", "--topology", "irregular:8x8p32s1", "--source", "3", "--dests", "1,5,9,20"],
    ["plan", "tree", "--topology", "irregular:8x8p32s1", "--random", "6", "--json"],
    ["plan", "utorus", "--topology", "torus:8x8:uni", "--random", "10", "--json"],
    ["plan", "ucube", "--topology", "hypercube:6", "--random", "12", "--port-model", "one"],
    ["plan", "mutorus", "--topology", "torus:8x8:uni", "--random", "16", "--r", "4"],
    ["plan", "sci-mdtorus", "--topology", "torus:4x4:uni", "--random", "5"],
    ["plan", "ib-opensm", "--topology", "ibft:4,2", "--random", "5"],
    ["topo", "show", "mesh:8x8"],
    ["topo", "show", "irregular:8x8p32s1c0.8"],
    ["topo", "export", "--format", "anynet", "irregular:8x8p32s2"],
    ["topo", "generate", "--switches", "8", "--ports", "8", "--nodes", "32", "--seed", "3"],
]
ARG_JUNK = ["--bogus", "--json", "--topology", "-", "--", "", "x" * 300, "irregular:", "torus:0x0:uni", "ibft:1,1",
            "hypercube:99", "mesh:8", "--random", "1,2,3", "(0,1),(2", "\xff", "--dests", "-1"]


def a_value(r, args):
  i = r.randrange(1, len(args))
  args[i] = r.choice(ODD_NUMBERS + WRONG_TYPES + ARG_JUNK)


def a_delete(r, args):
  if len(args) > 2:
    del args[r.randrange(1, len(args))]


def a_duplicate(r, args):
  i = r.randrange(1, len(args))
  args.insert(r.randrange(1, len(args) + 1), args[i])


def a_swap(r, args):
  i, j = r.randrange(1, len(args)), r.randrange(1, len(args))
  args[i], args[j] = args[j], args[i]


def a_byte_flip(r, args):
  i = r.randrange(1, len(args))
  args[i] = m_byte_flip(r, args[i]).replace("\x00", "")   # argv cannot hold NUL


def a_option(r, args):
  args.insert(r.randrange(1, len(args) + 1), r.choice(ARG_JUNK))


ARG_MUTATIONS = [a_value, a_value, a_delete, a_duplicate, a_swap, a_byte_flip, a_option]


def mutate_arguments(r, args):
  args, names = list(args), []
  for _ in range(r.choice([1, 1, 1, 2, 2, 3])):
    m = r.choice(ARG_MUTATIONS)
    m(r, args)
    names.append(m.__name__[2:])
  return args, names


# --- cases -------------------------------------------------------------------

# Experiment files of every network kind and workload (under experiments/).
# Their names are distinct: the copies sit side by side in the work folder,
# where the sweeps' `experiment: ../NAME.yaml` finds them.
EXPERIMENTS = ["default_unicast.yaml", "direct_mesh_8x8.yaml", "direct_torus_8x8.yaml", "seed000/multicast_load.yaml",
               "seed000/single_multicast.yaml", "seed001/utorus.yaml", "seed001/hypercube.yaml",
               "seed001/path_torus.yaml", "seed003/ib_fat_tree.yaml", "seed004/sci_torus.yaml"]
SWEEP_DIRS = ["sweeps", "seed000/sweeps", "seed001/sweeps", "seed003/sweeps", "seed004/sweeps"]
KINDS = ("experiment", "topology", "sweep", "arguments")

class Case:
  def __init__(self, cid, kind, names, text):
    self.cid, self.kind, self.names, self.text = cid, kind, names, text


def make_cases(args, seeds):
  r = random.Random(args.seed)
  kinds = [k for k in KINDS if not args.only or k == args.only]
  cases = []
  for n in range(args.cases):
    kind = kinds[n % len(kinds)]
    if kind == "arguments":
      base = ARGUMENTS[r.randrange(len(ARGUMENTS))]
      argv, names = mutate_arguments(r, base)
      cases.append(Case(n, kind, [" ".join(base[:2])] + names, argv))
      continue
    if kind in ("sweep", "experiment"):
      name, base = seeds[kind][r.randrange(len(seeds[kind]))]
    else:
      name, base = kind, seeds[kind]
    r.large_ok = kind != "experiment"
    text, names = mutate(r, base)
    case = Case(n, kind, [name] + names, text)
    case.name = name
    cases.append(case)
  return cases


def command(args, case, work):
  wc = args.wormcast
  if case.kind == "experiment":
    f = os.path.join(work, "experiment_%04d_%s.yaml" % (case.cid, case.name))
    cmd = [wc, "run", f, "--set", "sim.warmup=500", "--set", "sim.measure=2000", "--no-progress", "--out",
           os.path.join(work, "out_%04d" % case.cid)]
  elif case.kind == "topology":
    f = os.path.join(work, "topology_%04d.yaml" % case.cid)
    cmd = [wc, "topo", "show", f]
  elif case.kind == "arguments":
    return None, [wc] + case.text
  else:
    # Next to copies of the experiments, as in experiments/*/sweeps/ (`experiment: ../default_unicast.yaml`).
    f = os.path.join(work, "sweeps", "sweep_%04d.yaml" % case.cid)
    cmd = [wc, "sweep", "--dry-run", f, "--out", os.path.join(work, "out_%04d" % case.cid)]
  return f, cmd


def check(case, f, rc, out, err, timed_out):
  if timed_out:
    return "no exit within the timeout (hang, or work far too large for the input)"
  if any(mark in err for mark in SANITIZER_MARKS):
    return "sanitizer report"
  if rc < 0:
    return "killed by signal %d (%s)" % (-rc, signal.Signals(-rc).name if -rc in signal.Signals._value2member_map_ else "?")
  if rc in SANITIZER_EXITS:
    return "sanitizer exit code %d" % rc
  if rc not in (0, 1, 2, 3):
    return "exit code %d (expected 0 or 1..3)" % rc
  if f is None:   # a command line: usage errors (2) come from the argument parser
    if rc in (1, 3) and "wormcast: error:" not in err:
      return "exit %d without 'wormcast: error:' on stderr" % rc
    if rc == 2 and not err.strip():
      return "usage error (exit 2) with nothing on stderr"
    return None
  if rc != 0:
    if "wormcast: error:" not in err:
      return "exit %d without 'wormcast: error:' on stderr" % rc
    if f not in err and os.path.basename(f) not in err:
      return "exit %d: the error does not name the file" % rc
  return None


def run_case(args, case, work):
  f, cmd = command(args, case, work)
  if f is not None:
    with open(f, "w", encoding="utf-8", errors="surrogateescape") as fh:
      fh.write(case.text)
  p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=sanitizer_env(), cwd=work,
                       start_new_session=True)
  timed_out = False
  try:
    out, err = p.communicate(timeout=args.timeout)
  except subprocess.TimeoutExpired:
    timed_out = True
    os.killpg(p.pid, signal.SIGKILL)
    out, err = p.communicate()
  out = out.decode("utf-8", "replace")
  err = err.decode("utf-8", "replace")
  problem = check(case, f, p.returncode, out, err, timed_out)
  shutil.rmtree(os.path.join(work, "out_%04d" % case.cid), ignore_errors=True)
  return case, f, cmd, p.returncode, err, problem


def main():
  ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  add_common_arguments(ap, cases=300, seed=20261122, timeout=30.0, source_help="the source tree (experiments/)",
                       keep_help="directory for the mutated files (default: temporary, removed when all pass)")
  ap.add_argument("--only", choices=list(KINDS))
  args = ap.parse_args()
  checked_paths(ap, args)

  work = os.path.abspath(args.keep) if args.keep else tempfile.mkdtemp(prefix="wormcast_fuzz_")
  os.makedirs(os.path.join(work, "sweeps"), exist_ok=True)
  experiments = os.path.join(args.source, "experiments")
  for e in EXPERIMENTS:
    shutil.copy(os.path.join(experiments, e), os.path.join(work, os.path.basename(e)))
  topo_file = os.path.join(work, "generated_topology.yaml")
  subprocess.run([args.wormcast, "topo", "generate", "--switches", "8", "--ports", "8", "--nodes", "32",
                  "--seed", "3", "-o", topo_file], check=True)

  def read(path):
    with open(path, encoding="utf-8") as fh:
      return fh.read()

  seeds = {
      "experiment": [(os.path.splitext(os.path.basename(e))[0], read(os.path.join(experiments, e)))
                     for e in EXPERIMENTS],
      "topology": read(topo_file),
      "sweep": [(d.replace("/", "_") + "_" + os.path.splitext(n)[0], read(os.path.join(experiments, d, n)))
                for d in SWEEP_DIRS for n in sorted(os.listdir(os.path.join(experiments, d))) if n.endswith(".yaml")],
  }
  cases = make_cases(args, seeds)
  if args.case:
    cases = [c for c in cases if c.cid in args.case]

  failures = []
  counts = {}
  with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
    for case, f, cmd, rc, err, problem in pool.map(lambda c: run_case(args, c, work), cases):
      counts[(case.kind, rc)] = counts.get((case.kind, rc), 0) + 1
      if problem:
        failures.append(case.cid)
        print("FAIL case %d (%s: %s): %s" % (case.cid, case.kind, "+".join(case.names), problem))
        print("  command: %s" % " ".join(repr(a) if not a or " " in a else a for a in cmd))
        tail = "\n".join(err.strip().split("\n")[-12:])
        print("  stderr (last lines):\n    " + tail.replace("\n", "\n    "))
  summary = ", ".join("%s exit %s: %d" % (k, rc, n) for (k, rc), n in sorted(counts.items()))
  print("fuzz_loaders: seed %d, %d cases (%s)" % (args.seed, len(cases), summary))
  if failures:
    print("fuzz_loaders: %d FAILED (case ids %s); mutated files kept in %s" %
          (len(failures), " ".join(map(str, failures)), work))
    return 1
  if not args.keep:
    shutil.rmtree(work, ignore_errors=True)
  print("fuzz_loaders: all passed")
  return 0


if __name__ == "__main__":
  sys.exit(main())
