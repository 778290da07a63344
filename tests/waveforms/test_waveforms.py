#!/usr/bin/env python3
"""ctest "waveforms: ...": the waveform of each network family, as the user
guide's commands write it (docs/user_guide.md, "Waveforms"):

* each save file in docs/gtkwave/ is what scripts/gtkw_save.py writes for
  its command's VCD (so every signal it shows exists);
* a unidirectional torus traces no minus ports;
* on every output of a router and a switch, each packet that starts (head)
  also ends (tail): as many heads as tails, up to the packets still
  leaving when the run ended;
* GTKWave itself (Debian's gtkwave under xvfb-run, installed here if
  missing) opens each VCD with its save file and displays every signal;
* gtkw_save.py's errors: a file that is not a VCD, a missing file.

    test_waveforms.py WORMCAST_BINARY SOURCE_DIR
"""
import os
import subprocess
import sys
import tempfile

# save file -> (experiment, settings, VCD filter): the commands of the user guide.
CASES = {
    "switch.gtkw": ("experiments/default_unicast.yaml", [], "net.sw0"),
    "fat_tree.gtkw": ("experiments/seed003/ib_fat_tree.yaml", ["traffic.trials=2"], "net.sw4"),
    "direct.gtkw": ("experiments/direct_torus_8x8.yaml", [], "net.router9"),
    "processor.gtkw": ("experiments/seed001/path_torus.yaml", ["traffic.trials=2"], "net.node9*"),
    "host_ni.gtkw": ("experiments/default_unicast.yaml", ["node.model=host_ni", "traffic.load=0.005"], "net.node5*"),
}
SHORT = ["sim.warmup=0", "sim.measure=3000"]


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def wave(wormcast, src, tmp, name, experiment, settings, vcd_filter):
    vcd = os.path.join(tmp, name + ".vcd")
    cmd = [wormcast, "run", os.path.join(src, experiment), "--vcd", vcd, "--vcd-filter", vcd_filter,
           "--out", os.path.join(tmp, name), "--no-progress"]
    for s in SHORT + settings:
        cmd += ["--set", s]
    code, text = run(cmd)
    if code != 0:
        raise AssertionError(f"{' '.join(cmd)}: exit {code}\n{text}")
    return vcd


def changes(vcd):
    """signal full name -> list of (time, value) for the one-bit signals."""
    ids, scopes, out = {}, [], {}
    with open(vcd) as f:
        lines = iter(f)
        for line in lines:
            w = line.split()
            if not w:
                continue
            if w[0] == "$scope":
                scopes.append(w[2])
            elif w[0] == "$upscope":
                scopes.pop()
            elif w[0] == "$var" and w[2] == "1":
                ids[w[3]] = ".".join(scopes + [w[4]])
            elif w[0] == "$enddefinitions":
                break
        t = 0
        for line in lines:
            line = line.strip()
            if line.startswith("#"):
                t = int(line[1:])
            elif line[:1] in "01" and line[1:] in ids:
                out.setdefault(ids[line[1:]], []).append((t, int(line[0])))
    return out


GTKWAVE_PACKAGES = ["gtkwave", "xvfb", "xauth"]


def ensure_gtkwave():
    import shutil
    if shutil.which("gtkwave") and shutil.which("xvfb-run"):
        return
    if os.geteuid() != 0:
        raise AssertionError("gtkwave and xvfb-run are missing and installing them needs root "
                             "(apt-get install gtkwave xvfb xauth)")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    cmd = ["apt-get", "install", "-y", "-q", "--no-install-recommends"] + GTKWAVE_PACKAGES
    if subprocess.run(cmd, env=env, capture_output=True).returncode != 0:
        subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True)
        r = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if r.returncode != 0:
            raise AssertionError("cannot install " + " ".join(GTKWAVE_PACKAGES) + ": " + r.stdout + r.stderr)


