"""The puzzle server under load, for real: 500 attempts from 50 concurrent clients (threads, one
keep-alive connection each) all stored, with the p99 latency of a post; then the server killed
with SIGKILL in the middle of a load and restarted on the same database: every attempt it
acknowledged is there."""
from __future__ import annotations

import http.client
import threading
import time

import pytest

from served import SMALL, Server, attempt, post, puzzles, rows

CLIENTS = 50
#: The p99 bound asserted: 62-73 ms when this test runs alone on the 2-core machine
#: (docs/server.md has the figures); the full suite runs another test on the other core beside
#: it (0.37 s seen there), so the bound leaves room for that.
P99_BOUND = 0.6


def load(server: Server, tag: str, per_client: int, acked: list, latencies: list,
         killed: threading.Event | None = None) -> float:
    """``CLIENTS`` threads posting ``per_client`` attempts each (solves along the stored
    solutions and abandoned attempts, every one new); the acknowledged ones' keys go to
    ``acked``, each post's time to ``latencies``.  A client stops at its first failed
    connection once ``killed`` is set.  Returns the wall time."""
    entries = puzzles()
    start = threading.Barrier(CLIENTS + 1)
    lock = threading.Lock()
    failures = []

    def client(i: int) -> None:
        player = f"load-{tag}-{i:03d}"
        conn = server.connection()
        start.wait()
        for k in range(per_client):
            entry = entries[(i + k) % len(entries)]
            body = attempt(entry, player, f"2026-02-01T10:{k // 60:02d}:{k % 60:02d}.000Z",
                           "solved" if (i + k) % 3 else "unfinished")
            began = time.perf_counter()
            try:
                status, _ = post(conn, body)
            except (OSError, http.client.HTTPException) as exc:  # a reply cut by the kill
                if killed is None or not killed.is_set():
                    failures.append(repr(exc))
                return
            with lock:
                latencies.append(time.perf_counter() - began)
                if 200 <= status < 300:
                    acked.append((player, entry["code"], body["started"]))
                else:
                    failures.append(status)
        conn.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    start.wait()
    began = time.perf_counter()
    if killed is not None:
        while len(acked) < CLIENTS * per_client // 4:
            time.sleep(0.005)
        killed.set()
        server.kill()
    for thread in threads:
        thread.join(120)
    assert not failures, failures[:5]
    return time.perf_counter() - began


def test_500_concurrent_attempts_are_all_stored_and_survive_a_kill(tmp_path):
    db = tmp_path / "load.db"
    server = Server([SMALL], db)
    try:
        acked, latencies = [], []
        wall = load(server, "a", 10, acked, latencies)
        stored = {row[:3] for row in rows(db)}
        assert len(acked) == 500 and len(stored) == 500 and set(acked) == stored
        latencies.sort()
        p50, p99 = latencies[len(latencies) // 2], latencies[int(len(latencies) * 0.99)]
        print(f"\n500 posts from {CLIENTS} clients in {wall:.2f} s ({500 / wall:.0f} a second);"
              f" latency p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms")
        assert p99 <= P99_BOUND
        # Killed in the middle of a load: every acknowledged attempt is stored.
        acked, killed = [], threading.Event()
        load(server, "b", 40, acked, [], killed)
    finally:
        if server.proc.poll() is None:
            server.kill()
    restarted = Server([SMALL], db)
    try:
        after = {row[:3] for row in rows(db)}
        assert set(acked) <= after and len(after) >= 500 + len(acked)
        print(f"killed after {len(acked)} acknowledged posts: all {len(acked)} stored "
              f"({len(after) - 500 - len(acked)} more were stored but not acknowledged)")
        entry = puzzles()[0]
        status, answer = post(restarted.connection(),
                              attempt(entry, "after-restart", "2026-02-02T10:00:00Z"))
        assert status == 201 and answer["counted"] == "rated"
    finally:
        restarted.stop()


pytestmark = pytest.mark.timeout(120)
