#!/usr/bin/env python3
"""Random single-byte changes in the data sections of eventlogs, each read by an hp2ps
binary, compared with its reading of the undamaged log (issue 18's experiment, to compare
a binary before and after a change; tests/eventlog_damage.rs is the test).

usage: scripts/eventlog-damage-flips.py BINARY SEED N LOG...

Each of the N rounds picks a log (seeded), a byte after its `datb` and a non-zero XOR
mask, and runs `BINARY --summary=json` on the damaged copy. A round counts as: unchanged
(as many censuses as the undamaged log), one census lost, several lost, or all lost (no
profile); "false reason" counts the refusals that say "the run made no heap profile",
"announced" the losses with a message the undamaged reading has not, "crash" a death by
signal. Prints one JSON line.
"""
import json
import os
import random
import subprocess
import sys
import tempfile


def read(binary, path):
    p = subprocess.run([binary, "--summary=json", path], capture_output=True, timeout=120)
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode != 0:
        return None, err, p.returncode
    return json.loads(p.stdout)["samples"], err, 0


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    binary, seed, n, logs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
    rng = random.Random(seed)
    whole = {log: read(binary, log) for log in logs}
    counts = dict.fromkeys(
        ["unchanged", "one", "several", "all", "false_reason", "announced", "silent", "crash"], 0
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "damaged.eventlog")
        for _ in range(n):
            log = rng.choice(logs)
            b = bytearray(open(log, "rb").read())
            data = b.find(b"datb") + 4
            at = rng.randrange(data, len(b))
            b[at] ^= rng.randrange(1, 256)
            open(path, "wb").write(b)
            samples, err, rc = read(binary, path)
            if rc < 0:
                counts["crash"] += 1
            before, before_err, _ = whole[log]
            if samples is None:
                counts["all"] += 1
                counts["false_reason"] += "made no heap profile" in err
                continue
            lost = before - samples
            counts["unchanged" if lost <= 0 else "one" if lost == 1 else "several"] += 1
            if lost > 0:
                counts["announced" if err.strip() and err != before_err else "silent"] += 1
    print(json.dumps({"binary": binary, "seed": seed, "rounds": n, "logs": len(logs), **counts}))


main()
