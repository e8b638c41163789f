"""``python -m tracker.rulesets.engine.keep <ruleset id>``: archive the code's current version of a ruleset, its data and
contract, before its ``ruleset.json`` changes (then bump its ``version``; tracker/rulesets/README.md)."""

from __future__ import annotations

import sys

from tracker import rulesets
from tracker.rulesets.engine import archive


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    current = rulesets.get(args[0])
    print(archive.keep(current.data, current.contract()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
