/* The heat map of a failing EXPECT (coopvm run --diff-image), written with
 * libpng when the build found it (CVM_HAVE_PNG). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/diff_image.h"

#ifdef CVM_HAVE_PNG
#include <png.h>
#endif

uint32_t cvm_heat_map_scale(uint32_t cols)
{
    uint32_t s = cols ? 512 / cols : 1;
    return s < 1 ? 1 : s > 8 ? 8 : s;
}

void cvm_heat_map_color(const cvm_heat_map *m, uint64_t slot, uint8_t rgb[3])
{
    uint8_t r = 200, g = 200, b = 200; /* not compared */
    if (slot == m->worst) {
        r = g = 0;
        b = 255;
    } else if (slot < m->count && m->state[slot] == CVM_AMBER_SLOT_PASSED) {
        r = g = b = 255;
    } else if (slot < m->count && m->state[slot] == CVM_AMBER_SLOT_FAILED) {
        double e = m->err[slot];
        if (!(e <= m->max_error)) { /* infinite, or a NaN on one side */
            r = g = b = 0;
        } else { /* yellow (0, e.g. -0 against +0) to red (the largest) */
            double t = m->max_error > 0 ? e / m->max_error : 0;
            r = 255;
            g = (uint8_t)(255.0 * (1.0 - t) + 0.5);
            b = 0;
        }
    }
    rgb[0] = r;
    rgb[1] = g;
    rgb[2] = b;
}

#ifdef CVM_HAVE_PNG
/* The part libpng may longjmp out of: nothing here is changed after setjmp. */
static int png_rows(png_structp png, png_infop info, FILE *f, const cvm_heat_map *m, uint32_t s,
                    png_bytep row)
{
    if (setjmp(png_jmpbuf(png)))
        return -1;
    png_uint_32 w = (png_uint_32)(m->cols * s), h = (png_uint_32)(m->rows * s);
    png_init_io(png, f);
    png_set_IHDR(png, info, w, h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (png_uint_32 y = 0; y < h; y++) {
        uint64_t r = y / s;
        for (uint64_t c = 0; c < m->cols; c++) {
            uint8_t rgb[3];
            uint64_t slot = m->column_major ? c * m->rows + r : r * m->cols + c;
            cvm_heat_map_color(m, slot, rgb);
            for (uint32_t k = 0; k < s; k++)
                memcpy(row + (c * s + k) * 3, rgb, 3);
        }
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    return 0;
}
#endif

int cvm_heat_map_write(const char *path, const cvm_heat_map *m, char *why, size_t why_size)
{
#ifndef CVM_HAVE_PNG
    (void)path;
    (void)m;
    snprintf(why, why_size,
             "--diff-image needs libpng, which this build of coopvm was configured without "
             "(install libpng-dev and configure again)");
    return -1;
#else
    uint32_t s = cvm_heat_map_scale(m->cols);
    uint64_t w = (uint64_t)m->cols * s, h = (uint64_t)m->rows * s;
    if (!w || !h || w > 65536 || h > 65536 || w * h > (UINT64_C(1) << 28)) {
        snprintf(why, why_size, "a picture of %llu x %llu pixels is too large",
                 (unsigned long long)w, (unsigned long long)h);
        return -1;
    }
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(why, why_size, "cannot write '%s'", path);
        return -1;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    png_bytep row = malloc((size_t)w * 3);
    int bad = !png || !info || !row;
    if (bad)
        snprintf(why, why_size, "out of memory");
    else if (png_rows(png, info, f, m, s, row)) {
        snprintf(why, why_size, "libpng could not write '%s'", path);
        bad = 1;
    }
    png_destroy_write_struct(&png, &info);
    free(row);
    if (fclose(f) && !bad) {
        snprintf(why, why_size, "cannot write '%s'", path);
        bad = 1;
    }
    return bad ? -1 : 0;
#endif
}
