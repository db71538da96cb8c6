// The AArch64 trampolines (see include/linnet_lazy_libraries.h for the whole mechanism and
// trampolines_x86_64.S for the same tables on x86-64).
#if defined(__aarch64__)

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
// library's resolver with the slot's address in x17 (IP1, free for veneers at any call).
.macro lazy_symbol lib, sym
    .text
    .globl \sym
    .hidden \sym
    .type \sym, %function
    .p2align 2
\sym:
    adrp x16, .Lslot_\sym
    ldr x16, [x16, :lo12:.Lslot_\sym]
    br x16
.Lpending_\sym:
    adrp x17, .Lslot_\sym
    add x17, x17, :lo12:.Lslot_\sym
    b \lib\()_resolve
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

// Ends a library: its descriptor (struct linnet_lazy_library) and its resolver, which keeps the
// argument registers x0-x7, x8 (indirect result), q0-q7 and the caller's return address (x30)
// across the call into C.
.macro lazy_library_end lib
    .data
    .p2align 3
    .globl \lib\()_library
    .hidden \lib\()_library
\lib\()_library:
    .quad \lib\()_soname, \lib\()_names, \lib\()_slots, \lib\()_count, 0
    .text
    .p2align 2
\lib\()_resolve:
    stp x29, x30, [sp, #-224]!
    mov x29, sp
    stp x0, x1, [sp, #16]
    stp x2, x3, [sp, #32]
    stp x4, x5, [sp, #48]
    stp x6, x7, [sp, #64]
    str x8, [sp, #80]
    stp q0, q1, [sp, #96]
    stp q2, q3, [sp, #128]
    stp q4, q5, [sp, #160]
    stp q6, q7, [sp, #192]
    adrp x0, \lib\()_library
    add x0, x0, :lo12:\lib\()_library
    mov x1, x17
    bl linnet_lazy_resolve
    mov x16, x0
    ldp q6, q7, [sp, #192]
    ldp q4, q5, [sp, #160]
    ldp q2, q3, [sp, #128]
    ldp q0, q1, [sp, #96]
    ldr x8, [sp, #80]
    ldp x6, x7, [sp, #64]
    ldp x4, x5, [sp, #48]
    ldp x2, x3, [sp, #32]
    ldp x0, x1, [sp, #16]
    ldp x29, x30, [sp], #224
    br x16
.endm

#include "symbols.inc"

#endif

.section .note.GNU-stack, "", %progbits
