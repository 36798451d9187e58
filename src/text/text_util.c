/* Text buffer, hash tables and number formats for the SPIR-V text form. */
#include "text/text_util.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Text buffer ------------------------------------------------------------- */

void txt_buf_free(txt_buf *b)
{
    cvm_mem_free(b->data);
    memset(b, 0, sizeof(*b));
}

static int txt_reserve(txt_buf *b, size_t extra)
{
    if (b->oom)
        return 0;
    if (extra > SIZE_MAX / 2 - b->len) {
        b->oom = 1;
        return 0;
    }
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return 1;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need)
        cap *= 2;
    char *p = cvm_realloc(b->data, cap);
    if (!p) {
        b->oom = 1;
        return 0;
    }
    b->data = p;
    b->cap = cap;
    return 1;
}

void txt_put(txt_buf *b, const char *s, size_t n)
{
    if (!txt_reserve(b, n))
        return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void txt_puts(txt_buf *b, const char *s)
{
    txt_put(b, s, strlen(s));
}

void txt_putc(txt_buf *b, char c)
{
    txt_put(b, &c, 1);
}

void txt_spaces(txt_buf *b, size_t n)
{
    if (!txt_reserve(b, n))
        return;
    memset(b->data + b->len, ' ', n);
    b->len += n;
    b->data[b->len] = '\0';
}

void txt_printf(txt_buf *b, const char *fmt, ...)
{
    char small[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof(small), fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof(small)) {
        txt_put(b, small, (size_t)n);
        return;
    }
    if (!txt_reserve(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* uint32 map -------------------------------------------------------------- */

static size_t hash_u32(uint32_t k)
{
    uint32_t h = k * 0x9E3779B1u;
    return (size_t)(h ^ (h >> 15));
}

void txt_map_free(txt_map *m)
{
    cvm_mem_free(m->keys);
    cvm_mem_free(m->vals);
    cvm_mem_free(m->used);
    memset(m, 0, sizeof(*m));
}

static int txt_map_grow(txt_map *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 64;
    txt_map n = {0};
    n.keys = cvm_malloc(ncap * sizeof(uint32_t));
    n.vals = cvm_malloc(ncap * sizeof(uint32_t));
    n.used = cvm_calloc(ncap, 1);
    if (!n.keys || !n.vals || !n.used) {
        txt_map_free(&n);
        return -1;
    }
    n.cap = ncap;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->used[i])
            continue;
        size_t j = hash_u32(m->keys[i]) & (ncap - 1);
        while (n.used[j])
            j = (j + 1) & (ncap - 1);
        n.used[j] = 1;
        n.keys[j] = m->keys[i];
        n.vals[j] = m->vals[i];
    }
    n.count = m->count;
    txt_map_free(m);
    *m = n;
    return 0;
}

int txt_map_put(txt_map *m, uint32_t key, uint32_t val)
{
    if ((m->count + 1) * 2 > m->cap && txt_map_grow(m) != 0)
        return -1;
    size_t j = hash_u32(key) & (m->cap - 1);
    while (m->used[j]) {
        if (m->keys[j] == key) {
            m->vals[j] = val;
            return 0;
        }
        j = (j + 1) & (m->cap - 1);
    }
    m->used[j] = 1;
    m->keys[j] = key;
    m->vals[j] = val;
    m->count++;
    return 0;
}

int txt_map_get(const txt_map *m, uint32_t key, uint32_t *o_val)
{
    if (!m->cap)
        return 0;
    size_t j = hash_u32(key) & (m->cap - 1);
    while (m->used[j]) {
        if (m->keys[j] == key) {
            if (o_val)
                *o_val = m->vals[j];
            return 1;
        }
        j = (j + 1) & (m->cap - 1);
    }
    return 0;
}

/* string map -------------------------------------------------------------- */

static size_t hash_str(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ull;
    }
    return (size_t)(h ^ (h >> 29));
}

void txt_strmap_free(txt_strmap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        cvm_mem_free(m->keys[i]);
    cvm_mem_free(m->keys);
    cvm_mem_free(m->vals);
    memset(m, 0, sizeof(*m));
}

static int key_is(const char *k, const char *s, size_t len)
{
    return strncmp(k, s, len) == 0 && k[len] == '\0';
}

static int txt_strmap_grow(txt_strmap *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 64;
    char **keys = cvm_calloc(ncap, sizeof(char *));
    uint32_t *vals = cvm_malloc(ncap * sizeof(uint32_t));
    if (!keys || !vals) {
        cvm_mem_free(keys);
        cvm_mem_free(vals);
        return -1;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->keys[i])
            continue;
        size_t j = hash_str(m->keys[i], strlen(m->keys[i])) & (ncap - 1);
        while (keys[j])
            j = (j + 1) & (ncap - 1);
        keys[j] = m->keys[i];
        vals[j] = m->vals[i];
    }
    cvm_mem_free(m->keys);
    cvm_mem_free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = ncap;
    return 0;
}

