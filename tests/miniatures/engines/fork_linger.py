"""Answers hello; at the first case it forks a child that keeps the pipes and sleeps, and
exits itself without answering."""

import os
import sys
import time

from fakelib import serve


def fork_and_exit(request: dict[str, object]) -> None:
    if os.fork() == 0:
        time.sleep(300)  # the child holds stdin, stdout and stderr open
        os._exit(0)
    sys.exit(0)


serve(fork_and_exit)
