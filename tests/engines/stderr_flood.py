"""Floods stderr before the hello: many lines, then one line of 100 MB, then dies.

The flood is written in chunks, so this process never holds 100 MB itself: only a reader
that keeps whole lines would.
"""

import sys

err = sys.stderr.buffer
for number in range(10_000):
    err.write(b"warning: line %d of noise\n" % number)
chunk = b"x" * (1 << 16)
for _ in range(1600):  # 100 MiB, no newline
    err.write(chunk)
err.write(b"\nfatal: the end of the flood\n")
err.flush()
sys.exit(7)
