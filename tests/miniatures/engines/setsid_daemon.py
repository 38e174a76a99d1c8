"""Answers hello; at the first case it starts a daemon the classic way (fork, setsid, fork
again, the middle process exits, the grandchild closes the pipes and sleeps): a process in
no group or session of the engine's, whose parent is gone. It then answers every case with
an empty success."""

import json
import os
import time

from fakelib import serve

started: list[int] = []


def daemonize() -> None:
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            time.sleep(300)
        os._exit(0)


def answer(request: dict[str, object]) -> str:
    if not started:
        started.append(1)
        daemonize()
        os.wait()  # the middle process: gone, so the daemon is an orphan
    return json.dumps({"id": request["id"], "ok": True})


serve(answer)