def gtkwave_shows(vcd, save, tmp):
    """How many signals GTKWave displays for the VCD with the save file."""
    tcl = os.path.join(tmp, "count.tcl")
    with open(tcl, "w") as f:
        f.write('puts "DISPLAYED [llength [gtkwave::getDisplayedSignals]]"\ngtkwave::/File/Quit\n')
    r = subprocess.run(["xvfb-run", "-a", "gtkwave", "-f", vcd, "-a", save, "-S", tcl],
                       capture_output=True, text=True, timeout=120)
    for line in (r.stdout + r.stderr).splitlines():
        if line.startswith("DISPLAYED "):
            return int(line.split()[1])
    raise AssertionError(f"gtkwave -f {vcd} -a {save}: exit {r.returncode}, no answer:\n{r.stdout}{r.stderr}")


def rising(edges):
    n, last = 0, 0
    for _, v in edges:
        n += v == 1 and last == 0
        last = v
    return n


def check_heads_and_tails(vcd):
    ch = changes(vcd)
    ports = sorted({n.rsplit(".", 1)[0] for n in ch if n.endswith(".head")})
    assert ports, f"{vcd}: no head signals"
    total = 0
    for p in ports:
        heads, tails = rising(ch.get(p + ".head", [])), rising(ch.get(p + ".tail", []))
        # Back-to-back packets keep head or tail at 1 across cycles only for
        # one-flit packets (none here), so each packet is one rising edge of each.
        assert 0 <= heads - tails <= 1, f"{vcd}: {p}: {heads} heads, {tails} tails"
        total += heads
    assert total > 0, f"{vcd}: no packet left any port"


def main():
    wormcast, src = sys.argv[1], sys.argv[2]
    script = os.path.join(src, "scripts", "gtkw_save.py")
    failures = []
    ensure_gtkwave()
    with tempfile.TemporaryDirectory() as tmp:
        for save, (experiment, settings, vcd_filter) in CASES.items():
            try:
                vcd = wave(wormcast, src, tmp, save[:-5], experiment, settings, vcd_filter)
                mine = os.path.join(tmp, save)
                code, text = run([sys.executable, script, vcd, "-o", mine, "--no-dumpfile",
                                  "--title", open(os.path.join(src, "docs", "gtkwave", save)).readline()[4:].strip()])
                assert code == 0, text
                with open(mine) as a, open(os.path.join(src, "docs", "gtkwave", save)) as b:
                    assert a.read() == b.read(), f"docs/gtkwave/{save} differs from what gtkw_save.py writes for {vcd_filter}"
                code, text = run([sys.executable, script, vcd, "--check", os.path.join(src, "docs", "gtkwave", save)])
                assert code == 0 and "0 missing" in text, text
                signals = len([l for l in open(mine) if l.startswith("SystemC.")])
                shown = gtkwave_shows(vcd, os.path.join(src, "docs", "gtkwave", save), tmp)
                assert shown == signals, f"GTKWave shows {shown} of the {signals} signals of docs/gtkwave/{save}"
                if save in ("switch.gtkw", "fat_tree.gtkw", "direct.gtkw"):
                    check_heads_and_tails(vcd)
                print(f"ok: docs/gtkwave/{save} ({vcd_filter} of {experiment})")
            except AssertionError as e:
                failures.append(str(e))
        try:
            vcd = wave(wormcast, src, tmp, "uni", "experiments/direct_torus_8x8.yaml",
                       ["topology.direction=unidirectional", "routing.function=utr"], "net.router9")
            names = set(changes(vcd))
            assert any(".out_d0p." in n for n in names), "the unidirectional torus traces no plus port"
            assert not any("d0m" in n or "d1m" in n for n in names), "a unidirectional torus traces a minus port"
            check_heads_and_tails(vcd)
            print("ok: a unidirectional torus traces its plus ports only")
        except AssertionError as e:
            failures.append(str(e))
        bad = os.path.join(tmp, "not.vcd")
        with open(bad, "w") as f:
            f.write("hello\n")
        for args, want in (([bad, "-o", os.path.join(tmp, "x.gtkw")], "no $enddefinitions"),
                           ([os.path.join(tmp, "missing.vcd"), "-o", os.path.join(tmp, "x.gtkw")], "missing.vcd"),
                           ([vcd, "-o", os.path.join(tmp, "no", "dir", "x.gtkw")], "cannot write")):
            code, text = run([sys.executable, script] + args)
            if code == 0 or want not in text:
                failures.append(f"gtkw_save.py {' '.join(args)}: exit {code}, expected an error with '{want}': {text}")
    for f in failures:
        print("FAILED:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
