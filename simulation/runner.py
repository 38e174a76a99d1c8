"""One function over chunks of work: here, or on a Dask cluster (docs/contracts.md, Runner).

    run_chunks(task, chunks)                                  # here, one chunk after another
    run_chunks(task, chunks, workers=4)                       # a local cluster of 4 processes
    run_chunks(task, chunks, scheduler="tcp://host:8786")     # a cluster that already runs
    with streamed_chunks(task, chunks, workers=4) as results:  # in chunk order, as they come
        for result in results: ...                            # leaving early cancels the rest

The results come back in chunk order whoever computed them, so a run's answer never depends
on the workers: a chunk's work must depend on the chunk alone (its games' seeds, say), and
the caller merges the results in order.

`task` must be a top-level function and each chunk picklable: on a cluster both travel to
other processes, which must have `dekal` installed. A local cluster is started for the run
and closed when it ends, however it ends (an error, a Ctrl-C); its worker processes (one
thread each) go with it. A scheduler that cannot be reached, that is not a Dask scheduler
(anything else listening there: a web server, a port that accepts and says nothing), or
that has no worker, is a `ClusterUnavailable` within CONNECT_SECONDS (to answer as a Dask
scheduler) and CONNECT_SECONDS more (for its first worker), never a wait without end.

Dask (`distributed`, the `sim` extra) is imported only when a cluster is asked for.
"""

from __future__ import annotations

import itertools
import logging
import os
import socket
import struct
import threading
import time
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from dekal.extras import needed

if TYPE_CHECKING:
    from distributed import Client

C = TypeVar("C")
R = TypeVar("R")

Progress = Callable[[int, int], None]
"""Told (chunks done, chunks in all) after each chunk."""

CONNECT_SECONDS = 10.0
"""How long to wait for a scheduler to answer, and then for its first worker."""
HANDSHAKE_MOST_BYTES = 1 << 20
"""A Dask scheduler's first words are its handshake, a frame of a few hundred bytes; eight
bytes that announce more than this are someone else talking (an HTTP reply's "HTTP/1.1")."""
MAX_WORKERS = min(64, 2 * (os.cpu_count() or 1))
"""The most local worker processes a run may start: twice the machine's cores, 64 at most. A
worker runs one chunk on one core; more processes than that only share the cores, and each
costs a start of seconds and a hundred megabytes (64 asked on 2 cores took minutes to start).
A bigger run wants a real cluster (--scheduler)."""


class ClusterUnavailable(Exception):
    """The cluster asked for could not be started or reached, or has no worker."""


CLUSTER_DESCRIPTORS = 128
"""Open files a Dask cluster needs at the least (its sockets, pipes, the workers' start):
under 64 a local cluster of 2 workers hung or wrote hundreds of megabytes of tracebacks per
minute (`ulimit -n 20`, issue 29); twice that for margin."""


def enough_descriptors(needed: int = CLUSTER_DESCRIPTORS) -> None:
    """Raise the soft limit of open files to `needed` where the hard limit allows it, else
    ClusterUnavailable in one line: before the cluster starts, never after it failed."""
    try:
        import resource
    except ImportError:  # no such limit here
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= needed:
        return
    if hard == resource.RLIM_INFINITY or hard >= needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))
        return
    raise ClusterUnavailable(
        f"only {soft} files may be open (ulimit -n) and a Dask cluster needs {needed}:"
        " raise the limit, or run in this process (--workers 1)"
    )


def run_chunks(
    task: Callable[[C], R],
    chunks: Sequence[C],
    *,
    workers: int = 1,
    scheduler: str | None = None,
    progress: Progress | None = None,
) -> list[R]:
    """`[task(chunk) for chunk in chunks]`, on `workers` local processes or on `scheduler`.

    workers=1 and no scheduler: in this process, no Dask. A task's exception is raised here
    (the other chunks are cancelled)."""
    if not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"workers: 1 to {MAX_WORKERS}, not {workers}")
    tell = progress or (lambda done, total: None)
    if scheduler is None and workers == 1:
        return list(_in_process(task, chunks, tell))
    with _dask_client(workers, scheduler) as client:
        return _on_cluster(client, task, chunks, tell)


def _in_process(task: Callable[[C], R], chunks: Sequence[C], tell: Progress) -> Iterator[R]:
    for done, chunk in enumerate(chunks, start=1):
        yield task(chunk)
        tell(done, len(chunks))


