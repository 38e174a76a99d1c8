"""The `dekal` command (typer). Every module here is internal: the command's interface is
its `--help`, its `--json` output and its exit codes (README), not these modules.

The console script is `dekal.cli._app:main`; each command lives in the module its
`_app.COMMANDS` entry names (`_solve`, `_play/`, `_conformance/`...), imported when the
command is first looked up.
"""

__all__: list[str] = []