int txt_strmap_insert(txt_strmap *m, const char *key, size_t len, uint32_t val)
{
    if ((m->count + 1) * 2 > m->cap && txt_strmap_grow(m) != 0)
        return -1;
    size_t j = hash_str(key, len) & (m->cap - 1);
    while (m->keys[j]) {
        if (key_is(m->keys[j], key, len))
            return 0;
        j = (j + 1) & (m->cap - 1);
    }
    char *copy = cvm_malloc(len + 1);
    if (!copy)
        return -1;
    memcpy(copy, key, len);
    copy[len] = '\0';
    m->keys[j] = copy;
    m->vals[j] = val;
    m->count++;
    return 1;
}

int txt_strmap_get(const txt_strmap *m, const char *key, size_t len, uint32_t *o_val)
{
    if (!m->cap)
        return 0;
    size_t j = hash_str(key, len) & (m->cap - 1);
    while (m->keys[j]) {
        if (key_is(m->keys[j], key, len)) {
            if (o_val)
                *o_val = m->vals[j];
            return 1;
        }
        j = (j + 1) & (m->cap - 1);
    }
    return 0;
}

/* Float formats ------------------------------------------------------------
 *
 * Each format as SPIRV-Tools' hex_float.h describes it: used bits, exponent
 * and fraction widths, bias, whether it has a sign bit and a zero, and the
 * width of the integer it is stored in while parsing.
 */
typedef struct fp_desc {
    uint8_t used_bits, exp_bits, frac_bits;
    uint16_t bias;
    uint8_t has_sign, has_zero;
    uint8_t storage_bits; /* 0: cannot be parsed from text here */
} fp_desc;

static const fp_desc fp_descs[] = {
    [TXT_FP_UNKNOWN] = {0, 0, 0, 0, 0, 0, 0},
    [TXT_FP_F16] = {16, 5, 10, 15, 1, 1, 16},
    [TXT_FP_F32] = {32, 8, 23, 127, 1, 1, 32},
    [TXT_FP_F64] = {64, 11, 52, 1023, 1, 1, 64},
    [TXT_FP_BF16] = {16, 8, 7, 127, 1, 1, 16},
    [TXT_FP_E4M3] = {8, 4, 3, 7, 1, 1, 8},
    [TXT_FP_E5M2] = {8, 5, 2, 15, 1, 1, 8},
    [TXT_FP_E2M3] = {6, 2, 3, 1, 1, 1, 0},
    [TXT_FP_E3M2] = {6, 3, 2, 3, 1, 1, 0},
    [TXT_FP_E2M1] = {4, 2, 1, 1, 1, 1, 0},
    [TXT_FP_E8M0] = {8, 8, 0, 127, 0, 0, 0},
    [TXT_FP_MXINT8] = {8, 0, 0, 0, 1, 1, 0},
};

