/* SPDX-License-Identifier: MIT */
/* Entry of the bare-metal counter test: QEMU virt with -bios none starts
 * hart 0 here, at 0x80000000, in machine mode, interrupts off. */
	.section .text.start, "ax"
	.globl	_start
_start:
	.option push
	.option norelax
	la	sp, __stack_top
	.option pop
	la	t0, trap_entry
	csrw	mtvec, t0
	la	t0, __bss_start
	la	t1, __bss_end
1:	bgeu	t0, t1, 2f
	sw	zero, 0(t0)
	addi	t0, t0, 4
	j	1b
2:	call	main
	call	poweroff		/* with main's result in a0; does not return */
3:	j	3b

	/* any exception (an unimplemented CSR traps as an illegal
	 * instruction): report it and power off with a failure */
	.align	2
trap_entry:
	csrr	a0, mcause
	csrr	a1, mepc
	csrr	a2, mtval
	call	trap
4:	j	4b
