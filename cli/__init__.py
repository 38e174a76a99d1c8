"""The `dekal` command (typer). Every module here is internal: the command's interface is
its `--help`, its `--json` output and its exit codes (README), not these modules.

The console script is `dekal.cli._app:main`; each command lives in the module its
`_app.COMMANDS` entry names, imported when the command is first looked up. The commands of
one room sit together in a wing: `_solver/` (solve, puzzle, prove), `_bots/` (advise,
annotate, bots, match), `_play/`, `_conformance/`; what every command shares sits here
(`_common`, `_paths`, `_progress`, `_written`, `_rates`, `_bot_specs`...).
"""

__all__: list[str] = []