def _on_cluster(
    client: Client, task: Callable[[C], R], chunks: Sequence[C], tell: Progress
) -> list[R]:
    with needed("a Dask cluster (--workers, --scheduler)"):
        from distributed import as_completed

    parcels = _parcels(list(chunks), MOST_TASKS)
    # pure=False: parcels are not hashed (equal ones are still each computed, harmlessly)
    with warnings.catch_warnings():
        # the chunks are the work's own data, sent once; Dask's advice to load it "with Dask
        # directly" is for dataframes, and a user of `dekal` need not read it
        warnings.filterwarnings("ignore", message="Sending large graph")
        futures = client.map(partial(_run_parcel, task), parcels, pure=False)
    sizes = {future.key: len(parcel) for future, parcel in zip(futures, parcels, strict=True)}
    try:
        done = 0
        for future in as_completed(futures):  # type: ignore[no-untyped-call]
            if future.status == "error":
                future.result()  # raises the task's own exception, here
            done += sizes[future.key]
            tell(done, len(chunks))
        return [result for future in futures for result in future.result()]
    finally:
        client.cancel(futures)  # type: ignore[no-untyped-call]


@contextmanager
def streamed_chunks(
    task: Callable[[C], R],
    chunks: Iterable[C],
    *,
    workers: int = 1,
    scheduler: str | None = None,
    ahead: int = 2,
) -> Iterator[Iterator[R]]:
    """`task(chunk)` for chunk after chunk, yielded in chunk order as soon as each is known,
    for a caller that may stop early (an SPRT that decided): leaving the block cancels the
    chunks not yet used, computed or not.

    workers=1 and no scheduler: in this process, one chunk when the caller asks for it. On a
    cluster at most `ahead` chunks a worker thread are submitted beyond the one awaited, so a
    caller that stops wastes at most that many; the order the workers finish in changes
    nothing the caller sees. A task's exception is raised when its chunk's turn comes."""
    if not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"workers: 1 to {MAX_WORKERS}, not {workers}")
    if scheduler is None and workers == 1:
        yield (task(chunk) for chunk in chunks)
        return
    with _dask_client(workers, scheduler) as client:
        threads = max(1, sum(client.nthreads().values()))  # type: ignore[no-untyped-call]
        pending: deque[Any] = deque()
        try:
            yield _in_order(client, task, iter(chunks), ahead * threads, pending)
        finally:
            client.cancel(list(pending))  # type: ignore[no-untyped-call]


def _in_order(
    client: Client, task: Callable[[C], R], chunks: Iterator[C], most: int, pending: deque[Any]
) -> Iterator[R]:
    """The results of `chunks` in order, with up to `most` of them submitted at once."""

    def submit() -> None:
        for chunk in itertools.islice(chunks, 1):
            pending.append(client.submit(task, chunk, pure=False))

    for _ in range(most):
        submit()
    while pending:
        result: R = pending[0].result()  # the task's own exception, raised here
        pending.popleft()
        submit()  # before the caller's turn: the workers keep busy while it counts
        yield result


MOST_TASKS = 256
"""The most Dask tasks one run sends: its chunks go in parcels of consecutive chunks.
Cancelling n futures costs distributed n² steps (Scheduler.stimulus_cancel releases every
key once per key): 30,000 chunks held a Ctrl-C'd `annotate --workers 2` for minutes. 256
tasks keep 64 workers busy and the cancel instant."""


def _parcels(chunks: Sequence[C], most: int) -> list[Sequence[C]]:
    """`chunks` cut into at most `most` runs of consecutive chunks, as even as can be."""
    count = min(len(chunks), most)
    if count == 0:
        return []
    bounds = [len(chunks) * k // count for k in range(count + 1)]
    return [chunks[start:end] for start, end in itertools.pairwise(bounds)]


def _run_parcel(task: Callable[[C], R], parcel: Sequence[C]) -> list[R]:
    """A parcel's results, on a worker: its chunks one after another."""
    return [task(chunk) for chunk in parcel]


@contextmanager
def _dask_client(workers: int, scheduler: str | None) -> Iterator[Client]:
    """A client of the scheduler at `scheduler`, or of a local cluster started for the run."""
    with needed("a Dask cluster (--workers, --scheduler)"):
        from distributed import Client, LocalCluster

    # Dask logs every worker's start and stop, and a closing cluster's lost connections (at
    # INFO, WARNING, even ERROR with a traceback): a user of `dekal` is told of a failure
    # once, as one line, by the caller.
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    enough_descriptors()
    if scheduler is not None:
        client = _client_of(scheduler)
        with client:
            _wait_for_a_worker(client, scheduler)
            yield client
        return
    try:
        # no worker yet: a Ctrl-C while they start must find the cluster already held below
        cluster = LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=0,
            threads_per_worker=1,  # a chunk is pure Python or numba: one core each
            processes=True,
            dashboard_address=None,
            silence_logs=logging.CRITICAL,  # a worker losing its scheduler at close is no news
            # Dask's HTTP routes (health, metrics) on any free local port, not on 8787
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
            preload=["dekal.simulation._local_worker"],  # a Ctrl-C is answered by dekal alone
        )
    except OSError as error:
        raise ClusterUnavailable(f"cannot start a local cluster: {error}") from None
    try:
        with Client(cluster) as client:  # type: ignore[no-untyped-call]
            cluster.scale(workers)  # type: ignore[no-untyped-call]
            client.wait_for_workers(workers)
            yield client
    finally:
        _close_quietly(cluster)


