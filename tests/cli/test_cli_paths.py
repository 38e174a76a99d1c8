"""The one path helper (dekal.cli._paths, issue 19): a path an option names is checked before
any work, by opening it, and a path that could block, never end or fail late is refused."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from dekal.cli._paths import (
    PathRefused,
    input_file,
    input_file_or_folder,
    output_file,
    output_file_or_stdout,
    output_folder,
)

Check = Callable[[object], object]


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("check", [input_file, output_file, output_folder, input_file_or_folder])
@pytest.mark.parametrize("name", ["", " "])
def test_an_empty_name_is_refused_not_read_as_the_current_folder(check: Check, name: str) -> None:
    with pytest.raises(PathRefused, match="empty"):
        check(name)


@pytest.mark.parametrize("check", [input_file, output_file, output_folder])
def test_a_named_pipe_is_refused_at_once_never_opened_for_good(check: Check, fifo: Path) -> None:
    with pytest.raises(PathRefused, match="named pipe"):
        check(fifo)


@pytest.mark.parametrize("check", [input_file, output_file])
def test_a_device_is_no_file(check: Check) -> None:
    with pytest.raises(PathRefused, match="device"):
        check("/dev/zero")


@pytest.mark.parametrize("check", [input_file, output_file])
@pytest.mark.parametrize("path", ["/proc/self/status", "/sys/kernel/notes"])
def test_a_kernel_interface_is_refused_though_it_looks_like_a_file(check: Check, path: str) -> None:
    if not Path(path).exists():
        pytest.skip(f"{path} is not on this machine")
    with pytest.raises(PathRefused, match="kernel interface"):
        check(path)


@pytest.mark.parametrize("check", [output_file, output_folder])
def test_nothing_is_made_under_proc_even_by_root(check: Check) -> None:
    with pytest.raises(PathRefused, match="kernel interface"):
        check("/proc/x.svg")


def test_an_output_in_a_missing_folder_is_refused_and_no_folder_made(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "x.html"
    with pytest.raises(PathRefused, match="does not exist"):
        output_file(target)
    assert not (tmp_path / "missing").exists()


def test_a_new_output_file_is_checked_by_making_it_and_left_absent(tmp_path: Path) -> None:
    target = tmp_path / "new.svg"
    assert output_file(target) == target
    assert not target.exists()


def test_an_existing_output_file_is_checked_without_emptying_it(tmp_path: Path) -> None:
    target = tmp_path / "kept.txt"
    target.write_text("kept")
    output_file(target)
    assert target.read_text() == "kept"


def test_a_directory_is_not_a_file_to_read_or_write(tmp_path: Path) -> None:
    for check in (input_file, output_file):
        with pytest.raises(PathRefused, match="a directory"):
            check(tmp_path)
    assert input_file_or_folder(tmp_path) == tmp_path


def test_a_missing_input_is_refused(tmp_path: Path) -> None:
    with pytest.raises(PathRefused, match="does not exist"):
        input_file(tmp_path / "nothing.json")


def test_a_symlink_loop_and_a_nul_are_refused_not_raised(tmp_path: Path) -> None:
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    for check in (input_file, output_file, output_folder):
        for path in (str(loop), "a\x00b"):
            with pytest.raises(PathRefused):
                check(path)


def test_a_long_name_is_quoted_short(tmp_path: Path) -> None:
    name = str(tmp_path / ("x" * 5000))
    with pytest.raises(PathRefused) as refused:
        output_file(name)
    assert "x" * 41 not in str(refused.value)


def test_a_new_folder_needs_a_parent_that_exists(tmp_path: Path) -> None:
    assert output_folder(tmp_path / "new") == tmp_path / "new"
    with pytest.raises(PathRefused, match="does not exist"):
        output_folder(tmp_path / "missing" / "new")
    (tmp_path / "file").write_text("")
    with pytest.raises(PathRefused, match="name a folder"):
        output_folder(tmp_path / "file")


def test_a_dash_is_standard_output_where_allowed(tmp_path: Path) -> None:
    assert output_file_or_stdout("-") == "-"
    assert output_file_or_stdout(tmp_path / "x") == str(tmp_path / "x")


def test_the_null_device_takes_output_as_unix_tools_let_it() -> None:
    assert output_file(os.devnull) == Path(os.devnull)
    with pytest.raises(PathRefused, match="device"):
        input_file(os.devnull)