txt_fp txt_fp_for_type(uint32_t width, int has_encoding, uint32_t encoding)
{
    if (has_encoding) {
        switch (encoding) {
        case 0: return TXT_FP_BF16;       /* BFloat16KHR */
        case 4214: return TXT_FP_E4M3;    /* Float8E4M3EXT */
        case 4215: return TXT_FP_E5M2;    /* Float8E5M2EXT */
        case 4223: return TXT_FP_E2M3;    /* Float6E2M3EXT */
        case 4224: return TXT_FP_E3M2;    /* Float6E3M2EXT */
        case 4225: return TXT_FP_E2M1;    /* Float4E2M1EXT */
        case 4226: return TXT_FP_E8M0;    /* Float8UnsignedE8M0EXT */
        case 4227: return TXT_FP_MXINT8;  /* MXInt8EXT */
        default: return TXT_FP_UNKNOWN;
        }
    }
    switch (width) {
    case 16: return TXT_FP_F16;
    case 32: return TXT_FP_F32;
    case 64: return TXT_FP_F64;
    default: return TXT_FP_UNKNOWN;
    }
}

const char *txt_fp_literal_name(txt_fp fp)
{
    switch (fp) {
    case TXT_FP_F16: return "16-bit float";
    case TXT_FP_F32: return "32-bit float";
    case TXT_FP_F64: return "64-bit float";
    case TXT_FP_BF16: return "bfloat16";
    case TXT_FP_E4M3: return "E4M3 float";
    case TXT_FP_E5M2: return "E5M2 float";
    case TXT_FP_E2M3: return "E2M3 float";
    case TXT_FP_E3M2: return "E3M2 float";
    case TXT_FP_E2M1: return "E2M1 float";
    case TXT_FP_E8M0: return "E8M0 float";
    case TXT_FP_MXINT8: return "MXInt8 float";
    default: return "float";
    }
}

static uint64_t low_mask(unsigned bits)
{
    return bits >= 64 ? ~0ull : ((1ull << bits) - 1);
}

/* The hex-float spelling: sign, "0x", the leading digit (0 only for zero),
 * the fraction in nibbles without trailing zeros, and a signed decimal
 * binary exponent.  Subnormals are normalised. */
static void format_hex_float(txt_buf *b, const fp_desc *f, uint64_t bits)
{
    const unsigned nibbles0 = (f->frac_bits + 3u) / 4u;
    const unsigned overflow = nibbles0 * 4u - f->frac_bits;
    const uint64_t sign_mask = f->has_sign ? 1ull << (f->used_bits - 1) : 0;
    const uint64_t exponent = (bits >> f->frac_bits) & low_mask(f->exp_bits);
    uint64_t fraction = (bits & low_mask(f->frac_bits)) << overflow;
    const int is_zero = f->has_zero && exponent == 0 && fraction == 0;
    const int is_denorm = f->has_zero && exponent == 0 && !is_zero;
    int64_t int_exponent = is_zero ? 0 : (int64_t)exponent - (int64_t)f->bias;

    if (f->frac_bits > 0 && is_denorm) {
        const uint64_t top = 1ull << (f->frac_bits + overflow - 1);
        while ((fraction & top) == 0) {
            fraction <<= 1;
            int_exponent--;
        }
        fraction <<= 1; /* the leading 1 becomes implicit */
        fraction &= low_mask(f->frac_bits + overflow);
    }
    unsigned nibbles = nibbles0;
    while (nibbles > 0 && (fraction & 0xF) == 0) {
        fraction >>= 4;
        nibbles--;
    }
    if (bits & sign_mask)
        txt_putc(b, '-');
    txt_puts(b, is_zero ? "0x0" : "0x1");
    if (nibbles)
        txt_printf(b, ".%0*llx", (int)nibbles, (unsigned long long)fraction);
    txt_printf(b, "p%s%lld", int_exponent >= 0 ? "+" : "", (long long)int_exponent);
}

