"""Getting the strategies' compiled code ready: compiled in a subprocess, said aloud, and known
ready across processes.

Numba compiles Fano's and Fan Tan's kernels on their first use in a fresh installation (minutes
on a busy machine) and keeps the machine code in its cache; later processes load it in a second
or two. A compile holds the interpreter lock of the process that runs it, so fanfold never
compiles in a process a person is waiting on: :func:`compile_ahead` runs the game's warm-up in
a subprocess of its own (``python -m fanfold.agents.strategy.compiled GAME``), which fills the
cache, while the caller waits in a way Ctrl-C and SIGTERM interrupt at once (the subprocess is
killed with it, and dies by itself if its parent does). It says what it prepares and how long
that took last time (:func:`last_seconds`), and records success in a small file
(:func:`record_path`) keyed by the installation (:func:`installation_key`: Python, Numba, the
cache folder and fanfold's files), so that other processes know the cache is filled
(:func:`is_compiled`).

An installation may carry the compiled code already: ``setup.py`` runs :func:`build` when it
builds the package (a wheel, or an editable install), which compiles every warm-up (the bots'
and the environments') into the package folder (:data:`fanfold.core.numba_cache.PACKAGED`) and
writes a manifest of what it was built for (Numba, Python, the CPU target, the fanfold modules
it used). :func:`packaged` reads it: a current packaged cache is ready, and nothing compiles.

:func:`prepare` is what an agent calls: compile ahead if needed, then load from the cache in
this process. Where waiting is not an option (a server's bot within its time cap), the caller
asks :func:`prepare` not to compile (``compile=False``, or any preparation within
:func:`without_compiling`): it raises :class:`NotCompiledError`, and the caller plays its fallback
(the game's ``medium`` level, :data:`FALLBACK_LEVEL`) meanwhile.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from importlib import metadata
from pathlib import Path
from typing import Any

from fanfold.core.phrases import Phrase, phrases

#: fanfold's package folder (its files are part of :func:`installation_key`).
PACKAGE = Path(__file__).resolve().parents[2]
#: What the compile says, as phrases (:class:`~fanfold.core.phrases.Phrase`: their English is
#: the text; the terminal words them in its language, ``docs/i18n.md``).
phrases(
    {
        "compile.what_fano": "Fano's compiled search",
        "compile.what_fantan": "Fan Tan's compiled search",
        "compile.what_fantan_env": "Fan Tan's compiled environment stepping",
        "compile.what_fano_env": "Fano's compiled environment stepping",
        "compile.what_fan_env": "Fan patience's compiled environment stepping",
        "compile.what_morris_env": "Morris's compiled environment stepping",
        "compile.preparing": "Preparing {what}: compiling it, once for this installation (one "
        "to four minutes the first time)...",
        "compile.preparing_last": "Preparing {what}: compiling it, once for this installation "
        "(one to four minutes the first time; {seconds} s last time)...",
        "compile.prepared": "{what} prepared in {seconds} s.",
        "compile.loading": "Loading {what} from the cache...",
        "compile.failed": "compiling {what} failed: {words}",
    },
    terminal=True,
)
#: The module of each game's warm-up (``warm_up()`` compiles or loads everything its bots use).
WARM_UPS: Mapping[str, str] = {
    "fano": "fanfold.agents.strategy.fano_fast",
    "fantan": "fanfold.agents.strategy.fantan_fast",
}
#: The environments' compiled stepping (:mod:`fanfold.envs`' vector environment): built into
#: the package with the bots' code (:func:`build`) and prepared by an environment that steps
#: on it, never by the server, whose bots do not use it.
ENVIRONMENT_WARM_UPS: Mapping[str, str] = {
    "fantan-env": "fanfold.envs.fantan_stepping",
    "fano-env": "fanfold.envs.fano_stepping",
    "fan-env": "fanfold.envs.fan_stepping",
    "morris-env": "fanfold.envs.morris_stepping",
}
#: What the player is told is being prepared.
WHAT: Mapping[str, str] = {
    name: Phrase(f"compile.what_{name.replace('-', '_')}")
    for name in ("fano", "fantan", "fantan-env", "fano-env", "fan-env", "morris-env")
}
#: The level a server's bot plays while its compiled code is not ready.
FALLBACK_LEVEL = "medium"
#: How long the caller waits for the compiling subprocess between two looks at its signals.
WAIT_SECONDS = 0.2
#: Environment variable naming the record file instead of the user cache folder's.
RECORD_VARIABLE = "FANFOLD_COMPILED_RECORD"
#: The packaged cache's manifest, in its folder (:func:`build`, :func:`packaged`).
MANIFEST = "manifest.json"


def all_warm_ups() -> dict[str, str]:
    """Every warm-up by name: the bots' (:data:`WARM_UPS`) and the environments'
    (:data:`ENVIRONMENT_WARM_UPS`)."""
    return {**WARM_UPS, **ENVIRONMENT_WARM_UPS}


class NotCompiledError(RuntimeError):
    """A game's compiled code is not in the cache yet and the caller would not wait for it."""


