"""A wheel of redgen builds specs: the templates and the grammar travel as package data.

The wheel is built from a copy of the repository's packaged files (the checkout stays
untouched), installed with `pip install --no-deps --target` into a temp dir and run with
`python -S`: without site processing the venv's editable install (its .pth finder, which
would map redgen.templates back onto this checkout) is not active, so only the wheel's
files can serve redgen; torch, triton, lark, jinja2 and z3 come from site-packages put
on PYTHONPATH after the wheel. About 15 s, most of it the interpreter check of mean.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from setuptools import find_packages
from setuptools.config.pyprojecttoml import read_configuration

from redgen import emit
from redgen.errors import MissingTemplates

ROOT = Path(__file__).resolve().parent.parent
PROJECT = read_configuration(ROOT / "pyproject.toml")["tool"]["setuptools"]

# Runs inside the isolated interpreter: where redgen and its templates come from.
_WHERE = "import redgen, redgen.emit as e; print(redgen.__file__); print(e.template_root())"


def _build_wheel(tmp: Path) -> Path:
    src = tmp / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    for name in ("redgen", "templates", "generated"):
        shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__"))
    # setuptools >= 70.1 builds wheels itself: no build isolation (no index) is needed then.
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "--no-build-isolation",
                           "-q", "-w", str(tmp / "dist")], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (wheel,) = (tmp / "dist").glob("redgen-*.whl")
    return wheel


def test_wheel_install_builds_a_spec(tmp_path: Path):
    wheel = _build_wheel(tmp_path)
    names = set(zipfile.ZipFile(wheel).namelist())
    # Every template file and the grammar are in the wheel (a new template folder is too: "*/*.j2").
    shipped = {f"redgen/templates/{p.relative_to(ROOT / 'templates').as_posix()}"
               for p in (ROOT / "templates").rglob("*.j2")}
    assert shipped and shipped <= names, sorted(shipped - names)
    assert "redgen/grammar.lark" in names
    site = tmp_path / "site"
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index",
                           "--target", str(site), str(wheel)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr

    user = tmp_path / "user"  # a user's directory: a spec of theirs, no checkout anywhere
    (user / "specs").mkdir(parents=True)
    shutil.copy(ROOT / "specs" / "mean.red", user / "specs" / "mean.red")
    env = {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", "/tmp"), "TRITON_INTERPRET": "1",
           "PYTHONPATH": os.pathsep.join([str(site), sysconfig.get_paths()["purelib"]]),
           "REDGEN_CACHE": str(tmp_path / "cache")}  # empty: the interpreter check runs, from the wheel
    where = subprocess.run([sys.executable, "-S", "-c", _WHERE], cwd=user, env=env,
                           capture_output=True, text=True, timeout=300)
    assert where.returncode == 0, where.stderr
    assert where.stdout.split() == [str(site / "redgen" / "__init__.py"), str(site / "redgen" / "templates")]

    build = subprocess.run([sys.executable, "-S", "-m", "redgen", "build", "specs/mean.red", "--target", "cuda",
                            "--out", "out"], cwd=user, env=env, capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stdout + build.stderr
    assert "empirical passed" in build.stderr, build.stderr
    text = (user / "out" / "cuda" / "mean.py").read_text()
    assert "def mean(" in text and "CERTIFICATE" in text


def test_package_list_covers_every_package():
    """pyproject.toml lists packages by hand (a mapped package rules out packages.find): a package
    added under redgen/ or generated/ and not listed would be missing from the wheel."""
    found = set(find_packages(str(ROOT), include=["redgen", "redgen.*", "generated", "generated.*"]))
    assert set(PROJECT["packages"]) == found | {"redgen.templates"}
    assert PROJECT["package-dir"] == {"redgen.templates": "templates"}


def test_templates_beside_the_running_checkout_come_first(monkeypatch, tmp_path: Path):
    """A second checkout (a git worktree) imported while another one is installed editable
    renders its own templates, not the installed package's."""
    other = tmp_path / "worktree"
    (other / "templates" / "cuda").mkdir(parents=True)
    (other / "templates" / "__init__.py").write_text("")
    (other / "templates" / "cuda" / "module.py.j2").write_text("")
    monkeypatch.setattr(emit, "__file__", str(other / "redgen" / "emit.py"))
    assert emit.importlib.util.find_spec("redgen.templates") is not None  # this checkout, installed
    assert emit.template_root() == other / "templates"
    # a folder named templates that is not redgen's (no cuda/module.py.j2) is passed over
    (other / "templates" / "cuda" / "module.py.j2").unlink()
    assert emit.template_root() != other / "templates"


def test_missing_templates_is_a_coded_error(monkeypatch, tmp_path: Path):
    """An install without its package data (and no checkout beside it) says so, with a code."""
    monkeypatch.setattr(emit.importlib.util, "find_spec", lambda name: None)
    monkeypatch.setattr(emit, "__file__", str(tmp_path / "redgen" / "emit.py"))
    with pytest.raises(MissingTemplates) as e:
        emit.template_root()
    assert e.value.code == "F505" and str(tmp_path / "templates") in e.value.message