int txt_format_float(txt_buf *b, txt_fp fp, uint64_t bits)
{
    switch (fp) {
    case TXT_FP_F32: {
        uint32_t w = (uint32_t)bits;
        uint32_t e = (w >> 23) & 0xff;
        if ((e == 0 && (w & 0x7fffff) == 0) || (e != 0 && e != 0xff)) {
            float f;
            memcpy(&f, &w, sizeof(f));
            txt_printf(b, "%.9g", (double)f);
        } else {
            format_hex_float(b, &fp_descs[TXT_FP_F32], w);
        }
        return 1;
    }
    case TXT_FP_F64: {
        uint64_t e = (bits >> 52) & 0x7ff;
        if ((e == 0 && (bits & 0xfffffffffffffull) == 0) || (e != 0 && e != 0x7ff)) {
            double d;
            memcpy(&d, &bits, sizeof(d));
            txt_printf(b, "%.17g", d);
        } else {
            format_hex_float(b, &fp_descs[TXT_FP_F64], bits);
        }
        return 1;
    }
    case TXT_FP_F16:
    case TXT_FP_BF16:
    case TXT_FP_E4M3:
    case TXT_FP_E5M2:
    case TXT_FP_E2M3:
    case TXT_FP_E3M2:
    case TXT_FP_E2M1:
    case TXT_FP_E8M0: {
        const fp_desc *f = &fp_descs[fp];
        format_hex_float(b, f, bits & low_mask(f->used_bits));
        return 1;
    }
    case TXT_FP_MXINT8: {
        /* A signed 8-bit fixed-point value scaled by 2^-6, shown as the f32
         * hex float of its (exact) value. */
        float v = (float)(int8_t)(uint8_t)bits / 64.0f;
        uint32_t w;
        memcpy(&w, &v, sizeof(w));
        format_hex_float(b, &fp_descs[TXT_FP_F32], w);
        return 1;
    }
    default:
        return 0;
    }
}

/* Parsing ---------------------------------------------------------------- */

static int nibble_of(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return c - 'A' + 10;
}

/* Sign-extends the low `bits` bits (the signed integer type of that width
 * the exponent lives in while parsing). */
static int64_t wrap_signed(int64_t v, unsigned bits)
{
    if (bits >= 64)
        return v;
    uint64_t u = (uint64_t)v & low_mask(bits);
    if (u & (1ull << (bits - 1)))
        u |= ~low_mask(bits);
    return (int64_t)u;
}

/* Hex float after "0x" (sign already consumed), truncating extra bits,
 * following the algorithm of SPIRV-Tools' HexFloat reader so that the same
 * text gives the same bits. */
