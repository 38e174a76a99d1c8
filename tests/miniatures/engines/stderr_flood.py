"""Floods stderr before the hello (many lines, then one line of 100 MiB), then answers
hello and prints garbage for every case.

The flood is written in chunks, so this process never holds 100 MiB itself: only a reader
that kept whole lines would.
"""

import sys

from fakelib import serve

err = sys.stderr.buffer
for number in range(10_000):
    err.write(b"warning: line %d of noise\n" % number)
chunk = b"x" * (1 << 16)
for _ in range(1600):  # 100 MiB, no newline
    err.write(chunk)
err.write(b"\nwarning: the flood ends here\n")
err.flush()
serve(lambda request: "garbage after the flood")
