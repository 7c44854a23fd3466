"""contrib/: the systemd unit and the Containerfile of docs/hosting.md
are well formed and run ``lucie serve`` with options it has."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from lucie.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "contrib" / "lucie.service"
CONTAINERFILE = ROOT / "contrib" / "Containerfile"

#: The keys the unit may use, by section (a typo is a key systemd ignores).
KEYS = {
    "Unit": {"Description", "Documentation", "After", "Wants", "Requires"},
    "Service": {"Type", "User", "Group", "Environment", "ExecStart", "StateDirectory",
                "WorkingDirectory", "Restart", "RestartSec", "LimitNOFILE", "NoNewPrivileges",
                "ProtectSystem", "ProtectHome", "PrivateTmp", "PrivateDevices",
                "ProtectKernelTunables", "ProtectKernelModules", "ProtectControlGroups",
                "RestrictAddressFamilies", "LockPersonality", "MemoryDenyWriteExecute",
                "ReadWritePaths"},
    "Install": {"WantedBy"},
}


def unit_sections(text: str) -> dict[str, dict[str, str]]:
    sections: dict[str, dict[str, str]] = {}
    current: dict[str, str] | None = None
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith(("#", ";")):
            continue
        header = re.fullmatch(r"\[(\w+)\]", line)
        if header:
            assert header[1] not in sections, f"line {number}: [{header[1]}] twice"
            current = sections.setdefault(header[1], {})
            continue
        key, eq, value = line.partition("=")
        assert eq and current is not None, f"line {number}: not key=value in a section"
        assert key not in current, f"line {number}: {key} twice"
        current[key] = value
    return sections


def serve_args(argv: list[str]) -> None:
    """``lucie serve`` accepts ``argv`` (argparse exits on an unknown option)."""
    assert argv[:2] == ["lucie", "serve"], argv
    args = build_parser().parse_args(argv[1:])
    assert args.func.__name__ == "cmd_serve"


def test_the_systemd_unit() -> None:
    sections = unit_sections(UNIT.read_text(encoding="utf-8"))
    assert set(sections) == set(KEYS)
    for name, keys in sections.items():
        assert set(keys) <= KEYS[name], set(keys) - KEYS[name]
    command = shlex.split(sections["Service"]["ExecStart"])
    assert command[0].startswith("/") and command[0].endswith("/lucie")
    serve_args(["lucie", *command[1:]])
    assert "--host" in command and command[command.index("--host") + 1] == "127.0.0.1"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_systemd_finds_nothing_wrong_but_the_missing_program(tmp_path: Path) -> None:
    unit = tmp_path / "lucie.service"
    unit.write_text(UNIT.read_text(encoding="utf-8"), encoding="utf-8")
    r = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True,
                       text=True, timeout=60)
    # (the program is where the unit says only once lucie is installed there)
    problems = [line for line in (r.stdout + r.stderr).splitlines()
                if line.strip() and "/opt/lucie/bin/lucie" not in line]
    assert problems == []


def test_the_containerfile() -> None:
    text = CONTAINERFILE.read_text(encoding="utf-8")
    known = {"FROM", "RUN", "WORKDIR", "COPY", "USER", "ENV", "VOLUME", "EXPOSE",
             "HEALTHCHECK", "CMD"}
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    assert lines[0].startswith("FROM ")
    assert {line.split()[0] for line in lines} <= known
    cmd = next(line for line in lines if line.startswith("CMD "))
    serve_args(json.loads(cmd[4:]))
    assert "'.[site]'" in text and "/healthz" in text