static int parse_hex_float(const char *p, int negative, const fp_desc *f, uint64_t *o_bits)
{
    const unsigned S = f->storage_bits;
    const uint64_t umask = low_mask(S);
    const int64_t imax = S >= 64 ? INT64_MAX : (int64_t)((1ull << (S - 1)) - 1);
    const int64_t imin = -imax - 1;
    uint64_t fraction = 0, fraction_index = 0;
    int64_t exponent = f->bias;
    int has_integer_part = 0, bits_written = 0, seen_p = 0, seen_dot = 0;

    while (*p == '0')
        p++;
    while (!seen_p && !seen_dot) {
        char c = *p;
        if (c == '.') {
            seen_dot = 1;
        } else if (c == 'p') {
            seen_p = 1;
        } else if (isxdigit((unsigned char)c)) {
            has_integer_part = 1;
            int number = nibble_of(c);
            for (int i = 0; i < 4; ++i, number <<= 1) {
                uint64_t write_bit = (number & 0x8) ? 1 : 0;
                if (bits_written) {
                    if (write_bit && fraction_index <= S - 1)
                        fraction |= write_bit << (S - 1 - fraction_index);
                    if (fraction_index != umask)
                        fraction_index++;
                    if (exponent == imax)
                        return 0;
                    exponent++;
                }
                bits_written |= write_bit != 0;
            }
        } else {
            return 0;
        }
        p++;
    }
    bits_written = 0;
    while (seen_dot && !seen_p) {
        char c = *p;
        if (c == 'p') {
            seen_p = 1;
        } else if (isxdigit((unsigned char)c)) {
            int number = nibble_of(c);
            for (int i = 0; i < 4; ++i, number <<= 1) {
                uint64_t write_bit = (number & 0x8) ? 1 : 0;
                bits_written |= write_bit != 0;
                if (!has_integer_part && !bits_written) {
                    if (exponent == imin)
                        return 0;
                    exponent--;
                } else {
                    if (write_bit && fraction_index <= S - 1)
                        fraction |= write_bit << (S - 1 - fraction_index);
                    if (fraction_index != umask)
                        fraction_index++;
                }
            }
        } else {
            return 0;
        }
        p++;
    }

    int seen_exp_sign = 0, seen_digits = 0;
    int64_t exp_sign = 1, written = 0;
    const int64_t wover = imax - 1;
    for (;;) {
        char c = *p;
        if (!seen_digits && (c == '-' || c == '+')) {
            if (seen_exp_sign)
                return 0;
            seen_exp_sign = 1;
            exp_sign = c == '-' ? -1 : 1;
        } else if (c >= '0' && c <= '9') {
            int64_t digit = c - '0';
            seen_digits = 1;
            if (written >= (wover - digit) / 10)
                written = wover;
            else
                written = written * 10 + digit;
        } else {
            break;
        }
        p++;
    }
    if (!seen_digits || *p != '\0')
        return 0;
    written *= exp_sign;
    if (written >= 0 && exponent >= 0)
        exponent = (wover - exponent > written) ? written + exponent : wover;
    else if (written < 0 && exponent < 0)
        exponent = (wover + exponent > -written) ? written + exponent : -wover;
    else
        exponent = written + exponent;

    int is_zero = !has_integer_part && fraction == 0;
    if (!has_integer_part && !is_zero) {
        fraction = (fraction << 1) & umask;
        exponent = wrap_signed(exponent - 1, S);
    } else if (is_zero) {
        exponent = 0;
    }
    if (exponent <= 0 && !is_zero) {
        fraction >>= 1;
        fraction |= 1ull << (f->used_bits - 1);
    }
    const uint64_t frac_mask = low_mask(f->frac_bits);
    fraction = (fraction >> (S - f->frac_bits)) & frac_mask;
    const int64_t max_exponent = (int64_t)low_mask(f->exp_bits);
    while (exponent < 0 && !is_zero) {
        fraction >>= 1;
        exponent++;
        fraction &= frac_mask;
        if (fraction == 0) {
            is_zero = 1;
            exponent = 0;
        }
    }
    if (exponent > max_exponent) {
        exponent = max_exponent;
        fraction = 0;
    }
    uint64_t out = (negative ? 1ull : 0ull) << (f->used_bits - 1);
    out |= fraction;
    out |= ((uint64_t)exponent << f->frac_bits) & (low_mask(f->exp_bits) << f->frac_bits);
    *o_bits = out & low_mask(f->used_bits);
    return 1;
}

/* Rounds a finite float value toward zero into a narrower format.  Returns 0
 * when the magnitude is too large for the format (it would be infinity). */
static int narrow_toward_zero(double v, const fp_desc *f, int max_biased, uint64_t *o_bits)
{
    uint64_t sign = signbit(v) ? 1ull << (f->used_bits - 1) : 0;
    double a = fabs(v);
    if (a == 0.0) {
        *o_bits = sign;
        return 1;
    }
    int k;
    (void)frexp(a, &k);
    int e = k - 1;
    int emin = 1 - (int)f->bias;
    if (e < emin) {
        double q = floor(ldexp(a, (int)f->frac_bits - emin));
        *o_bits = sign | (uint64_t)q;
        return 1;
    }
    int biased = e + (int)f->bias;
    if (biased > max_biased)
        return 0;
    double m = floor(ldexp(ldexp(a, -e) - 1.0, f->frac_bits));
    *o_bits = sign | ((uint64_t)biased << f->frac_bits) | (uint64_t)m;
    return 1;
}

