// The x86-64 trampolines (see include/linnet_lazy_libraries.h for the whole mechanism).
#if defined(__x86_64__)

// Starts a library's tables: its slots (written once, when it is opened) and its names.
.macro lazy_library lib, soname
    .set \lib\()_count, 0
    .section .data.linnet_lazy_\lib\()_slots, "aw"
    .p2align 3
\lib\()_slots:
    .section .data.rel.ro.linnet_lazy_\lib\()_names, "aw"
    .p2align 3
\lib\()_names:
    .section .rodata.linnet_lazy_\lib\()_strings, "a"
\lib\()_soname:
    .asciz "\soname"
.endm

// One function: `sym` jumps through its slot; the slot starts at a stub that enters the
// library's resolver with the slot's address in %r11 (a scratch register no call passes
// arguments in).
.macro lazy_symbol lib, sym
    .text
    .globl \sym
    .hidden \sym
    .type \sym, @function
    .p2align 4
\sym:
    jmp *.Lslot_\sym(%rip)
.Lpending_\sym:
    leaq .Lslot_\sym(%rip), %r11
    jmp \lib\()_resolve
    .size \sym, . - \sym
    .section .data.linnet_lazy_\lib\()_slots, "aw"
.Lslot_\sym:
    .quad .Lpending_\sym
    .section .rodata.linnet_lazy_\lib\()_strings, "a"
.Lname_\sym:
    .asciz "\sym"
    .section .data.rel.ro.linnet_lazy_\lib\()_names, "aw"
    .quad .Lname_\sym
    .set \lib\()_count, \lib\()_count + 1
.endm

// Ends a library: its descriptor (struct linnet_lazy_library) and its resolver. The resolver is
// entered with the caller's return address on top (%rsp = 8 mod 16); seven pushes and 128 bytes
// keep the call into C aligned. Every argument register (and %rax, the vector count of a
// variadic call) is restored before the jump to the real function.
.macro lazy_library_end lib
    .data
    .p2align 3
    .globl \lib\()_library
    .hidden \lib\()_library
\lib\()_library:
    .quad \lib\()_soname, \lib\()_names, \lib\()_slots, \lib\()_count, 0
    .text
    .p2align 4
\lib\()_resolve:
    pushq %rdi
    pushq %rsi
    pushq %rdx
    pushq %rcx
    pushq %r8
    pushq %r9
    pushq %rax
    subq $128, %rsp
    movdqu %xmm0, 0(%rsp)
    movdqu %xmm1, 16(%rsp)
    movdqu %xmm2, 32(%rsp)
    movdqu %xmm3, 48(%rsp)
    movdqu %xmm4, 64(%rsp)
    movdqu %xmm5, 80(%rsp)
    movdqu %xmm6, 96(%rsp)
    movdqu %xmm7, 112(%rsp)
    leaq \lib\()_library(%rip), %rdi
    movq %r11, %rsi
    call linnet_lazy_resolve
    movq %rax, %r11
    movdqu 0(%rsp), %xmm0
    movdqu 16(%rsp), %xmm1
    movdqu 32(%rsp), %xmm2
    movdqu 48(%rsp), %xmm3
    movdqu 64(%rsp), %xmm4
    movdqu 80(%rsp), %xmm5
    movdqu 96(%rsp), %xmm6
    movdqu 112(%rsp), %xmm7
    addq $128, %rsp
    popq %rax
    popq %r9
    popq %r8
    popq %rcx
    popq %rdx
    popq %rsi
    popq %rdi
    jmp *%r11
.endm

#include "symbols.inc"

#endif

.section .note.GNU-stack, "", @progbits