_loaded: set[str] = set()
_lock = threading.Lock()
_refusing = threading.local()
#: The compiling subprocesses running now (:func:`stop_compiling` ends them).
_running: set[subprocess.Popen[bytes]] = set()


@contextlib.contextmanager
def without_compiling() -> Iterator[None]:
    """Within this, :func:`prepare` in this thread raises :class:`NotCompiledError` instead of
    compiling (an agent's ``prepare`` calls it without knowing the caller's hurry)."""
    before = getattr(_refusing, "on", False)
    _refusing.on = True
    try:
        yield
    finally:
        _refusing.on = before


def _quiet(message: str) -> None:
    del message


def record_path() -> Path:
    """The file that records which compiles finished and how long they took
    (``$FANFOLD_COMPILED_RECORD``, else ``compiled.json`` in fanfold's user cache folder)."""
    chosen = os.environ.get(RECORD_VARIABLE)
    if chosen:
        return Path(chosen)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("fanfold")) / "compiled.json"


def installation_key() -> str:
    """What Numba's cache of fanfold's kernels depends on: the Python and Numba versions, the
    cache folder chosen (``NUMBA_CACHE_DIR``), and the path, size and time stamp of every
    module of fanfold (Numba keys its cache on the latter two)."""
    digest = hashlib.sha256()
    try:
        numba = metadata.version("numba")
    except metadata.PackageNotFoundError:
        numba = "none"
    digest.update(f"{sys.version}|{numba}|{os.environ.get('NUMBA_CACHE_DIR', '')}".encode())
    for path in sorted(PACKAGE.rglob("*.py")):
        stat = path.stat()
        digest.update(f"{path}:{stat.st_size}:{stat.st_mtime_ns};".encode())
    return digest.hexdigest()


def _entry(name: str) -> str:
    """The record's entry of game ``name`` in this installation (installations share it)."""
    return f"{name} {PACKAGE}"


def _records() -> dict[str, Any]:
    try:
        found = json.loads(record_path().read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def _recorded(name: str) -> dict[str, Any]:
    """Game ``name``'s entry in the record (empty when there is none, or not a valid one)."""
    found = _records().get(_entry(name))
    return found if isinstance(found, dict) else {}


def _record(name: str, seconds: float) -> None:
    records = _records()
    records[_entry(name)] = {"key": installation_key(), "seconds": round(seconds, 1)}
    path = record_path()
    with contextlib.suppress(OSError):  # an unwritable cache folder only forgets the times
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}")
        partial.write_text(json.dumps(records, indent=1), "utf-8")
        partial.replace(path)


def last_seconds(name: str) -> float | None:
    """How long compiling game ``name``'s code took the last time it ran here."""
    seconds = _recorded(name).get("seconds")
    return float(seconds) if isinstance(seconds, int | float) else None


#: Content digests of fanfold's modules, by path, size and time stamp (:func:`sources`).
_digests: dict[tuple[Path, int, int], bytes] = {}


