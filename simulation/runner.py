"""One function over chunks of work: here, or on a Dask cluster (docs/contracts.md, Runner).

    run_chunks(task, chunks)                                  # here, one chunk after another
    run_chunks(task, chunks, workers=4)                       # a local cluster of 4 processes
    run_chunks(task, chunks, scheduler="tcp://host:8786")     # a cluster that already runs

The results come back in chunk order whoever computed them, so a run's answer never depends
on the workers: a chunk's work must depend on the chunk alone (its games' seeds, say), and
the caller merges the results in order.

`task` must be a top-level function and each chunk picklable: on a cluster both travel to
other processes, which must have `dekal` installed. A local cluster is started for the run
and closed when it ends, however it ends (an error, a Ctrl-C); its worker processes (one
thread each) go with it. A scheduler that cannot be reached, or that has no worker, is a
`ClusterUnavailable` within CONNECT_SECONDS, never a wait without end.

Dask (`distributed`, the `sim` extra) is imported only when a cluster is asked for.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, TypeVar

from dekal.extras import needed

if TYPE_CHECKING:
    from distributed import Client

C = TypeVar("C")
R = TypeVar("R")

Progress = Callable[[int, int], None]
"""Told (chunks done, chunks in all) after each chunk."""

CONNECT_SECONDS = 10.0
"""How long to wait for a scheduler to answer, and then for its first worker."""
MAX_WORKERS = 64
"""The most local worker processes a run may start (a bigger run wants a real cluster)."""


class ClusterUnavailable(Exception):
    """The cluster asked for could not be started or reached, or has no worker."""


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

    # pure=False: chunks are not hashed (equal chunks are still each computed, harmlessly)
    futures = client.map(task, list(chunks), pure=False)
    try:
        finished = as_completed(futures)  # type: ignore[no-untyped-call]
        for done, future in enumerate(finished, start=1):
            if future.status == "error":
                future.result()  # raises the task's own exception, here
            tell(done, len(futures))
        return [future.result() for future in futures]
    finally:
        client.cancel(futures)  # type: ignore[no-untyped-call]


@contextmanager
def _dask_client(workers: int, scheduler: str | None) -> Iterator[Client]:
    """A client of the scheduler at `scheduler`, or of a local cluster started for the run."""
    with needed("a Dask cluster (--workers, --scheduler)"):
        from distributed import Client, LocalCluster

    # Dask logs every worker's start and stop, and a closing cluster's lost connections (at
    # INFO, WARNING, even ERROR with a traceback): a user of `dekal` is told of a failure
    # once, as one line, by the caller.
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    if scheduler is not None:
        try:
            client = Client(scheduler, timeout=CONNECT_SECONDS)  # type: ignore[no-untyped-call]
        except OSError:  # refused or timed out: Dask retries until CONNECT_SECONDS
            raise ClusterUnavailable(
                f"cannot reach the scheduler {scheduler} within {CONNECT_SECONDS:g} s"
            ) from None
        except (ValueError, TypeError) as error:  # an address Dask cannot read
            raise ClusterUnavailable(f"cannot reach the scheduler {scheduler}: {error}") from None
        except Exception as error:
            # Something else listens there: a web server's reply read as a frame length made
            # Dask allocate exabytes (MemoryError), a short reply raised struct.error.
            raise ClusterUnavailable(
                f"the scheduler {scheduler} did not answer as a Dask scheduler"
                f" ({type(error).__name__})"
            ) from None
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
            preload=["dekal.simulation.local_worker"],  # a Ctrl-C is answered by dekal alone
        )
    except OSError as error:
        raise ClusterUnavailable(f"cannot start a local cluster: {error}") from None
    with cluster, Client(cluster) as client:  # type: ignore[no-untyped-call]
        cluster.scale(workers)  # type: ignore[no-untyped-call]
        client.wait_for_workers(workers)
        yield client


def _wait_for_a_worker(client: Client, scheduler: str) -> None:
    with needed("a Dask cluster (--workers, --scheduler)"):
        from dask.distributed import TimeoutError as DaskTimeout

    try:
        client.wait_for_workers(1, timeout=CONNECT_SECONDS)
    except (DaskTimeout, TimeoutError, OSError):
        raise ClusterUnavailable(
            f"the scheduler {scheduler} has no worker (waited {CONNECT_SECONDS:g} s)"
        ) from None
