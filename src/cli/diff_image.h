/* Heat maps of failing EXPECTs (coopvm run --diff-image): one square of
 * cvm_heat_map_scale(cols) pixels per value, matrix rows as picture rows.
 * Colours: white passes, yellow to red fails (|expected - got| over the
 * largest finite error), black a NaN or infinite error, gray not compared,
 * blue the worst element. */
#ifndef CVM_CLI_DIFF_IMAGE_H
#define CVM_CLI_DIFF_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "amber/amber.h"

typedef struct cvm_heat_map {
    const double *err;    /* per value slot (cvm_amber_session_differences) */
    const uint8_t *state; /* CVM_AMBER_SLOT_* */
    uint64_t count;       /* value slots */
    uint64_t rows;        /* of the matrix */
    uint32_t cols;
    int column_major;     /* slot of (r, c): c * rows + r, else r * cols + c */
    uint64_t worst;       /* its slot, UINT64_MAX for none */
    double max_error;     /* the largest finite error of a failing slot */
} cvm_heat_map;

/* Pixels per value side: 512 / cols, from 1 to 8. */
uint32_t cvm_heat_map_scale(uint32_t cols);
void cvm_heat_map_color(const cvm_heat_map *m, uint64_t slot, uint8_t rgb[3]);
/* Writes the PNG; returns 0, or -1 with a reason in why. */
int cvm_heat_map_write(const char *path, const cvm_heat_map *m, char *why, size_t why_size);

#endif