def sources(modules: Iterable[str]) -> str:
    """The SHA-256 of fanfold's ``modules`` (paths in the package): their paths and contents
    (a missing one counts as empty)."""
    digest = hashlib.sha256()
    for name in sorted(modules):
        path = PACKAGE / name
        try:
            stat = path.stat()
        except OSError:
            digest.update(name.encode() + b"\0missing\0")
            continue
        known = (path, stat.st_size, stat.st_mtime_ns)
        if known not in _digests:
            _digests[known] = hashlib.sha256(path.read_bytes()).digest()
        digest.update(name.encode() + b"\0" + _digests[known])
    return digest.hexdigest()


def _imported() -> list[str]:
    """fanfold's modules imported in this process, as paths in the package."""
    found = set()
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        if file and Path(file).resolve().is_relative_to(PACKAGE):
            found.add(Path(file).resolve().relative_to(PACKAGE).as_posix())
    return sorted(found)


def _manifest_path() -> Path:
    from fanfold.core import numba_cache

    return numba_cache.PACKAGED / MANIFEST


def _built_for(modules: Iterable[str]) -> dict[str, Any]:
    """What the packaged cache must have been built for to be used here (``modules``: the
    fanfold modules its warm-ups imported)."""
    import llvmlite
    import numba

    from fanfold.core import numba_cache

    return {
        "numba": numba.__version__,
        "llvmlite": llvmlite.__version__,
        "python": sys.implementation.cache_tag,
        "target": list(numba_cache.target()),
        "sources": sources(modules),
    }


def packaged(name: str) -> bool:
    """Whether the package carries game ``name``'s compiled code ready to load: :func:`build`
    made it by that game's warm-up, for this Numba, llvmlite, Python and CPU target and the
    present contents of the fanfold modules the warm-ups imported; the folder is writable (as
    Numba's cache needs); and ``FANFOLD_NO_PACKAGED_CACHE`` is not set."""
    from fanfold.core import numba_cache

    if not numba_cache.packaged_enabled():
        return False
    try:
        manifest = json.loads(_manifest_path().read_text("utf-8"))
    except (OSError, ValueError):
        return False
    if not isinstance(manifest, dict):
        return False
    games = manifest.get("games")
    entry = games.get(name) if isinstance(games, dict) else None
    if not isinstance(entry, dict) or entry.get("module") != all_warm_ups().get(name):
        return False
    if not os.access(_manifest_path().parent, os.W_OK):
        return False
    modules = manifest.get("modules")
    if not isinstance(modules, list) or not all(isinstance(name, str) for name in modules):
        return False
    built = _built_for(modules)
    return all(manifest.get(key) == value for key, value in built.items())


def build(say: Callable[[str], None] = _quiet) -> dict[str, Any]:
    """Compile every warm-up (:func:`all_warm_ups`) into the packaged cache, in this
    process, and write its manifest; what is in the cache already and current is loaded, not
    compiled again. Returns the manifest. Run by ``setup.py`` (``python -m
    fanfold.agents.strategy.compiled --build``) with this package first on the path."""
    from fanfold.core import numba_cache

    folder = numba_cache.PACKAGED
    folder.mkdir(exist_ok=True)
    _manifest_path().unlink(missing_ok=True)  # not ready until every warm-up ran
    games: dict[str, dict[str, Any]] = {}
    for name, module in all_warm_ups().items():
        say(f"Compiling {WHAT[name]} into {folder} (what is there already is loaded)...")
        started = time.monotonic()
        importlib.import_module(module).warm_up()
        seconds = time.monotonic() - started
        games[name] = {"module": module, "seconds": round(seconds, 1)}
        say(f"{WHAT[name]}: {seconds:.1f} s.")
    if not any(folder.rglob("*.nbi")):
        raise RuntimeError(f"the warm-ups wrote no compiled code into {folder}")
    modules = _imported()
    manifest = {**_built_for(modules), "modules": modules, "games": games}
    partial = folder / f"{MANIFEST}.{os.getpid()}"
    partial.write_text(json.dumps(manifest, indent=1), "utf-8")
    partial.replace(_manifest_path())
    return manifest


