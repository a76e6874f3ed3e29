#!/usr/bin/env python3
"""Writes the damaged-JSON corpus under tests/data/bad/{tables,spaces}/ from a valid table and a valid space
file: each damage a file, kept in git so a reader regression shows as a failing case. Run from the repository
root after changing the table or space format: python3 tests/data/bad/make_corpus.py"""
import copy
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))


def text_damages(valid, number_key):
    """Damage to the bytes: the same for every reader. A UTF-8 byte-order mark is not damage (RFC 8259 lets a
    parser ignore it, and gemmtune does): ok-bom must be accepted."""
    return {
        "empty": b"",
        "whitespace": b"  \n\t ",
        "truncated-half": valid[: len(valid) // 2],
        "truncated-last-brace": valid.rstrip()[:-1],
        "trailing-comma": valid.rstrip()[:-1].rstrip() + b",}",
        "nan-literal": b'{"schema_version": NaN}',
        "infinity-literal": b'{"space_version": Infinity}',
        "ok-bom": b"\xef\xbb\xbf" + valid,
        "invalid-utf8": valid.replace(b'"', b'"\xff', 1),
        "nul-byte": valid[:10] + b"\x00" + valid[10:],
        "single-quotes": valid.replace(b'"', b"'"),
        "comment": b"// a comment\n" + valid,
        "two-documents": valid + valid,
        "array": b"[]",
        "string": b'"table"',
        "number": b"4",
        "null": b"null",
        "unclosed-string": b'{"schema_version": 4, "tool": "gemmtune',
        "huge-number": valid.replace(number_key, number_key + b"123456789012345678901234567890", 1),
        "deep-nesting": b"[" * 100000 + b"]" * 100000,
    }


def structure_damages(doc, edits):
    out = {}
    for name, edit in edits.items():
        d = copy.deepcopy(doc)
        edit(d)
        out[name] = json.dumps(d).encode()
    return out


def table_edits():
    def entry(d):
        return next(e for e in d["entries"] if e["best"] is not None)
    return {
        "version-3": lambda d: d.__setitem__("schema_version", 3),
        "version-99": lambda d: d.__setitem__("schema_version", 99),
        "version-string": lambda d: d.__setitem__("schema_version", "4"),
        "version-negative": lambda d: d.__setitem__("schema_version", -4),
        "no-version": lambda d: d.pop("schema_version"),
        "no-device": lambda d: d.pop("device"),
        "no-entries": lambda d: d.pop("entries"),
        "entries-object": lambda d: d.__setitem__("entries", {}),
        "m-string": lambda d: entry(d).__setitem__("m", "1"),
        "m-negative": lambda d: entry(d).__setitem__("m", -1),
        "m-float": lambda d: entry(d).__setitem__("m", 1.5),
        "m-zero": lambda d: entry(d).__setitem__("m", 0),
        "m-past-2-64": lambda d: entry(d).__setitem__("m", 2 ** 64),
        "dtype-number": lambda d: entry(d).__setitem__("dtype", 16),
        "no-best": lambda d: entry(d).pop("best"),
        "best-string": lambda d: entry(d).__setitem__("best", "fast"),
        "median-string": lambda d: entry(d)["best"].__setitem__("median_us", "1.0"),
        "params-list": lambda d: entry(d)["best"].__setitem__("params", [1, 2]),
        "runs-zero": lambda d: entry(d)["best"].__setitem__("runs_per_sample", 0),
        "ld-missing-c": lambda d: entry(d)["ld"].pop("c"),
        "epilogue-null": lambda d: entry(d).__setitem__("epilogue", None),
        "cold-string": lambda d: entry(d).__setitem__("cold", "no"),
        "vendor-negative": lambda d: d["device"].__setitem__("vendor_id", -1),
        "peak-string": lambda d: d["device"].__setitem__("peak", "fast"),
    }


def space_edits():
    return {
        "version-2": lambda d: d.__setitem__("space_version", 2),
        "no-version": lambda d: d.pop("space_version"),
        "no-variants": lambda d: d.pop("variants"),
        "variants-list": lambda d: d.__setitem__("variants", []),
        "unknown-variant": lambda d: d["variants"].__setitem__("gemv", {"x": [1]}),
        "variant-list": lambda d: d["variants"].__setitem__("tiled", [32]),
        "unknown-param": lambda d: d["variants"]["tiled"].__setitem__("bq", [8]),
        "empty-values": lambda d: d["variants"]["tiled"].__setitem__("bm", []),
        "value-unsupported": lambda d: d["variants"]["tiled"].__setitem__("bm", [48]),
        "value-negative": lambda d: d["variants"]["tiled"].__setitem__("bm", [-32]),
        "value-float": lambda d: d["variants"]["tiled"].__setitem__("bm", [32.5]),
        "value-string": lambda d: d["variants"]["tiled"].__setitem__("bm", ["32"]),
        "value-huge": lambda d: d["variants"]["tiled"].__setitem__("bm", [2 ** 64]),
        "values-object": lambda d: d["variants"]["tiled"].__setitem__("bm", {"a": 32}),
        "value-null": lambda d: d["variants"]["tiled"].__setitem__("bm", [None]),
        "fewrows-unknown": lambda d: d["variants"]["fewrows"].__setitem__("rows", [8]),
        "coopmat-bad-bk": lambda d: d["variants"]["coopmat"].__setitem__("bk", [8]),
        "splitk-zero": lambda d: d["variants"]["splitk"].__setitem__("splits", [0]),
        "version-string": lambda d: d.__setitem__("space_version", "1"),
        "variants-null": lambda d: d.__setitem__("variants", None),
    }


def duplicate_key(valid, key):
    text = valid.decode()
    at = text.index('"' + key + '"')
    line_start = text.rfind("\n", 0, at) + 1
    return (text[:line_start] + text[at:].split("\n", 1)[0].rstrip(",") + ",\n" + text[line_start:]).encode()


def write(folder, damages):
    os.makedirs(folder, exist_ok=True)
    for name in os.listdir(folder):
        os.remove(os.path.join(folder, name))
    for name, data in damages.items():
        with open(os.path.join(folder, name + ".json"), "wb") as f:
            f.write(data)


def main():
    with open(os.path.join(ROOT, "tests", "data", "tables", "llvmpipe.json"), "rb") as f:
        table_bytes = f.read()
    with open(os.path.join(ROOT, "configs", "spaces", "default.json"), "rb") as f:
        space_bytes = f.read()
    tables = text_damages(table_bytes, b'"m": ')
    tables.update(structure_damages(json.loads(table_bytes), table_edits()))
    tables["duplicate-key"] = duplicate_key(table_bytes, "schema_version")
    spaces = text_damages(space_bytes, b'"space_version": ')
    spaces.update(structure_damages(json.loads(space_bytes), space_edits()))
    spaces["duplicate-key"] = duplicate_key(space_bytes, "space_version")
    write(os.path.join(HERE, "tables"), tables)
    write(os.path.join(HERE, "spaces"), spaces)
    print(f"{len(tables)} damaged tables, {len(spaces)} damaged space files")


if __name__ == "__main__":
    main()
