#!/usr/bin/env python3
"""Checks that every function of a compiled library that writes ymm registers clears their upper halves
(vzeroupper) before it returns (ctest `tools: every function of the library that uses ymm registers ends with
vzeroupper`, label unit).

Why: the build is SSE (x86-64 baseline) and only a few hand-written kernels are compiled for AVX2 through
target attributes, where GCC emits no vzeroupper. A kernel that returns with the ymm upper halves dirty makes every
later SSE instruction of the process pay a merge penalty: 3.5x slower wrinkle synthesis and a 1.5x slower frame
after the linear operator's kernel until 2026-11-30 (docs/upsampling.md, "Why these are half the earlier figures").
No timing is involved: the check reads the disassembly (objdump) and, per function, requires a vzeroupper on every
path from the last ymm write to a return, approximated in address order: between the last instruction that writes a
ymm register and each ret after it there must be a vzeroupper.

usage: check_vzeroupper.py LIBRARY.a [--objdump objdump]
Exit status 0 when every such function is clean, 1 naming the ones that are not, 77 (skipped) without objdump.
"""
import re
import shutil
import subprocess
import sys

FUNCTION = re.compile(r"^[0-9a-f]+ <(.+)>:$")
INSTRUCTION = re.compile(r"^\s+[0-9a-f]+:\s+(\S+)\s*(.*)$")


def functions(disassembly):
    """(name, [(mnemonic, operands)]) per function of objdump -d output."""
    name, body = None, []
    for line in disassembly.splitlines():
        head = FUNCTION.match(line)
        if head:
            if name:
                yield name, body
            name, body = head.group(1), []
            continue
        ins = INSTRUCTION.match(line)
        if name and ins:
            body.append((ins.group(1), ins.group(2)))
    if name:
        yield name, body


def writes_ymm(operands):
    """AT&T syntax: the destination is the last operand."""
    parts = [p.strip() for p in re.split(r",(?![^(]*\))", operands) if p.strip()]
    return bool(parts) and "%ymm" in parts[-1]


def dirty_returns(body):
    """Indices of the rets reached, in address order, after a ymm write with no vzeroupper in between."""
    dirty, bad = False, []
    for i, (mnemonic, operands) in enumerate(body):
        if mnemonic == "vzeroupper" or mnemonic == "vzeroall":
            dirty = False
        elif writes_ymm(operands):
            dirty = True
        elif mnemonic.startswith("ret") and dirty:
            bad.append(i)
        elif mnemonic.startswith(("call", "jmp")) and dirty and "<" in operands and "+0x" not in operands:
            bad.append(i)  # a call or tail call into another function with the state dirty
    return bad


def main(argv):
    if len(argv) < 2:
        print("usage: check_vzeroupper.py LIBRARY.a [--objdump objdump]", file=sys.stderr)
        return 2
    objdump = argv[argv.index("--objdump") + 1] if "--objdump" in argv else "objdump"
    if not shutil.which(objdump):
        print(f"check_vzeroupper: {objdump} not found", file=sys.stderr)
        return 77
    out = subprocess.run([objdump, "-d", "--no-show-raw-insn", "-C", argv[1]], capture_output=True, text=True,
                         check=True).stdout
    checked, failures = 0, []
    for name, body in functions(out):
        if not any(writes_ymm(ops) for _, ops in body):
            continue
        checked += 1
        if dirty_returns(body):
            failures.append(name)
    for name in failures:
        print(f"{argv[1]}: {name} returns or calls out with the ymm upper halves dirty (no vzeroupper)")
    print(f"check_vzeroupper: {checked} function(s) using ymm registers, {len(failures)} without vzeroupper")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
