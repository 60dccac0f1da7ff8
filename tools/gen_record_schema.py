"""Write the parts of the record schema that follow the profiles: the profile text.

A record's ``profile`` is a text that :func:`binocle.profile` reads: a profile's
name or alias (any case; a name's hyphens may be underscores), then optionally its
options in parentheses, ``name=value`` separated by commas, each name one of that
profile's options.  This script writes, in ``src/binocle/schemas/record.schema.json``,
one pattern per profile (``$defs/profile-<name>``) that matches exactly its texts
(the option values are left to the reader), the ``profile`` property as any of
them, and in ``allOf`` the seats held to the profile's number of seats:

    python tools/gen_record_schema.py          # rewrite the schema
    python tools/gen_record_schema.py --check  # exit 1 if it differs (tests run this)

Run it after adding a profile, an alias or an option.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "src" / "binocle" / "schemas" / "record.schema.json"


def _space() -> str:
    """A class of every character ``str.strip`` takes for white space (the reader strips
    the text, and the space around the name and the option names, so)."""
    codes = [c for c in range(0x110000) if chr(c).isspace()]
    parts = []
    start = prev = codes[0]
    for c in [*codes[1:], -1]:
        if c == prev + 1:
            prev = c
            continue
        parts.append(_u(start) if start == prev else f"{_u(start)}-{_u(prev)}")
        start = prev = c
    return "[" + "".join(parts) + "]"


def _u(code: int) -> str:
    return f"\\u{code:04x}"


def _any_case(word: str) -> str:
    """``word`` in a pattern that takes its letters in either case (the reader lowers it)."""
    out = []
    for ch in word:
        if ch.isalpha():
            out.append(f"[{ch.lower()}{ch.upper()}]")
        elif ch in "-_":
            out.append(ch)
        else:
            out.append(re.escape(ch))
    return "".join(out)


def profile_pattern(names: list[str], options: list[str]) -> str:
    """The pattern of a profile text: one of ``names`` (any case), then optionally
    ``(option=value, ...)`` with each option one of ``options``."""
    ws = _space()
    name = "(?:" + "|".join(_any_case(n) for n in sorted(names, key=lambda n: (-len(n), n))) + ")"
    option = "(?:" + "|".join(sorted(options)) + ")"
    part = f"{ws}*{option}{ws}*=[^,]*"
    inside = f"(?:{ws}*|{part}(?:,{part})*)"
    return f"^{ws}*{name}(?:{ws}*\\({inside}\\))?{ws}*$"


def generated() -> dict[str, Any]:
    """The schema with its profile parts written from the profiles of this binocle."""
    import attrs

    from binocle.profiles import _aliases, _load

    doc: dict[str, Any] = json.loads(SCHEMA.read_text(encoding="utf-8"))
    for old in [k for k in doc["$defs"] if k.startswith("profile")]:
        del doc["$defs"][old]
    aliases = _aliases()
    seats: dict[int, list[str]] = {}
    for name in sorted(set(aliases.values())):
        cls = _load(name)
        names = [a for a, n in aliases.items() if n == name]
        options = sorted(f.name for f in attrs.fields(cls))
        seats.setdefault(cls.players, []).append(name)
        doc["$defs"][f"profile-{name}"] = {
            "type": "string",
            "pattern": profile_pattern(names, options),
            "description": f"The profile {name}: {', '.join(sorted(names))} (any case),"
            f" then optionally its options in parentheses, name=value separated by commas"
            f" ({', '.join(options)}); the values are left to the reader.",
        }
    refs = {
        n: [{"$ref": f"#/$defs/profile-{name}"} for name in names] for n, names in seats.items()
    }
    doc["properties"]["profile"] = {
        "anyOf": [r for n in sorted(refs) for r in refs[n]],
        "description": "The profile played, as a spec text that binocle.profile reads"
        ' ("classic", "cutthroat(min_bid=300)"): a profile\'s name or alias, then its'
        " options if any.",
    }
    doc["allOf"] = [
        {
            "if": {
                "required": ["profile"],
                "properties": {"profile": {"anyOf": refs[n]}},
            },
            "then": {
                "properties": {
                    "first_dealer": {"maximum": n - 1},
                    "seats": {"minItems": n, "maxItems": n},
                    "actions": {"items": {"properties": {"seat": {"maximum": n - 1}}}},
                }
            },
        }
        for n in sorted(refs)
    ]
    return doc


def text(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT / "src"))
    new = text(generated())
    if "--check" in argv:
        if SCHEMA.read_text(encoding="utf-8") != new:
            print(f"{SCHEMA} is not up to date: run python tools/gen_record_schema.py")
            return 1
        return 0
    SCHEMA.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