def is_compiled(name: str) -> bool:
    """Whether game ``name``'s compiled code is ready in this installation: loaded in this
    process, carried by the package (:func:`packaged`), or in the cache (compiled by
    :func:`compile_ahead`, here or in another process)."""
    return name in _loaded or _recorded(name).get("key") == installation_key() or packaged(name)


def is_loaded(name: str) -> bool:
    """Whether game ``name``'s compiled code is loaded in this process."""
    return name in _loaded


def progress_line(name: str) -> str:
    """What is being prepared for game ``name``, and how long it took last time."""
    last = last_seconds(name)
    if last is None:
        return Phrase("compile.preparing", what=WHAT[name])
    return Phrase("compile.preparing_last", what=WHAT[name], seconds=f"{last:.0f}")


def compile_ahead(name: str, say: Callable[[str], None] = _quiet) -> float | None:
    """Fill Numba's cache with game ``name``'s compiled code, in a subprocess, unless
    :func:`is_compiled` says it is there; tell ``say`` what is being prepared, how long it
    took last time, and how long it took now. Returns the seconds it took (``None``: nothing
    to do). A ``KeyboardInterrupt`` or any other exception while waiting kills the subprocess
    at once; a failed compile raises :class:`RuntimeError` with the subprocess's last words."""
    if name not in all_warm_ups():
        raise ValueError(f"no compiled code to prepare for {name!r}")
    if is_compiled(name):
        return None
    say(progress_line(name))
    started = time.monotonic()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(PACKAGE.parent), *filter(None, [env.get("PYTHONPATH")])]
    )
    command = [sys.executable, "-m", __name__, all_warm_ups()[name], str(os.getpid())]
    process = subprocess.Popen(
        command,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,  # a terminal's Ctrl-C reaches its parent, which ends it
    )
    _running.add(process)
    try:
        while True:  # short waits: a Ctrl-C (or any signal's exception) is raised between two
            try:
                _, errors = process.communicate(timeout=WAIT_SECONDS)
                break
            except subprocess.TimeoutExpired:
                continue
    except BaseException:
        process.kill()
        process.wait()
        raise
    finally:
        _running.discard(process)
    if process.returncode != 0:
        words = errors.decode(errors="replace").strip().splitlines()[-5:]
        raise RuntimeError(Phrase("compile.failed", what=WHAT[name], words=" / ".join(words)))
    seconds = time.monotonic() - started
    _record(name, seconds)
    say(Phrase("compile.prepared", what=WHAT[name], seconds=f"{seconds:.0f}"))
    return seconds


def stop_compiling() -> None:
    """Kill every compiling subprocess this process started (a server that stops); their
    callers' :func:`compile_ahead` raises :class:`RuntimeError`."""
    for process in list(_running):
        process.kill()


def prepare(name: str, say: Callable[[str], None] = _quiet, *, compile: bool = True) -> None:
    """Make game ``name``'s compiled code ready in this process: compile it ahead
    (:func:`compile_ahead`) if the cache lacks it, then load it from the cache. With
    ``compile=False``, raise :class:`NotCompiledError` instead of compiling."""
    with _lock:
        if not is_compiled(name):
            if not compile or getattr(_refusing, "on", False):
                raise NotCompiledError(f"{WHAT[name]} is not compiled yet")
            compile_ahead(name, say)
        say(Phrase("compile.loading", what=WHAT[name]))
        importlib.import_module(all_warm_ups()[name]).warm_up()  # at once when already loaded
        _loaded.add(name)


def _die_with(parent: int) -> None:
    """End this process when ``parent`` does (Linux: the kernel sends SIGKILL; elsewhere a
    thread looks every half second)."""
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def main(arguments: list[str]) -> int:
    """``python -m fanfold.agents.strategy.compiled MODULE PARENT_PID``: run ``MODULE``'s
    ``warm_up()`` (a game's, :data:`WARM_UPS`), which compiles its code into Numba's cache (or
    loads it), ending early if the parent process does. ``--build``: :func:`build`, saying
    what it does on the standard output."""
    if arguments == ["--build"]:
        build(lambda line: print(line, flush=True))
        return 0
    module, parent = arguments
    _die_with(int(parent))
    importlib.import_module(module).warm_up()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
