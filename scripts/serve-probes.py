#!/usr/bin/env python3
"""The probes of issue 35 against `hp2ps --serve`, on loopback, each against a fresh
server, each bounded in connections and time; prints what each left (the process alive
or its exit, the port answering the page, peak and resident memory, threads,
descriptors). For docs/robustness.md's before/after table:

    scripts/serve-probes.py target/debug/hp2ps
    scripts/serve-probes.py OLD_BUILD/hp2ps
"""
import os
import socket
import subprocess
import sys
import tempfile
import time

BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "target/debug/hp2ps")


def start(limit_fds=None):
    d = tempfile.mkdtemp(prefix="serve-probe-")
    pre = None
    if limit_fds:
        import resource

        def pre():
            resource.setrlimit(resource.RLIMIT_NOFILE, (limit_fds, limit_fds))

    p = subprocess.Popen([BIN, "--serve", "never.eventlog"], cwd=d, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, preexec_fn=pre)
    url = p.stdout.readline().decode().strip()
    rest = url[len("http://"):]
    addr, token = rest.split("/", 1)
    host, port = addr.rsplit(":", 1)
    return p, (host, int(port)), token.strip("/")


def use(pid):
    out = {}
    try:
        for line in open(f"/proc/{pid}/status"):
            k, _, v = line.partition(":")
            if k in ("VmRSS", "VmHWM", "Threads"):
                out[k] = v.split()[0]
        out["fds"] = len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        out["gone"] = True
    return out


def status(addr, head, wait=5):
    try:
        s = socket.create_connection(addr, timeout=wait)
        s.sendall(head)
        got = s.recv(64)
        s.close()
        return got[9:12].decode() if got else "closed"
    except OSError as e:
        return type(e).__name__


def page(addr, token, wait=5):
    t = time.time()
    code = status(addr, f"GET /{token}/ HTTP/1.1\r\nHost: {addr[0]}:{addr[1]}\r\nConnection: close\r\n\r\n".encode(), wait)
    return f"{code} in {time.time() - t:.2f} s"


def end(p):
    p.kill()
    return p.wait()


def report(name, p, addr, token, extra=""):
    alive = p.poll() is None
    print(f"{name}: {'alive' if alive else 'exit ' + str(p.returncode)}; page {page(addr, token) if alive else '-'}; {use(p.pid)} {extra}", flush=True)


def probe_lengths():
    for length in ["1000000000000", "18446744073709551615"]:
        p, addr, token = start()
        code = status(addr, f"GET /{token}/ HTTP/1.1\r\nHost: x\r\nContent-Length: {length}\r\n\r\nabc".encode())
        time.sleep(1)
        report(f"Content-Length: {length} -> {code}", p, addr, token)
        end(p)


def probe_never_sent():
    p, addr, token = start()
    s = socket.create_connection(addr)
    s.sendall(f"GET /{token}/ HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n".encode())
    time.sleep(0.5)
    report("a body of 5000 declared, never sent (held open)", p, addr, token)
    s.close()
    end(p)


def probe_half_sent():
    p, addr, token = start(limit_fds=1024)
    held = []
    for _ in range(600):
        try:
            s = socket.create_connection(addr, timeout=2)
            s.sendall(f"GET /{token}/ HTTP/1.1\r\nHost: x\r\n".encode())
            held.append(s)
        except OSError:
            break
    time.sleep(1)
    during = use(p.pid)
    for s in held:
        s.close()
    time.sleep(1)
    report(f"600 half-sent requests, ulimit -n 1024 ({len(held)} connected; during {during})", p, addr, token)
    end(p)


def probe_http2():
    p, addr, token = start(limit_fds=1024)
    answered = 0
    for _ in range(518):
        try:
            s = socket.create_connection(addr, timeout=0.5)
            s.sendall(b"GET / HTTP/2.0\r\nHost: x\r\n\r\n")
            if s.recv(16):
                answered += 1
            s.close()
        except OSError:
            pass
    time.sleep(1)
    report(f"518 'GET / HTTP/2.0' lines ({answered} answered)", p, addr, token)
    end(p)


def probe_endless():
    p, addr, token = start()
    s = socket.create_connection(addr)
    s.settimeout(2)
    sent, chunk, t = 0, b"a" * 65536, time.time()
    try:
        s.sendall(b"GET /")
        while time.time() - t < 10 and sent < 1 << 30:
            s.sendall(chunk)
            sent += len(chunk)
    except OSError:
        pass
    report(f"an endless request line ({sent >> 20} MiB taken)", p, addr, token)
    end(p)


def probe_pipelined():
    p, addr, token = start()
    s = socket.create_connection(addr)
    s.setblocking(False)
    one = f"GET /{token}/ HTTP/1.1\r\nHost: x\r\n\r\n".encode() * 200
    t, sent = time.time(), 0
    while time.time() - t < 6:
        try:
            sent += s.send(one)
        except BlockingIOError:
            time.sleep(0.05)
        except OSError:
            break
    report(f"pipelined requests never read, 6 s ({sent >> 20} MiB sent)", p, addr, token)
    s.close()
    end(p)


def probe_streams():
    p, addr, token = start()
    held = []
    for _ in range(70):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        s.connect(addr)
        s.sendall(f"GET /{token}/events HTTP/1.1\r\nHost: {addr[0]}\r\n\r\n".encode())
        held.append(s)
    time.sleep(1)
    s = socket.create_connection(addr, timeout=5)
    s.sendall(f"GET /{token}/events HTTP/1.1\r\nHost: {addr[0]}\r\n\r\n".encode())
    try:
        got = s.recv(4096).decode(errors="replace")
        first = got.split("\r\n")[0]
    except OSError as e:
        first = type(e).__name__
    report(f"70 stalled event streams; a 71st viewer got '{first}'", p, addr, token)
    for h in held:
        h.close()
    end(p)


PROBES = [probe_lengths, probe_never_sent, probe_half_sent, probe_http2, probe_endless, probe_pipelined, probe_streams]
# Further arguments: the probes to run (their names without probe_), else all.
for probe in PROBES:
    if len(sys.argv) <= 2 or probe.__name__[len("probe_"):] in sys.argv[2:]:
        probe()
