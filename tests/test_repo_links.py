"""The repository tracks no symlink that points outside itself: such a link names a folder of one
machine (``.venv-main -> /work/main/.venv`` did) and exists nowhere else."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import tabletop_widgets

ROOT = Path(tabletop_widgets.__file__).resolve().parents[1]


def tracked_links(root: Path) -> list[str]:
    """The paths of the symlinks git tracks in ``root`` (mode 120000)."""
    out = subprocess.run(["git", "ls-files", "-s"], cwd=root, capture_output=True, text=True, check=True).stdout
    return [line.split("\t", 1)[1] for line in out.splitlines() if line.startswith("120000 ")]


def links_outside(root: Path) -> list[str]:
    """``path -> target`` for every tracked symlink whose target is absolute or leaves ``root``."""
    bad = []
    for path in tracked_links(root):
        target = os.readlink(root / path)
        resolved = (root / path).parent.joinpath(target).resolve()
        if os.path.isabs(target) or not resolved.is_relative_to(root.resolve()):
            bad.append(f"{path} -> {target}")
    return bad


def test_no_tracked_symlink_points_outside_the_repository():
    assert (ROOT / ".git").exists(), "run from a git checkout"
    assert not links_outside(ROOT)


def test_the_check_finds_an_absolute_link_and_one_that_climbs_out(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    (repo / "inside.txt").write_text("x")
    os.symlink("inside.txt", repo / "ok")
    os.symlink(str(ROOT), repo / "absolute")
    os.symlink("../..", repo / "climbs")
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    assert sorted(links_outside(repo)) == sorted([f"absolute -> {ROOT}", "climbs -> ../.."])
    assert tracked_links(repo) and "ok" in tracked_links(repo)
