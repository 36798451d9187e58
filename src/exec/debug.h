/* Debugging support of the engine (cvm_pipeline_set_debug): the DebugPrintf
 * messages one workgroup prints (ops/debug_printf.c), and the trace of one
 * invocation or workgroup (trace.c).  Both hang off cvm_exec and are NULL
 * when off, so a dispatch without them pays one pointer test per DebugPrintf
 * instruction and one per block (interp.c). */
#ifndef CVM_EXEC_DEBUG_H
#define CVM_EXEC_DEBUG_H

#include "exec/program.h"

/* ---- DebugPrintf ------------------------------------------------------------ */

/* One message: its text is text[text_off .. text_off + text_len) of the
 * buffer (no NUL). */
typedef struct cvm_printf_rec {
    uint32_t inv;       /* LocalInvocationIndex of the invocation it belongs to */
    uint32_t seq;       /* order of printing inside the workgroup */
    uint32_t row, col;  /* the matrix element of a callback call; UINT32_MAX if none */
    uint32_t caller_op; /* the opcode that ran the callback, 0 if none */
    uint32_t word_off;  /* of the DebugPrintf instruction */
    size_t text_off;
    uint32_t text_len;
} cvm_printf_rec;

/* The messages of one workgroup run, in printing order until sorted.  When
 * more than 2 * limit pile up, those past the first `limit` in delivery
 * order are dropped and counted in `dropped`. */
typedef struct cvm_printf_buf {
    cvm_printf_rec *recs;
    uint32_t n, cap;
    char *text;
    size_t used, text_cap;
    uint64_t limit;
    uint64_t dropped;
    uint32_t seq;
    char *scratch; /* CVM_PRINTF_MAX_MESSAGE + 1 bytes: one message being formatted */
} cvm_printf_buf;

cvm_result cvm_printf_buf_init(cvm_printf_buf *b, uint64_t limit);
void cvm_printf_buf_free(cvm_printf_buf *b);
void cvm_printf_buf_reset(cvm_printf_buf *b);
/* Stable sort by (inv, seq): the order messages are delivered in. */
void cvm_printf_buf_sort(cvm_printf_buf *b);

/* Formats the DebugPrintf instruction `in` for lane `lane` of `ex` into
 * `out` (at most `cap` bytes, then NUL); returns the length.  Exposed for
 * the unit tests of the format rules. */
size_t cvm_printf_format(const cvm_exec *ex, const cvm_insn *in, uint32_t lane, char *out,
                         size_t cap);

/* ---- the trace ---------------------------------------------------------------- */

typedef struct cvm_trace {
    cvm_trace_fn fn;
    void *user;
    uint32_t lane;       /* the traced LocalInvocationIndex, or CVM_TRACE_WORKGROUP */
    uint64_t lines, limit;
    int full;            /* the limit was reached: nothing more is written */
    uint32_t last_file_line, last_line; /* the source position printed last */
    const char *last_file;
    char *buf;           /* one line being built */
    size_t cap;
    const char **names;  /* per id: its OpName, made on first use */
    uint32_t nnames;
} cvm_trace;

cvm_result cvm_trace_init(cvm_trace *t, cvm_trace_fn fn, void *user, uint32_t lane,
                          uint64_t limit);
void cvm_trace_free(cvm_trace *t);
/* A line of free text. */
void cvm_trace_text(cvm_trace *t, const char *fmt, ...) CVM_PRINTF(2, 3);
/* The lanes of `ex` the trace shows (every lane of a workgroup trace; the
 * traced invocation, or in a callback batch the calls made for it). */
int cvm_trace_selects(const cvm_exec *ex, uint32_t lane);
/* Block `bi` of function `f` starts with the active lanes of ex. */
void cvm_trace_block(cvm_exec *ex, const cvm_function *f, uint32_t bi);
/* Instruction `in` ran (handlers), or is about to run (control flow). */
void cvm_trace_insn(cvm_exec *ex, const cvm_insn *in);

#endif /* CVM_EXEC_DEBUG_H */
