"""Answers hello, starts a child that ignores SIGTERM, and never answers a case."""

import signal
import subprocess
import sys

from fakelib import serve

IGNORE_TERM = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(300)"
signal.signal(signal.SIGTERM, signal.SIG_IGN)
child = subprocess.Popen([sys.executable, "-c", IGNORE_TERM, *sys.argv[1:]])
serve(lambda request: None)
