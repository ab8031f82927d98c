"""Rule profiles: TOML files of house rules, shipped in ``engine/profiles`` or written by the user.

A profile may say ``extends = "other"``; its tables are merged over the parent's, key by key.
Unknown keys are errors (a typo must not silently fall back to a default).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from engine.errors import ProfileError

PROFILE_DIR = Path(__file__).resolve().parent / "profiles"


def shipped_profiles(game: str | None = None) -> list[str]:
    """Names of the profiles shipped with kibitz, optionally only those of one game."""
    names = []
    for path in sorted(PROFILE_DIR.glob("*.toml")):
        if game is None or _read(path).get("game", _parent_game(path)) == game:
            names.append(path.stem)
    return names


def load_profile_data(name_or_path: str | Path) -> dict[str, Any]:
    """The merged tables of a profile, following ``extends`` (a shipped name or a file path)."""
    return _load(name_or_path, seen=())


def _load(name_or_path: str | Path, seen: tuple[Path, ...]) -> dict[str, Any]:
    path = _resolve(name_or_path)
    if path in seen:
        raise ProfileError(f"profile {path} extends itself (cycle: {' -> '.join(p.stem for p in seen)})")
    data = _read(path)
    parent = data.pop("extends", None)
    if parent is None:
        return data
    base = _load(parent, (*seen, path))
    unknown = _unknown_keys(base, data)
    if unknown:
        raise ProfileError(f"profile {path.name}: unknown setting(s) {', '.join(unknown)} (not in {parent!r})")
    return _merge(base, data)


def _resolve(name_or_path: str | Path) -> Path:
    candidate = Path(name_or_path)
    if candidate.suffix == ".toml" or candidate.is_file():
        if not candidate.is_file():
            raise ProfileError(f"rules file {candidate} does not exist")
        return candidate.resolve()
    shipped = PROFILE_DIR / f"{name_or_path}.toml"
    if not shipped.is_file():
        raise ProfileError(f"unknown profile {str(name_or_path)!r}; shipped: {', '.join(shipped_profiles())}")
    return shipped


def _read(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"rules file {path} is not valid TOML: {exc}") from exc
    except OSError as exc:
        raise ProfileError(f"cannot read rules file {path}: {exc}") from exc


def _parent_game(path: Path) -> str | None:
    parent = _read(path).get("extends")
    return None if parent is None else _read(_resolve(parent)).get("game", _parent_game(_resolve(parent)))


def _unknown_keys(base: dict[str, Any], data: dict[str, Any], prefix: str = "") -> list[str]:
    unknown = []
    for key, value in data.items():
        if key in ("name", "description", "game"):
            continue
        if key not in base:
            unknown.append(prefix + key)
        elif isinstance(value, dict) and isinstance(base[key], dict):
            unknown += _unknown_keys(base[key], value, f"{prefix}{key}.")
    return unknown


def _merge(base: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in data.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            merged[key] = _merge(base[key], value)
        else:
            merged[key] = value
    return merged


def take(table: dict[str, Any], key: str, kind: type, where: str, choices: tuple[str, ...] = ()) -> Any:
    """Read one setting with a type check that names the setting when it is wrong."""
    if key not in table:
        raise ProfileError(f"profile is missing {where}.{key}")
    value = table[key]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise ProfileError(f"{where}.{key} must be a whole number, not {value!r}")
    if not isinstance(value, kind):
        raise ProfileError(f"{where}.{key} must be a {kind.__name__}, not {value!r}")
    if choices and value not in choices:
        raise ProfileError(f"{where}.{key} must be one of {', '.join(choices)}, not {value!r}")
    return value
