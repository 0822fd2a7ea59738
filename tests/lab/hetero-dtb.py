#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The heterogeneous arm64 guest's device tree: QEMU's own `virt` tree
(dumped with -M virt,gic-version=3,dumpdtb=FILE -smp 4, decompiled by dtc)
made into a big.LITTLE board's, as such boards describe theirs: two PMU nodes,
"arm,cortex-a55-pmu" on CPUs 0-1 and "arm,cortex-a76-pmu" on CPUs 2-3, whose
one PPI (7) is split between them by the GICv3 binding's ppi-partitions. With
partitions the GIC takes 4 interrupt cells, so every other interrupt specifier
gains a fourth cell (0: no partition); the PCIe host's interrupt-map (whose
entries embed GIC specifiers) is removed, the guest has no PCI device.

usage: hetero-dtb.py IN.dts OUT.dts   (exit 1, with the reason, when the tree
is not the one expected: a QEMU whose tree changed is a lab failure)
"""
import re
import sys

PART_PHANDLES = (0x9001, 0x9002)
CLUSTERS = (("cortex-a55", (0, 1)), ("cortex-a76", (2, 3)))


def fail(why):
    print(f"hetero-dtb: {why}", file=sys.stderr)
    sys.exit(1)


def main():
    if len(sys.argv) != 3:
        fail("usage: hetero-dtb.py IN.dts OUT.dts")
    dts = open(sys.argv[1]).read()

    # CPU nodes' phandles, by CPU number
    cpus = {int(m.group(1), 16): m.group(2)
            for m in re.finditer(r"cpu@([0-9a-f]+) \{\s*phandle = <(0x[0-9a-f]+)>;", dts)}
    if sorted(cpus) != [0, 1, 2, 3]:
        fail(f"expected 4 CPU nodes with phandles (-smp 4), found {sorted(cpus)}")

    # the one PMU node: out
    pmu = re.search(r"\n\tpmu \{\n\t\tinterrupts = <0x01 0x07 0x04>;\n\t\tcompatible = \"arm,armv8-pmuv3\";\n\t\};\n", dts)
    if not pmu:
        fail("no 'pmu' node with PPI 7 (interrupts = <0x01 0x07 0x04>)")
    dts = dts[:pmu.start()] + "\n" + dts[pmu.end():]

    # the PCIe host's interrupt-map: out
    dts, n = re.subn(r"\n\t\tinterrupt-map(-mask)? = <[^>]*>;", "", dts)
    if n != 2:
        fail(f"expected the PCIe host's interrupt-map and interrupt-map-mask, removed {n} lines")

    # every GIC specifier of 3 cells gains a fourth (0)
    def widen(m):
        cells = m.group(1).split()
        if len(cells) % 3:
            fail(f"an interrupts property of {len(cells)} cells: {m.group(0)}")
        out = []
        for i in range(0, len(cells), 3):
            out += cells[i:i + 3] + ["0x00"]
        return "interrupts = <" + " ".join(out) + ">;"
    dts = re.sub(r"interrupts = <([^>]*)>;", widen, dts)

    # the GIC: 4 cells, and the partitions of PPI 7's CPUs
    gic = re.search(r"compatible = \"arm,gic-v3\";", dts)
    if not gic:
        fail("no arm,gic-v3 interrupt controller (-M virt,gic-version=3)")
    dts, n = re.subn(r"(interrupt-controller;\n\t\t)#interrupt-cells = <0x03>;",
                     r"\1#interrupt-cells = <0x04>;", dts)
    if n != 1:
        fail("the GIC's #interrupt-cells = <0x03> not found")
    parts = "\n\t\tppi-partitions {\n"
    for i, (core, members) in enumerate(CLUSTERS):
        aff = " ".join(cpus[c] for c in members)
        parts += (f"\n\t\t\tinterrupt-partition-{i} {{\n\t\t\t\tphandle = <{PART_PHANDLES[i]:#x}>;\n"
                  f"\t\t\t\taffinity = <{aff}>;\n\t\t\t}};\n")
    parts += "\t\t};\n"
    dts = dts.replace("#interrupt-cells = <0x04>;\n", "#interrupt-cells = <0x04>;\n" + parts, 1)

    # one PMU node per cluster, on its partition of PPI 7
    nodes = ""
    for i, (core, _) in enumerate(CLUSTERS):
        nodes += (f"\n\tpmu-{core} {{\n\t\tinterrupts = <0x01 0x07 0x04 {PART_PHANDLES[i]:#x}>;\n"
                  f"\t\tcompatible = \"arm,{core}-pmu\";\n\t}};\n")
    last = dts.rstrip().rfind("};")
    dts = dts[:last] + nodes + "};\n"
    open(sys.argv[2], "w").write(dts)


if __name__ == "__main__":
    main()
