"""What the two seeded tests that run the real binary on generated input
share (tests/fuzz/fuzz_loaders.py, tests/fuzz/oracle_soak.py;
docs/testing.md): how a sanitizer report is recognised, the exit codes
that keep it from passing for an ordinary error, and the command-line
options common to both."""
import os

SANITIZER_MARKS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:",
                   "ERROR: UndefinedBehaviorSanitizer", "AddressSanitizer:DEADLYSIGNAL")
# The exit codes sanitizer_env() gives ASan and UBSan reports.
SANITIZER_EXITS = (86, 87)


def sanitizer_env():
  """The environment for a run of the binary: sanitizer exits get codes of
  their own, so they cannot pass for exit 1 (appended: later options win)."""
  env = dict(os.environ)
  env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":exitcode=86").lstrip(":")
  env["UBSAN_OPTIONS"] = (env.get("UBSAN_OPTIONS", "") + ":exitcode=87").lstrip(":")
  return env


def add_common_arguments(ap, cases, seed, timeout, source_help, keep_help):
  """--wormcast, --source, --cases, --seed, --jobs, --timeout, --case and
  --keep, with this test's defaults."""
  ap.add_argument("--wormcast", required=True)
  ap.add_argument("--source", required=True, help=source_help)
  ap.add_argument("--cases", type=int, default=cases)
  ap.add_argument("--seed", type=int, default=seed)
  ap.add_argument("--jobs", type=int, default=2)
  ap.add_argument("--timeout", type=float, default=timeout, help="seconds per run")
  ap.add_argument("--case", type=int, action="append", help="run only this case id (repeatable)")
  ap.add_argument("--keep", help=keep_help)


def checked_paths(ap, args):
  """Absolute --wormcast and --source; a usage error (exit 2) naming the
  option when the binary is not an executable file or the source tree has
  no experiments/."""
  args.wormcast = os.path.abspath(args.wormcast)
  args.source = os.path.abspath(args.source)
  if not (os.path.isfile(args.wormcast) and os.access(args.wormcast, os.X_OK)):
    ap.error("--wormcast %s: not an executable file" % args.wormcast)
  if not os.path.isdir(os.path.join(args.source, "experiments")):
    ap.error("--source %s: not the wormcast source tree (no experiments/)" % args.source)
