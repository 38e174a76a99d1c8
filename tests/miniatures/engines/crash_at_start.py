"""Dies before reading anything, as an engine with a missing module does."""

import sys

sys.stderr.write(
    "Traceback (most recent call last):\n"
    '  File "engine.py", line 3, in <module>\n'
    "    import dekal_engine_core\n"
    "ModuleNotFoundError: No module named 'dekal_engine_core'\n"
)
sys.exit(1)
