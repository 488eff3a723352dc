"""Readings a book's `fingerprint` option may call: what decides a floating-point path
that the libraries themselves do not report.

Each runs inside the session, after the last snippet, like every expression of the
option (bookrun.execute.worker.loop.platform_fingerprint), and only reads.
"""
from __future__ import annotations

import platform


def cpu_vendor() -> str:
    """The CPU's vendor as the kernel names it (GenuineIntel, AuthenticAMD, ...).

    Intel's MKL (the BLAS of PyTorch's x86-64 wheels) takes code paths by vendor as
    well as by instruction set: on an AMD CPU its single matrix products follow Intel's AVX2 branch
    only when MKL_CBWR=AVX2 is set, and its batched products no branch at all, so two
    machines with the same SIMD level print other digits (DESIGN-NOTES.md, "Platforms
    and versions"). Where the kernel does not say (not Linux), the processor's name."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() in ("vendor_id", "CPU implementer"):
                    return value.strip()
    except OSError:
        pass
    return platform.processor() or "unknown"