def _close_quietly(cluster: Any) -> None:
    """Close a local cluster whose run is over (done, failed or stopped). distributed's close
    can trip on its own race (a worker that left while its status was being read:
    KeyError in SpecCluster._update_worker_status); that is not news for the user, whose
    answer or error is already known, and the worker processes are ended either way."""
    try:
        cluster.close()
    except Exception:  # noqa: BLE001 - see the docstring: nothing the user asked for fails
        logging.getLogger(__name__).debug("closing the local cluster", exc_info=True)


def _client_of(scheduler: str) -> Client:
    """A client of the Dask scheduler at `scheduler`, within CONNECT_SECONDS of wall time, or
    ClusterUnavailable saying why (one line).

    Dask's own `timeout` bounds the connection but not the handshake after it: a listener
    that accepts and says nothing held `Client()` for ever. So a TCP scheduler is first asked
    for its handshake here, on a socket with a deadline, and Dask's connection then runs in
    a helper thread that is given up on (and its client closed if it ever comes) when the
    time is out."""
    end = time.monotonic() + CONNECT_SECONDS
    _check_handshake(scheduler, end)
    outcome: list[Client | BaseException] = []
    gave_up = threading.Event()

    def connect() -> None:
        with needed("a Dask cluster (--workers, --scheduler)"):
            from distributed import Client

        try:
            client = Client(scheduler, timeout=max(0.1, end - time.monotonic()))  # type: ignore[no-untyped-call]
        except BaseException as error:  # noqa: BLE001 - handed to the waiting thread
            outcome.append(error)
            return
        outcome.append(client)
        if gave_up.is_set():  # too late: nobody will use it
            client.close()  # type: ignore[no-untyped-call]

    helper = threading.Thread(target=connect, name="dask connect", daemon=True)
    helper.start()
    helper.join(max(0.0, end - time.monotonic()))
    gave_up.set()
    if not outcome:
        raise ClusterUnavailable(
            f"the scheduler {scheduler} did not answer as a Dask scheduler within"
            f" {CONNECT_SECONDS:g} s"
        )
    (result,) = outcome[:1]
    if not isinstance(result, BaseException):
        return result
    if isinstance(result, OSError):  # refused or timed out: Dask retries until its timeout
        raise ClusterUnavailable(
            f"cannot reach the scheduler {scheduler} within {CONNECT_SECONDS:g} s"
        ) from None
    if isinstance(result, ValueError | TypeError):  # an address Dask cannot read
        raise ClusterUnavailable(f"cannot reach the scheduler {scheduler}: {result}") from None
    # Something else listens there: a web server's reply read as a frame length made Dask
    # allocate exabytes (MemoryError), a short reply raised struct.error.
    raise ClusterUnavailable(
        f"the scheduler {scheduler} did not answer as a Dask scheduler ({type(result).__name__})"
    ) from None


def _check_handshake(scheduler: str, end: float) -> None:
    """For a TCP address: connect, and read the first eight bytes the scheduler sends (a
    Dask scheduler speaks first: the length of its handshake frame) before `end`."""
    with needed("a Dask cluster (--workers, --scheduler)"):
        from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(scheduler)
        if scheme != "tcp":
            return  # tls, ws, inproc: Dask's own connection, under the helper's deadline
        host, port = parse_host_port(location)
    except (ValueError, TypeError) as error:
        raise ClusterUnavailable(f"cannot reach the scheduler {scheduler}: {error}") from None
    try:
        left = max(0.1, end - time.monotonic())
        with socket.create_connection((host, port), timeout=left) as probe:
            header = b""
            while len(header) < 8:
                probe.settimeout(max(0.01, end - time.monotonic()))
                chunk = probe.recv(8 - len(header))
                if not chunk:
                    break
                header += chunk
    except TimeoutError:
        raise ClusterUnavailable(
            f"the scheduler {scheduler} did not answer as a Dask scheduler: it said nothing"
            f" within {CONNECT_SECONDS:g} s"
        ) from None
    except OSError:
        raise ClusterUnavailable(
            f"cannot reach the scheduler {scheduler} within {CONNECT_SECONDS:g} s"
        ) from None
    (length,) = struct.unpack("<Q", header) if len(header) == 8 else (0,)
    if not 0 < length <= HANDSHAKE_MOST_BYTES:
        raise ClusterUnavailable(
            f"the scheduler {scheduler} did not answer as a Dask scheduler"
            f" (its first bytes were {header[:8]!r})"
        )


def _wait_for_a_worker(client: Client, scheduler: str) -> None:
    with needed("a Dask cluster (--workers, --scheduler)"):
        from dask.distributed import TimeoutError as DaskTimeout

    try:
        client.wait_for_workers(1, timeout=CONNECT_SECONDS)
    except (DaskTimeout, TimeoutError, OSError):
        raise ClusterUnavailable(
            f"the scheduler {scheduler} has no worker (waited {CONNECT_SECONDS:g} s)"
        ) from None
