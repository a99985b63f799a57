"""GMP 6.3 and OpenSSL 4 built from source for this CPU, as benchmark peers (``montlab bench
--native-peers``).

Contract: the sources are those bundled in two crates.io packages, pinned here
(:data:`GMP`, :data:`OPENSSL`), fetched by ``cargo`` into its registry. GMP is configured for
the host CPU (its ``configure`` picks the CPU's assembly and tuning), OpenSSL with its default
assembly (run-time CPU dispatch); GMP as a shared library, OpenSSL's libcrypto static and then
linked whole into one shared object (the crate's sources cannot build OpenSSL's own shared
library), with a static ``openssl`` tool; installed under :func:`cache_dir`
(``$MONTLAB_PEER_CACHE``, else ``~/.cache/montlab/peers``), outside the repository. A build is
reused while its library file exists; the first one takes minutes and prints its steps. The
tools it runs (cargo, make, a C compiler, m4 for GMP, perl for OpenSSL) are checked first, and
a missing one is named in :class:`BuildError`.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from montlab.errors import MontlabError


@dataclass(frozen=True)
class Source:
    """A library bundled in a crates.io package: crate, exact version, folder inside it."""

    name: str
    crate: str
    version: str
    folder: str
    library: str  # the shared library file, relative to the install prefix


GMP = Source("gmp-6.3.0", "gmp-mpfr-sys", "1.7.1", "gmp-6.3.0-c", "lib/libgmp.so")
OPENSSL = Source(
    "openssl-4.0.3", "openssl-src", "400.0.2+4.0.3", "openssl", "lib/libcrypto-whole.so"
)


class BuildError(MontlabError):
    """A native peer could not be fetched or built; the message says what failed."""


def cache_dir() -> Path:
    """Where the builds live: ``$MONTLAB_PEER_CACHE`` or ``~/.cache/montlab/peers``."""
    env = os.environ.get("MONTLAB_PEER_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "montlab" / "peers"


def installed(src: Source) -> Path | None:
    """The built library of ``src`` in the cache, or None."""
    lib = cache_dir() / src.name / src.library
    return lib if lib.exists() else None


def _need(*tools: str) -> None:
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        raise BuildError(
            f"building the native peers needs {', '.join(missing)} on PATH "
            "(apt install build-essential m4 perl; cargo from rustup)"
        )


def _run(cmd: list[str], cwd: Path, log: Path) -> None:
    with log.open("a") as out:
        res = subprocess.run(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, check=False)
    if res.returncode != 0:
        raise BuildError(f"{' '.join(cmd)} failed in {cwd} (exit {res.returncode}); see {log}")


def fetch(sources: tuple[Source, ...], say: Callable[[str], None]) -> dict[str, Path]:
    """Source folders by name, fetched with cargo (a throwaway manifest in the cache)."""
    _need("cargo")
    root = cache_dir() / "fetch"
    (root / "src").mkdir(parents=True, exist_ok=True)
    deps = "\n".join(f'{s.crate} = {{ version = "={s.version}" }}' for s in sources)
    (root / "Cargo.toml").write_text(
        '[package]\nname = "montlab-peer-sources"\nversion = "0.0.0"\nedition = "2021"\n'
        f"[dependencies]\n{deps}\n"
    )
    (root / "src" / "main.rs").write_text("fn main() {}\n")
    say("fetching " + ", ".join(f"{s.crate} {s.version}" for s in sources) + " with cargo")
    res = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--manifest-path", str(root / "Cargo.toml")],
        capture_output=True,
        text=True,
        check=False,
    )
    if res.returncode != 0:
        raise BuildError(f"cargo could not fetch the peer sources: {res.stderr.strip()[-500:]}")
    packages = {
        p["name"]: Path(p["manifest_path"]).parent for p in json.loads(res.stdout)["packages"]
    }
    out = {}
    for s in sources:
        folder = packages.get(s.crate, Path("/nonexistent")) / s.folder
        if not folder.is_dir():
            raise BuildError(f"{s.crate} {s.version} has no folder {s.folder}")
        out[s.name] = folder
    return out


@dataclass(frozen=True)
class _Build:
    """Where one build happens: install prefix, a fresh copy of the sources, its log."""

    prefix: Path
    tree: Path
    log: Path
    jobs: str


def _start(src: Source, folder: Path, tools: tuple[str, ...]) -> _Build:
    """Checks ``tools``, copies the sources afresh and empties the log."""
    _need(*tools)
    tree = cache_dir() / "build" / src.name
    if tree.exists():
        shutil.rmtree(tree)
    shutil.copytree(folder, tree, symlinks=True)
    log = cache_dir() / f"{src.name}.log"
    log.write_text("")
    return _Build(cache_dir() / src.name, tree, log, str(os.cpu_count() or 1))


def build_gmp(src: Path, say: Callable[[str], None]) -> Path:
    """Configures (for the host CPU), builds and installs GMP; returns its library."""
    b = _start(GMP, src, ("make", "cc", "m4"))
    say(f"building {GMP.name} for this CPU (a few minutes; log: {b.log})")
    configure = ["./configure", f"--prefix={b.prefix}", "--enable-shared", "--disable-static"]
    _run(configure, b.tree, b.log)
    _run(["make", f"-j{b.jobs}"], b.tree, b.log)
    _run(["make", "install"], b.tree, b.log)
    shutil.rmtree(b.tree)
    return b.prefix / GMP.library


def build_openssl(src: Path, say: Callable[[str], None]) -> Path:
    """Configures, builds and installs OpenSSL's libraries and tools; returns libcrypto."""
    b = _start(OPENSSL, src, ("make", "cc", "perl"))
    say(f"building {OPENSSL.name} (ten minutes or more; log: {b.log})")
    # openssl-src leaves out what its own build disables: shared libraries (their symbol
    # script's generator), loadable modules, the legacy provider, compression. So libcrypto is
    # built static, position-independent, and linked whole into a shared object for ctypes.
    configure = ["perl", "Configure", f"--prefix={b.prefix}", "--libdir=lib", "no-shared"]
    configure += ["-fPIC", "no-module", "no-legacy", "no-comp", "no-tests", "no-docs"]
    _run(configure, b.tree, b.log)
    _run(["make", f"-j{b.jobs}"], b.tree, b.log)
    _run(["make", "install_sw"], b.tree, b.log)
    lib = b.prefix / OPENSSL.library
    archive = b.prefix / "lib" / "libcrypto.a"
    link = ["cc", "-shared", "-o", str(lib), "-Wl,--whole-archive", str(archive)]
    _run([*link, "-Wl,--no-whole-archive", "-lpthread"], b.tree, b.log)
    shutil.rmtree(b.tree)
    return lib


def ensure(
    say: Callable[[str], None] = lambda _: None, sources: tuple[Source, ...] = (GMP, OPENSSL)
) -> dict[str, Path]:
    """The built libraries of ``sources`` by name, building what the cache lacks."""
    have = {s.name: installed(s) for s in sources}
    missing = tuple(s for s in sources if have[s.name] is None)
    if missing:
        cache_dir().mkdir(parents=True, exist_ok=True)
        folders = fetch(missing, say)
        builders = {GMP.name: build_gmp, OPENSSL.name: build_openssl}
        for s in missing:
            have[s.name] = builders[s.name](folders[s.name], say)
    return {name: path for name, path in have.items() if path is not None}
