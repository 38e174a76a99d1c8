"""Dies before reading anything, as an engine with a missing module does."""

import sys

sys.stderr.write("Traceback (most recent call last):\n")
sys.stderr.write('  File "engine.py", line 1, in <module>\n')
sys.stderr.write("ModuleNotFoundError: No module named 'dekal_engine_core'\n")
sys.exit(1)