static int decimal_chars_only(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s) && *s != '.' && *s != 'e' && *s != 'E' && *s != '+' &&
            *s != '-')
            return 0;
    return 1;
}

/* The OCP microscaling formats (SPV_EXT_ocp_microscaling_types).
 *
 * spirv-as (SPIRV-Tools) reads a decimal literal of these formats as a
 * 32-bit float and rounds it toward zero, as for every narrow float, and is
 * wrong in places (checked against its output): hex literals lose
 * subnormals (E2M1 0x1p-1, which spirv-dis writes for 0.5, becomes 0;
 * E2M3 0x1p-1 becomes 0.125), E2M3 6 and 7 become 7.5, hex values past the
 * largest finite one give unrelated values, and it rejects two spellings
 * spirv-dis writes: E8M0 0x1p+128 (the NaN pattern 0xff) and MXInt8 -0x1p+1
 * (-2, the pattern 0x80).  Here: the literal's value (hex read exactly,
 * decimal read as a 32-bit float as spirv-as reads it), then
 *   E2M1, E2M3, E3M2   rounded toward zero; past the largest finite value,
 *                      or NaN or infinity, an error (there is no infinity)
 *   E8M0               exactly 2^k, -127 <= k <= 127, or 2^128 for NaN
 *   MXInt8             exactly n / 64 with -128 <= n <= 127
 * (spirv-as's rules where it is right: it also refuses inexact E8M0 and
 * MXInt8 values). */
static int mx_value(const char *p, int negative, double *o_v)
{
    char *end = NULL;
    double v;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        for (const char *q = p + 2; *q; q++)
            if (!isxdigit((unsigned char)*q) && *q != '.' && *q != 'p' && *q != 'P' &&
                *q != '+' && *q != '-')
                return 0;
        v = strtod(p, &end);
    } else {
        if (!decimal_chars_only(p))
            return 0;
        v = (double)strtof(p, &end);
    }
    if (end == p || *end != '\0')
        return 0;
    *o_v = negative ? -v : v;
    return 1;
}

static int parse_mx_float(const char *p, int negative, txt_fp fp, uint64_t *o_bits)
{
    double v;
    if (!mx_value(p, negative, &v))
        return 0;
    if (fp == TXT_FP_E8M0) {
        if (v == ldexp(1.0, 128)) {
            *o_bits = 0xff;
            return 1;
        }
        int k;
        if (!(v > 0.0) || frexp(v, &k) != 0.5 || k - 1 < -127 || k - 1 > 127)
            return 0;
        *o_bits = (uint64_t)(k - 1 + 127);
        return 1;
    }
    if (fp == TXT_FP_MXINT8) {
        double n = v * 64.0; /* exact: a power of two */
        if (!(n >= -128.0 && n <= 127.0) || n != floor(n))
            return 0;
        *o_bits = (uint8_t)(int8_t)n;
        return 1;
    }
    /* E2M1, E2M3, E3M2: the largest magnitude not above |v|, by search of
     * the (at most 32) magnitudes, all exact doubles. */
    const fp_desc *f = &fp_descs[fp];
    if (isnan(v) || isinf(v))
        return 0;
    double a = fabs(v);
    uint64_t nmag = 1ull << (f->used_bits - 1), best = 0;
    for (uint64_t m = 0; m < nmag; m++) {
        uint64_t e = m >> f->frac_bits, frac = m & low_mask(f->frac_bits);
        double mv = e ? ldexp((double)(frac | (1ull << f->frac_bits)),
                              (int)e - (int)f->bias - (int)f->frac_bits)
                      : ldexp((double)frac, 1 - (int)f->bias - (int)f->frac_bits);
        if (mv <= a)
            best = m;
        else
            break; /* magnitudes grow with the pattern */
        if (m == nmag - 1 && a > mv)
            return 0; /* past the largest finite value */
    }
    *o_bits = (signbit(v) ? nmag : 0) | best;
    return 1;
}

