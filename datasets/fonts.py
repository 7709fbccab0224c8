"""The studio's typefaces, named one by one so that a seed draws the same photo on every machine.

The studio used to draw numbers in whatever DejaVu, Liberation and FreeSans faces a glob found
installed: a machine with more or fewer fonts drew other numbers for the same seed, so the
training data, the test split and the committed models' figures silently changed with it. The
faces are now these 21 DejaVu ones (Debian's ``fonts-dejavu-core`` and ``fonts-dejavu-extra``),
looked up by file name, and a missing one stops the studio with a message saying what to install.
This module imports nothing heavy: the command line catches ``MissingFonts`` without loading the
studio.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

FONT_NAMES = (
    "DejaVuSans-Bold.ttf",
    "DejaVuSans-BoldOblique.ttf",
    "DejaVuSans-ExtraLight.ttf",
    "DejaVuSans-Oblique.ttf",
    "DejaVuSans.ttf",
    "DejaVuSansCondensed-Bold.ttf",
    "DejaVuSansCondensed-BoldOblique.ttf",
    "DejaVuSansCondensed-Oblique.ttf",
    "DejaVuSansCondensed.ttf",
    "DejaVuSansMono-Bold.ttf",
    "DejaVuSansMono-BoldOblique.ttf",
    "DejaVuSansMono-Oblique.ttf",
    "DejaVuSansMono.ttf",
    "DejaVuSerif-Bold.ttf",
    "DejaVuSerif-BoldItalic.ttf",
    "DejaVuSerif-Italic.ttf",
    "DejaVuSerif.ttf",
    "DejaVuSerifCondensed-Bold.ttf",
    "DejaVuSerifCondensed-BoldItalic.ttf",
    "DejaVuSerifCondensed-Italic.ttf",
    "DejaVuSerifCondensed.ttf",
)
# Where Linux distributions and macOS keep fonts (Debian's is the first); expanduser, unlike
# Path.home(), never raises where no home folder is known (a service's account).
FONT_FOLDERS = tuple(
    Path(os.path.expanduser(folder))
    for folder in (
        "/usr/share/fonts",
        "/usr/local/share/fonts",
        "~/.local/share/fonts",
        "~/.fonts",
        "/Library/Fonts",
        "~/Library/Fonts",
    )
)


class MissingFonts(RuntimeError):
    """The studio cannot draw its numbers: some of its fonts are not installed."""


def font_files(names: tuple[str, ...] = FONT_NAMES, folders: tuple[Path, ...] | None = None) -> tuple[str, ...]:
    """The path of each font named, in order, from the first of ``folders`` (default:
    ``FONT_FOLDERS``) holding it, subfolders included; ``MissingFonts`` names those found nowhere."""
    found = _installed(FONT_FOLDERS if folders is None else folders)
    missing = [name for name in names if name not in found]
    if missing:
        raise MissingFonts(
            f"the studio draws numbers in {len(names)} DejaVu fonts and {len(missing)} are not installed"
            f" ({', '.join(missing[:3])}{', ...' if len(missing) > 3 else ''}); on Debian or Ubuntu:"
            " apt-get install fonts-dejavu-core fonts-dejavu-extra"
        )
    return tuple(found[name] for name in names)


@cache
def _installed(folders: tuple[Path, ...]) -> dict[str, str]:
    """File name -> path of every TrueType font under ``folders`` (the first of each name)."""
    found: dict[str, str] = {}
    for folder in folders:
        if folder.is_dir():
            for path in sorted(folder.rglob("*.ttf")):
                found.setdefault(path.name, str(path))
    return found