int txt_parse_float(const char *text, txt_fp fp, uint64_t *o_bits)
{
    if (fp == TXT_FP_E2M1 || fp == TXT_FP_E2M3 || fp == TXT_FP_E3M2 || fp == TXT_FP_E8M0 ||
        fp == TXT_FP_MXINT8) {
        const char *p = text;
        int negative = 0;
        if (*p == '-' || *p == '+') {
            negative = *p == '-';
            p++;
        }
        if (*p == '-' || *p == '+')
            return 0;
        return parse_mx_float(p, negative, fp, o_bits);
    }
    if (fp == TXT_FP_UNKNOWN || fp >= CVM_ARRAY_SIZE(fp_descs) || !fp_descs[fp].storage_bits)
        return -1;
    const fp_desc *f = &fp_descs[fp];
    const char *p = text;
    int sign = 0; /* 0 none, 1 plus, -1 minus */
    if (*p == '-' || *p == '+') {
        sign = *p == '-' ? -1 : 1;
        p++;
    }
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        return parse_hex_float(p + 2, sign < 0, f, o_bits);

    /* A decimal number, read as float (double for f64). */
    if (sign != 0 && (*p == '-' || *p == '+'))
        return 0;
    if (!decimal_chars_only(p))
        return 0;
    char *end = NULL;
    if (fp == TXT_FP_F64) {
        double d = strtod(p, &end);
        if (end == p || *end != '\0' || isinf(d))
            return 0;
        if (sign < 0)
            d = -d;
        memcpy(o_bits, &d, sizeof(d));
        return 1;
    }
    float v = strtof(p, &end);
    if (end == p || *end != '\0' || isinf(v))
        return 0;
    if (sign < 0)
        v = -v;
    switch (fp) {
    case TXT_FP_F32: {
        uint32_t w;
        memcpy(&w, &v, sizeof(w));
        *o_bits = w;
        return 1;
    }
    case TXT_FP_F16:
    case TXT_FP_BF16:
    case TXT_FP_E5M2:
        return narrow_toward_zero((double)v, f, (1 << f->exp_bits) - 2, o_bits);
    case TXT_FP_E4M3:
        /* No infinity: beyond +-448 is an error; an exponent past the
         * format's bias saturates to the largest finite value (0x7e). */
        if (v > 448.0f || v < -448.0f)
            return 0;
        if (fabsf(v) >= 256.0f) {
            *o_bits = (signbit(v) ? 0x80u : 0u) | 0x7eu;
            return 1;
        }
        return narrow_toward_zero((double)v, f, 15, o_bits);
    default:
        return -1;
    }
}

/* Integers ---------------------------------------------------------------- */

static int integer_text_ok(const char *text)
{
    /* strto* skip leading blanks; the text form never hands them over, but
     * refuse them anyway so a word is all number. */
    return text[0] != '\0' && !isspace((unsigned char)text[0]);
}

int txt_parse_u64(const char *text, uint64_t *o_val)
{
    if (!integer_text_ok(text) || text[0] == '-')
        return 0;
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 0);
    if (end == text || *end != '\0' || errno == ERANGE)
        return 0;
    *o_val = (uint64_t)v;
    return 1;
}

int txt_parse_i64(const char *text, int64_t *o_val)
{
    if (!integer_text_ok(text))
        return 0;
    char *end = NULL;
    errno = 0;
    long long v = strtoll(text, &end, 0);
    if (end == text || *end != '\0' || errno == ERANGE)
        return 0;
    *o_val = (int64_t)v;
    return 1;
}
