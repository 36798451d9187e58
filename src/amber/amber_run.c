/* AmberScript runner: sessions (buffers, modules, pipelines), RUN, COPY and
 * the EXPECT comparisons.  A client of coopvm.h only. */
#include "amber/amber.h"
#include "amber/amber_internal.h"

#include <math.h>
#include <stdio.h> /* snprintf only: this layer never prints */
#include <stdlib.h>
#include <string.h>

#include "cvm_common.h"

struct cvm_amber_session {
    const cvm_amber_script *script;
    cvm_context *ctx;
    cvm_module **modules;     /* per shader; NULL when no pipeline uses it */
    cvm_pipeline **pipelines; /* per pipeline */
    unsigned char **buffers;  /* per buffer: current contents */
    unsigned char **initial;  /* per buffer: contents at creation */
    cvm_amber_buffer *info;   /* per buffer: the script's record (names, data shared),
                                 with the size its FILE gave it */
    cvm_buffer **addressed;   /* per buffer: its device address registration */
    uint32_t *runs;           /* command index of each RUN */
    cvm_amber_expect_result *results;
};

/* Script-level errors carry the script's file and line. */
static cvm_result script_error(cvm_diagnostic *d, const cvm_amber_script *s, uint32_t line,
                               cvm_result r, const char *fmt, ...) CVM_PRINTF(5, 6);
static cvm_result script_error(cvm_diagnostic *d, const cvm_amber_script *s, uint32_t line,
                               cvm_result r, const char *fmt, ...)
{
    if (!d)
        return r;
    va_list ap;
    cvm_diag_clear(d);
    va_start(ap, fmt);
    cvm_diag_vset(d, r, fmt, ap);
    va_end(ap);
    d->line = line;
    d->column = 0;
    snprintf(d->file, sizeof(d->file), "%s", s->path);
    return r;
}

cvm_result cvm_amber_check_requirements(const cvm_amber_script *s, cvm_diagnostic *o_diag)
{
    for (uint32_t i = 0; i < s->extension_count; i++)
        if (!cvm_supports_extension(s->extensions[i].name))
            return script_error(o_diag, s, s->extensions[i].line, CVM_ERROR_UNSUPPORTED,
                                "DEVICE_EXTENSION %s is not supported by coopvm",
                                s->extensions[i].name);
    for (uint32_t i = 0; i < s->feature_count; i++)
        if (!cvm_supports_feature(s->features[i].name))
            return script_error(o_diag, s, s->features[i].line, CVM_ERROR_UNSUPPORTED,
                                "DEVICE_FEATURE %s is not supported by coopvm",
                                s->features[i].name);
    for (uint32_t i = 0; i < s->property_count; i++)
        if (!cvm_supports_property(s->properties[i].name))
            return script_error(o_diag, s, s->properties[i].line, CVM_ERROR_UNSUPPORTED,
                                "DEVICE_PROPERTY %s is not supported by coopvm",
                                s->properties[i].name);
    return CVM_SUCCESS;
}

/* Loading ---------------------------------------------------------------- */

/* The values of a FILE TEXT, read in two passes: `dst` NULL counts them
 * (into *o_count), else stores them in the buffer's layout. */
static cvm_result text_values(const cvm_amber_script *s, const cvm_amber_buffer *b,
                              const char *text, size_t n, unsigned char *dst, uint64_t *o_count,
                              cvm_diagnostic *d)
{
    uint64_t i = 0;
    const char *p = text, *end = text + n;
    while (p < end) {
        while (p < end && cvm_amber_in_set(*p, " \t\r\n,"))
            p++;
        if (p < end && *p == '#') {
            /* a comment to the end of the line, as google/amber's tokenizer reads it */
            while (p < end && *p != '\n')
                p++;
            continue;
        }
        if (p >= end)
            break;
        char tokbuf[128];
        size_t len = 0;
        while (p < end && !cvm_amber_in_set(*p, " \t\r\n,") && len < sizeof(tokbuf) - 1)
            tokbuf[len++] = *p++;
        tokbuf[len] = 0;
        unsigned char scratch[8];
        unsigned char *o = dst ? dst + cvm_amber_value_offset(b->type, i) : scratch;
        if (!cvm_amber_number(tokbuf, len, b->type.scalar, 0, o, NULL, NULL)) {
            char what[64];
            return script_error(d, s, b->line, CVM_ERROR_INVALID_ARGUMENT,
                                "FILE TEXT '%s': '%s' is not %s", b->path, tokbuf,
                                cvm_amber_number_expectation(b->type.scalar, what,
                                                             sizeof(what)));
        }
        i++;
    }
    *o_count = i;
    return CVM_SUCCESS;
}

/* Fills the session's copy `b` of a buffer record and its bytes `*o_data`
 * (`b->size` of them).  Like google/amber, a FILE decides the buffer's size
 * whatever SIZE says: a TEXT file holds its values, a BINARY file its bytes
 * (whole elements). */
static cvm_result load_buffer(const cvm_amber_script *s, cvm_amber_buffer *b,
                              unsigned char **o_data, cvm_diagnostic *d)
{
    *o_data = NULL;
    if (b->init == CVM_AMBER_INIT_DATA) {
        if (!(*o_data = cvm_malloc(b->size ? b->size : 1)))
            return script_error(d, s, b->line, CVM_ERROR_OUT_OF_MEMORY,
                                "out of memory for BUFFER %s (%zu bytes)", b->name, b->size);
        memcpy(*o_data, b->data, b->size);
        return CVM_SUCCESS;
    }
    void *data;
    size_t n;
    cvm_diagnostic io;
    if (cvm_read_file(b->path, &data, &n, &io) != CVM_SUCCESS)
        return script_error(d, s, b->line, CVM_ERROR_IO, "BUFFER %s: %s", b->name, io.message);
    cvm_result r = CVM_SUCCESS;
    uint32_t per = b->type.rows * b->type.columns, stride = cvm_amber_type_stride(b->type);
    uint64_t count = 0;
    if (b->init == CVM_AMBER_INIT_FILE_TEXT) {
        r = text_values(s, b, data, n, NULL, &count, d);
        if (r == CVM_SUCCESS && count % per)
            r = script_error(d, s, b->line, CVM_ERROR_INVALID_ARGUMENT,
                             "FILE TEXT '%s' has %llu values, not whole elements of %u",
                             b->path, (unsigned long long)count, per);
        b->elements = count / per;
    } else {
        if (n % stride)
            r = script_error(d, s, b->line, CVM_ERROR_INVALID_ARGUMENT,
                             "BUFFER %s: FILE '%s' has %zu bytes, not whole elements of %u "
                             "bytes",
                             b->name, b->path, n, stride);
        b->elements = n / stride;
    }
    b->size = (size_t)b->elements * stride;
    if (r == CVM_SUCCESS && !(*o_data = cvm_calloc(b->size ? b->size : 1, 1)))
        r = script_error(d, s, b->line, CVM_ERROR_OUT_OF_MEMORY,
                         "out of memory for BUFFER %s (%zu bytes)", b->name, b->size);
    if (r == CVM_SUCCESS) {
        if (b->init == CVM_AMBER_INIT_FILE_TEXT)
            r = text_values(s, b, data, n, *o_data, &count, d);
        else
            memcpy(*o_data, data, n);
    }
    cvm_mem_free(data);
    return r;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* SPIRV-HEX: byte values as hex numbers ("03 02 23 07" or "0x03"), words
 * little-endian as amber reads them. */
static cvm_result hex_to_words(const cvm_amber_script *s, const cvm_amber_shader *sh,
                               const char *text, size_t n, uint32_t **o_words, size_t *o_count,
                               cvm_diagnostic *d)
{
    unsigned char *bytes = cvm_malloc(n / 2 + 4);
    size_t nb = 0;
    if (!bytes)
        return script_error(d, s, sh->line, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    const char *p = text, *end = text + n;
    while (p < end) {
        if (cvm_amber_in_set(*p, " \t\r\n,")) {
            p++;
            continue;
        }
        if (*p == '#' || *p == ';') { /* comment to end of line */
            while (p < end && *p != '\n')
                p++;
            continue;
        }
        if (end - p >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
            p += 2;
        int hi = p < end ? hexval(*p) : -1, lo = p + 1 < end ? hexval(p[1]) : -1;
        if (hi < 0 || lo < 0 || (p + 2 < end && !cvm_amber_in_set(p[2], " \t\r\n,"))) {
            cvm_mem_free(bytes);
            return script_error(d, s, sh->line, CVM_ERROR_SYNTAX,
                                "SPIRV-HEX shader '%s': expected a two-digit hex byte", sh->name);
        }
        bytes[nb++] = (unsigned char)(hi * 16 + lo);
        p += 2;
    }
    if (nb % 4) {
        cvm_mem_free(bytes);
        return script_error(d, s, sh->line, CVM_ERROR_MALFORMED,
                            "SPIRV-HEX shader '%s' has %zu bytes, not whole words", sh->name,
                            nb);
    }
    uint32_t *w = cvm_malloc(nb ? nb : 4);
    if (!w) {
        cvm_mem_free(bytes);
        return script_error(d, s, sh->line, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    for (size_t i = 0; i < nb / 4; i++)
        w[i] = (uint32_t)bytes[4 * i] | (uint32_t)bytes[4 * i + 1] << 8 |
               (uint32_t)bytes[4 * i + 2] << 16 | (uint32_t)bytes[4 * i + 3] << 24;
    cvm_mem_free(bytes);
    *o_words = w;
    *o_count = nb / 4;
    return CVM_SUCCESS;
}

static cvm_result load_module(cvm_amber_session *S, uint32_t index, cvm_diagnostic *d)
{
    const cvm_amber_script *s = S->script;
    const cvm_amber_shader *sh = &s->shaders[index];
    void *file = NULL;
    const char *text = sh->text;
    size_t text_n = sh->text_length;
    cvm_result r;
    if (sh->path) {
        size_t n;
        cvm_diagnostic io;
        if (cvm_read_file(sh->path, &file, &n, &io) != CVM_SUCCESS)
            return script_error(d, s, sh->line, CVM_ERROR_IO, "SHADER %s: %s", sh->name,
                                io.message);
        text = file;
        text_n = n;
    }
    uint32_t *words = NULL;
    size_t count = 0;
    int assembled = 0;
    switch (sh->format) {
    case CVM_AMBER_SPIRV_BIN:
        if (text_n % 4) {
            cvm_mem_free(file);
            return script_error(d, s, sh->line, CVM_ERROR_MALFORMED,
                                "SHADER %s: '%s' has %zu bytes, not whole 32-bit words",
                                sh->name, sh->path, text_n);
        }
        words = cvm_malloc(text_n ? text_n : 4);
        if (!words) {
            cvm_mem_free(file);
            return script_error(d, s, sh->line, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
        }
        memcpy(words, text, text_n);
        count = text_n / 4;
        break;
    case CVM_AMBER_SPIRV_ASM:
        r = cvm_assemble(text, text_n, 0, sh->target_env, &words, &count, d);
        if (r != CVM_SUCCESS) {
            /* assembler lines are relative to the text: make them script lines */
            if (d && !sh->path && d->line)
                d->line += sh->text_line - 1;
            if (d && !d->file[0])
                snprintf(d->file, sizeof(d->file), "%s", sh->path ? sh->path : s->path);
            cvm_mem_free(file);
            return r;
        }
        assembled = 1;
        break;
    case CVM_AMBER_SPIRV_HEX:
        r = hex_to_words(s, sh, text, text_n, &words, &count, d);
        if (r != CVM_SUCCESS) {
            cvm_mem_free(file);
            return r;
        }
        break;
    case CVM_AMBER_GLSL:
        r = cvm_amber_compile_glsl(text, text_n, sh->target_env, &words, &count, d);
        if (r != CVM_SUCCESS) {
            /* glslang's log names lines of the shader text: say which shader */
            if (d) {
                char msg[sizeof(d->message)];
                int k = snprintf(msg, sizeof(msg), "SHADER %.60s: ", sh->name);
                if (k > 0 && (size_t)k < sizeof(msg))
                    snprintf(msg + k, sizeof(msg) - (size_t)k, "%.*s",
                             (int)(sizeof(msg) - (size_t)k - 1), d->message);
                memcpy(d->message, msg, sizeof(msg));
                d->line = sh->line;
                d->column = 0;
                snprintf(d->file, sizeof(d->file), "%s", s->path);
            }
            cvm_mem_free(file);
            return r;
        }
        break;
    }
    cvm_mem_free(file);
    r = cvm_module_create(S->ctx, words, count, &S->modules[index], d);
    if (assembled)
        cvm_free(words);
    else
        cvm_mem_free(words);
    return r;
}

static cvm_result resolve_subgroup_size(const cvm_amber_script *s, const cvm_context_desc *desc,
                                        uint32_t *o_size, cvm_diagnostic *d)
{
    uint32_t size = 0, line = 0;
    for (uint32_t i = 0; i < s->pipeline_count; i++) {
        const cvm_amber_pipeline *pl = &s->pipelines[i];
        if (!pl->subgroup_size)
            continue;
        if (size && size != pl->subgroup_size)
            return script_error(d, s, pl->subgroup_line, CVM_ERROR_UNSUPPORTED,
                                "REQUIRED_SIZE %u differs from REQUIRED_SIZE %u of line %u: "
                                "coopvm uses one subgroup size per script",
                                pl->subgroup_size, size, line);
        size = pl->subgroup_size;
        line = pl->subgroup_line;
    }
    uint32_t asked = desc ? desc->subgroup_size : 0;
    if (size && asked && asked != size)
        return script_error(d, s, line, CVM_ERROR_UNSUPPORTED,
                            "the script requires subgroup size %u, the caller asked for %u", size,
                            asked);
    *o_size = size ? size : asked;
    return CVM_SUCCESS;
}

static cvm_result create_pipeline(cvm_amber_session *S, uint32_t index, cvm_diagnostic *d)
{
    const cvm_amber_script *s = S->script;
    const cvm_amber_pipeline *pl = &s->pipelines[index];
    cvm_specialization specs[64];
    if (pl->spec_count > CVM_ARRAY_SIZE(specs))
        return script_error(d, s, pl->line, CVM_ERROR_LIMIT,
                            "pipeline %s has more than %zu specialization constants", pl->name,
                            CVM_ARRAY_SIZE(specs));
    for (uint32_t i = 0; i < pl->spec_count; i++) {
        specs[i].constant_id = pl->specs[i].constant_id;
        specs[i].size = pl->specs[i].size;
        specs[i].bits = pl->specs[i].bits;
    }
    CVM_TRY(cvm_pipeline_create(S->modules[pl->shader], pl->entry_point, specs, pl->spec_count,
                                &S->pipelines[index], d));
    for (uint32_t i = 0; i < pl->binding_count; i++) {
        const cvm_amber_binding *b = &pl->bindings[i];
        const cvm_amber_buffer *buf = &S->info[b->buffer];
        if (b->kind == CVM_AMBER_BIND_PUSH_CONSTANT) {
            CVM_TRY(cvm_pipeline_set_push_constants(S->pipelines[index], S->buffers[b->buffer],
                                                    buf->size, d));
        } else if (b->kind == CVM_AMBER_BIND_DEVICE_ADDRESS) {
            const cvm_amber_buffer *dst = &S->info[b->target];
            if (b->offset > dst->size || dst->size - b->offset < 8)
                return script_error(d, s, b->line, CVM_ERROR_INVALID_ARGUMENT,
                                    "OFFSET %llu: 8 address bytes do not fit in the %zu bytes "
                                    "of BUFFER %s",
                                    (unsigned long long)b->offset, dst->size, dst->name);
            uint64_t a = cvm_buffer_device_address(S->addressed[b->buffer]);
            unsigned char le[8];
            for (int k = 0; k < 8; k++)
                le[k] = (unsigned char)(a >> (8 * k));
            /* the address is part of the contents the session starts from */
            memcpy(S->buffers[b->target] + b->offset, le, 8);
            memcpy(S->initial[b->target] + b->offset, le, 8);
        } else {
            /* the descriptor's range: dynamic offset + descriptor offset, for
             * descriptor_range bytes or to the end (VK_WHOLE_SIZE) */
            uint64_t start = b->offset + b->descriptor_offset;
            if (b->offset > buf->size || b->descriptor_offset > buf->size - b->offset)
                return script_error(d, s, b->line, CVM_ERROR_INVALID_ARGUMENT,
                                    "BIND BUFFER %s: offset %llu is past its %zu bytes",
                                    buf->name, (unsigned long long)start, buf->size);
            uint64_t range = buf->size - start;
            if (b->descriptor_range != UINT64_MAX) {
                if (b->descriptor_range > range)
                    return script_error(d, s, b->line, CVM_ERROR_INVALID_ARGUMENT,
                                        "BIND BUFFER %s: DESCRIPTOR_RANGE %llu from byte %llu "
                                        "is past its %zu bytes",
                                        buf->name, (unsigned long long)b->descriptor_range,
                                        (unsigned long long)start, buf->size);
                range = b->descriptor_range;
            }
            CVM_TRY(cvm_pipeline_bind_buffer(S->pipelines[index], b->set, b->binding,
                                             b->array_element, S->buffers[b->buffer] + start,
                                             (size_t)range, d));
        }
    }
    return CVM_SUCCESS;
}

cvm_result cvm_amber_session_create(const cvm_amber_script *s, const cvm_context_desc *desc,
                                    cvm_amber_session **o_session, cvm_diagnostic *o_diag)
{
    cvm_diag_clear(o_diag);
    if (!s || !o_session)
        return cvm_diag_set(o_diag, CVM_ERROR_INVALID_ARGUMENT, "NULL script or output");
    *o_session = NULL;
    CVM_TRY(cvm_amber_check_requirements(s, o_diag));
    uint32_t subgroup = 0;
    CVM_TRY(resolve_subgroup_size(s, desc, &subgroup, o_diag));

    cvm_result r = CVM_SUCCESS;
    cvm_amber_session *S = cvm_calloc(1, sizeof(*S));
    if (!S)
        return cvm_diag_set(o_diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    S->script = s;
    S->modules = cvm_calloc(s->shader_count, sizeof(*S->modules));
    S->pipelines = cvm_calloc(s->pipeline_count, sizeof(*S->pipelines));
    S->buffers = cvm_calloc(s->buffer_count, sizeof(*S->buffers));
    S->initial = cvm_calloc(s->buffer_count, sizeof(*S->initial));
    S->info = cvm_calloc(s->buffer_count ? s->buffer_count : 1, sizeof(*S->info));
    S->runs = cvm_calloc(s->run_count, sizeof(*S->runs));
    S->results = cvm_calloc(s->expect_count, sizeof(*S->results));
    if (!S->modules || !S->pipelines || !S->buffers || !S->initial || !S->info || !S->runs ||
        !S->results) {
        r = cvm_diag_set(o_diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
        goto fail;
    }
    for (uint32_t i = 0, n = 0; i < s->command_count; i++)
        if (s->commands[i].kind == CVM_AMBER_CMD_RUN)
            S->runs[n++] = i;

    /* Buffers before anything touches the engine, so a missing file is
     * reported as such even where the engine cannot run the shader. */
    for (uint32_t i = 0; i < s->buffer_count; i++) {
        S->info[i] = s->buffers[i];
        r = load_buffer(s, &S->info[i], &S->buffers[i], o_diag);
        if (r != CVM_SUCCESS)
            goto fail;
        size_t size = S->info[i].size;
        S->initial[i] = cvm_malloc(size ? size : 1);
        if (!S->initial[i]) {
            r = script_error(o_diag, s, s->buffers[i].line, CVM_ERROR_OUT_OF_MEMORY,
                             "out of memory for BUFFER %s (%zu bytes)", s->buffers[i].name, size);
            goto fail;
        }
        memcpy(S->initial[i], S->buffers[i], size);
    }

    cvm_context_desc cd;
    if (desc)
        cd = *desc;
    else
        memset(&cd, 0, sizeof(cd));
    cd.subgroup_size = subgroup;
    /* DEVICE_FEATURE robustBufferAccess asks for defined out-of-bounds
     * accesses: coopvm's robust mode (loads give zero, stores drop), one of
     * the behaviours Vulkan allows */
    for (uint32_t i = 0; i < s->feature_count; i++)
        if (!strcmp(s->features[i].name, "robustBufferAccess"))
            cd.flags |= CVM_FLAG_ROBUST_ACCESS;
    r = cvm_context_create(&cd, &S->ctx, o_diag);
    if (r != CVM_SUCCESS)
        goto fail;
    /* Every buffer has a device address (buffer device address): a shader
     * may reach any of them through a pointer another buffer holds. */
    S->addressed = cvm_calloc(s->buffer_count ? s->buffer_count : 1, sizeof(*S->addressed));
    if (!S->addressed) {
        r = cvm_diag_set(o_diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
        goto fail;
    }
    for (uint32_t i = 0; i < s->buffer_count; i++) {
        r = cvm_buffer_create(S->ctx, S->buffers[i], S->info[i].size, &S->addressed[i],
                              o_diag);
        if (r != CVM_SUCCESS)
            goto fail;
    }
    for (uint32_t i = 0; i < s->pipeline_count; i++) {
        uint32_t sh = s->pipelines[i].shader;
        if (!S->modules[sh]) {
            r = load_module(S, sh, o_diag);
            if (r != CVM_SUCCESS)
                goto fail;
        }
        r = create_pipeline(S, i, o_diag);
        if (r != CVM_SUCCESS)
            goto fail;
    }
    *o_session = S;
    return CVM_SUCCESS;
fail:
    cvm_amber_session_destroy(S);
    return r;
}

void cvm_amber_session_destroy(cvm_amber_session *S)
{
    if (!S)
        return;
    const cvm_amber_script *s = S->script;
    if (S->pipelines)
        for (uint32_t i = 0; i < s->pipeline_count; i++)
            cvm_pipeline_destroy(S->pipelines[i]);
    if (S->modules)
        for (uint32_t i = 0; i < s->shader_count; i++)
            cvm_module_destroy(S->modules[i]);
    if (S->addressed)
        for (uint32_t i = 0; i < s->buffer_count; i++)
            cvm_buffer_destroy(S->addressed[i]);
    cvm_mem_free(S->addressed);
    cvm_context_destroy(S->ctx);
    if (S->buffers)
        for (uint32_t i = 0; i < s->buffer_count; i++)
            cvm_mem_free(S->buffers[i]);
    if (S->initial)
        for (uint32_t i = 0; i < s->buffer_count; i++)
            cvm_mem_free(S->initial[i]);
    cvm_mem_free(S->modules);
    cvm_mem_free(S->pipelines);
    cvm_mem_free(S->buffers);
    cvm_mem_free(S->initial);
    cvm_mem_free(S->info);
    cvm_mem_free(S->runs);
    cvm_mem_free(S->results);
    cvm_mem_free(S);
}

cvm_context *cvm_amber_session_context(cvm_amber_session *S)
{
    return S->ctx;
}

static cvm_result run_command(cvm_amber_session *S, const cvm_amber_command *c,
                              cvm_diagnostic *d)
{
    const cvm_amber_script *s = S->script;
    const cvm_amber_pipeline *pl = &s->pipelines[c->pipeline];
    cvm_pipeline *p = S->pipelines[c->pipeline];
    /* push constants are copied by the engine: refresh them from the buffer
     * (a COPY may have changed it) */
    for (uint32_t i = 0; i < pl->binding_count; i++)
        if (pl->bindings[i].kind == CVM_AMBER_BIND_PUSH_CONSTANT)
            CVM_TRY(cvm_pipeline_set_push_constants(p, S->buffers[pl->bindings[i].buffer],
                                                    S->info[pl->bindings[i].buffer].size, d));
    return cvm_pipeline_dispatch(p, c->groups[0], c->groups[1], c->groups[2], d);
}

cvm_result cvm_amber_session_run(cvm_amber_session *S, uint32_t run_index, cvm_diagnostic *d)
{
    cvm_diag_clear(d);
    if (!S || run_index >= S->script->run_count)
        return cvm_diag_set(d, CVM_ERROR_INVALID_ARGUMENT, "no RUN number %u in the script",
                            run_index);
    return run_command(S, &S->script->commands[S->runs[run_index]], d);
}

void cvm_amber_session_reset_buffers(cvm_amber_session *S)
{
    for (uint32_t i = 0; i < S->script->buffer_count; i++)
        memcpy(S->buffers[i], S->initial[i], S->info[i].size);
}

void *cvm_amber_session_buffer(cvm_amber_session *S, uint32_t index, size_t *o_size)
{
    if (!S || index >= S->script->buffer_count)
        return NULL;
    if (o_size)
        *o_size = S->info[index].size;
    return S->buffers[index];
}

/* Comparisons ------------------------------------------------------------ */

/* A value slot read as a number and as its raw bits. */
static void read_slot(cvm_amber_scalar sc, const unsigned char *p, double *o_d, uint64_t *o_bits,
                      int64_t *o_i)
{
    uint64_t bits = 0;
    uint32_t sz = cvm_amber_scalar_size(sc);
    memcpy(&bits, p, sz);
    int64_t i = 0;
    double d = 0;
    switch (sc) {
    case CVM_AMBER_INT8: i = (int8_t)bits; d = (double)i; break;
    case CVM_AMBER_INT16: i = (int16_t)bits; d = (double)i; break;
    case CVM_AMBER_INT32: i = (int32_t)bits; d = (double)i; break;
    case CVM_AMBER_INT64: i = (int64_t)bits; d = (double)i; break;
    case CVM_AMBER_UINT8:
    case CVM_AMBER_UINT16:
    case CVM_AMBER_UINT32:
    case CVM_AMBER_UINT64: i = (int64_t)bits; d = (double)bits; break;
    case CVM_AMBER_FLOAT16: d = (double)cvm_amber_half_to_float((uint16_t)bits); break;
    case CVM_AMBER_FLOAT32: {
        float f;
        memcpy(&f, p, 4);
        d = (double)f;
        break;
    }
    case CVM_AMBER_FLOAT64: memcpy(&d, p, 8); break;
    }
    *o_d = d;
    *o_bits = bits;
    if (o_i)
        *o_i = i;
}

/* |got - expected|, with a NaN on one side only counting as infinity. */
static double abs_error(double got, double expected)
{
    if (isnan(got) || isnan(expected))
        return isnan(got) && isnan(expected) ? 0.0 : HUGE_VAL;
    if (got == expected) /* also inf == inf */
        return 0.0;
    return fabs(got - expected);
}

static void record_first(cvm_amber_expect_result *r, uint64_t index, double e, double g,
                         uint64_t eb, uint64_t gb)
{
    if (r->mismatches++ == 0) {
        r->first_index = index;
        r->expected_value = e;
        r->got_value = g;
        r->expected_bits = eb;
        r->got_bits = gb;
    }
}

static int same_shape(const cvm_amber_buffer *a, const cvm_amber_buffer *b,
                      cvm_amber_expect_result *r)
{
    if (a->type.scalar != b->type.scalar || a->type.rows != b->type.rows ||
        a->type.columns != b->type.columns) {
        snprintf(r->message, sizeof(r->message),
                 "buffers %s and %s have different types (%s %ux%u vs %s %ux%u)", a->name,
                 b->name, cvm_amber_scalar_name(a->type.scalar), a->type.columns, a->type.rows,
                 cvm_amber_scalar_name(b->type.scalar), b->type.columns, b->type.rows);
        return 0;
    }
    if (a->elements != b->elements) {
        snprintf(r->message, sizeof(r->message),
                 "buffers %s and %s have different sizes (%llu vs %llu elements)", a->name,
                 b->name, (unsigned long long)a->elements, (unsigned long long)b->elements);
        return 0;
    }
    return 1;
}

static void compare_buffers(const cvm_amber_command *c, const cvm_amber_buffer *ba,
                            const unsigned char *got, const cvm_amber_buffer *bb,
                            const unsigned char *exp, cvm_amber_expect_result *r)
{
    if (!same_shape(ba, bb, r)) {
        r->passed = 0;
        return;
    }
    uint64_t n = ba->elements * ba->type.rows * ba->type.columns;
    int rmse = c->expect == CVM_AMBER_EXPECT_RMSE_BUFFER;
    double tol = (double)c->tolerance, sum = 0;
    uint64_t first_over = UINT64_MAX;
    r->compared = n;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t off = cvm_amber_value_offset(ba->type, i), gb, eb;
        double g, e;
        read_slot(ba->type.scalar, got + off, &g, &gb, NULL);
        read_slot(bb->type.scalar, exp + off, &e, &eb, NULL);
        double err = gb == eb ? 0.0 : abs_error(g, e);
        if (err > r->worst_error || (isnan(err) && !isnan(r->worst_error))) {
            r->worst_error = err;
            r->worst_index = i;
        }
        if (rmse) {
            double diff = g - e; /* NaN or inf propagate into the sum */
            sum += diff * diff;
            if (!(fabs(diff) <= tol)) {
                if (first_over == UINT64_MAX)
                    first_over = i;
                record_first(r, i, e, g, eb, gb);
            }
        } else if (gb != eb) {
            record_first(r, i, e, g, eb, gb);
        }
    }
    if (rmse) {
        r->rmse = n ? sqrt(sum / (double)n) : 0.0;
        /* google/amber: fails when rmse > tolerance (a float widened to
         * double).  A NaN rmse fails here, where amber's test lets it pass. */
        r->passed = !(r->rmse > tol) && !isnan(r->rmse);
        if (first_over == UINT64_MAX && n) {
            /* no single value is over: point at the worst one */
            uint64_t off = cvm_amber_value_offset(ba->type, r->worst_index);
            read_slot(ba->type.scalar, got + off, &r->got_value, &r->got_bits, NULL);
            read_slot(bb->type.scalar, exp + off, &r->expected_value, &r->expected_bits, NULL);
            r->first_index = r->worst_index;
        }
    } else {
        r->passed = r->mismatches == 0;
    }
}

static int compare_values(cvm_amber_compare op, int cmp)
{
    switch (op) {
    case CVM_AMBER_EQ: return cmp == 0;
    case CVM_AMBER_NE: return cmp != 0;
    case CVM_AMBER_LT: return cmp < 0;
    case CVM_AMBER_LE: return cmp <= 0;
    case CVM_AMBER_GT: return cmp > 0;
    case CVM_AMBER_GE: return cmp >= 0;
    }
    return 0;
}

/* google/amber's EQ on floating-point values: equal within a relative
 * 1e-6 percent (kEpsilon, as a percentage, in its verifier), NaN equal to
 * NaN.  For float16 and float32 values that is exact; for doubles it
 * forgives the last few bits. */
static int amber_float_eq(double g, double e)
{
    if (isnan(g) || isnan(e))
        return isnan(g) && isnan(e);
    if (g == e)
        return 1;
    return fabs(g - e) <= 1e-6 / 100.0 * fabs(e);
}

/* The tolerance for value `k` of an IDX (k counts values from the first one
 * compared): component k % rows of its vector or matrix column.  Returns 0
 * when no tolerance applies. */
static int tolerance_of(const cvm_amber_command *c, uint64_t k, double expected, double *o_tol)
{
    if (c->tolerance_count == 0)
        return 0;
    uint32_t comp = 0;
    if (c->tolerance_count > 1) {
        comp = (uint32_t)(k % c->value_type.rows);
        if (comp >= c->tolerance_count)
            return 0;
    }
    double t = c->tolerances[comp];
    if (c->tolerance_percent[comp])
        t = t / 100.0 * fabs(expected);
    *o_tol = t;
    return 1;
}

static void compare_idx(const cvm_amber_command *c, const cvm_amber_buffer *b,
                        const unsigned char *got, cvm_amber_expect_result *r)
{
    cvm_amber_type t = c->value_type;
    uint32_t per = t.rows * t.columns;
    /* An AmberScript EXPECT reads the buffer's own type: `offset` names a
     * value slot, and the values follow slot after slot.  A VkScript probe
     * reads its own type laid out from `offset`. */
    int own = cvm_amber_type_equal(t, b->type);
    uint64_t start = UINT64_MAX, nvalues;
    r->passed = 0;
    if (own) {
        uint32_t stride = cvm_amber_type_stride(t);
        uint64_t element = c->offset / stride;
        nvalues = b->elements * per;
        for (uint32_t k = 0; k < per; k++)
            if (cvm_amber_value_offset(t, element * per + k) == c->offset)
                start = element * per + k;
        if (start == UINT64_MAX || c->offset >= b->size) {
            snprintf(r->message, sizeof(r->message), "IDX %llu is %s buffer %s (%zu bytes)",
                     (unsigned long long)c->offset,
                     c->offset >= b->size ? "past the end of" : "in the padding of", b->name,
                     b->size);
            return;
        }
        if (start + c->value_count > nvalues) {
            snprintf(r->message, sizeof(r->message),
                     "IDX %llu with %u values reads past the end of buffer %s (%llu values)",
                     (unsigned long long)c->offset, c->value_count, b->name,
                     (unsigned long long)nvalues);
            return;
        }
    } else {
        start = 0;
        uint64_t last = c->value_count ? c->value_count - 1 : 0;
        uint64_t end = c->offset + cvm_amber_value_offset(t, last) +
                       cvm_amber_scalar_size(t.scalar);
        if (end > b->size) {
            snprintf(r->message, sizeof(r->message),
                     "%u %s values at byte %llu read past the end of %s (%zu bytes)",
                     c->value_count, cvm_amber_scalar_name(t.scalar),
                     (unsigned long long)c->offset, b->name, b->size);
            return;
        }
    }
    int is_float = t.scalar >= CVM_AMBER_FLOAT16, is_signed = t.scalar <= CVM_AMBER_INT64;
    r->compared = c->value_count;
    for (uint32_t k = 0; k < c->value_count; k++) {
        uint64_t slot = start + k, gb;
        uint64_t at = own ? cvm_amber_value_offset(t, slot)
                          : c->offset + cvm_amber_value_offset(t, k);
        double g, e = c->values[k], tol;
        int64_t gi;
        read_slot(t.scalar, got + at, &g, &gb, &gi);
        int ok;
        double err = abs_error(g, e);
        if (tolerance_of(c, own ? slot % per : k % per, e, &tol)) {
            ok = isnan(g) || isnan(e) ? isnan(g) && isnan(e) : err <= tol;
        } else if (is_float) {
            if (c->compare == CVM_AMBER_EQ)
                ok = amber_float_eq(g, e);
            else if (c->compare == CVM_AMBER_NE)
                ok = !amber_float_eq(g, e);
            else if (isnan(g) || isnan(e))
                ok = 0; /* unordered: no order comparison holds */
            else
                ok = compare_values(c->compare, g < e ? -1 : g > e ? 1 : 0);
        } else {
            int cmp;
            int64_t ei = c->ivalues[k];
            if (is_signed)
                cmp = gi < ei ? -1 : gi > ei ? 1 : 0;
            else
                cmp = (uint64_t)gi < (uint64_t)ei ? -1 : (uint64_t)gi > (uint64_t)ei ? 1 : 0;
            ok = compare_values(c->compare, cmp);
        }
        if (err > r->worst_error) {
            r->worst_error = err;
            r->worst_index = slot;
        }
        if (!ok) {
            uint64_t eb = (uint64_t)c->ivalues[k];
            record_first(r, slot, e, g, eb, gb);
        }
    }
    r->passed = r->mismatches == 0;
}

void cvm_amber_session_evaluate(cvm_amber_session *S, uint32_t command,
                                cvm_amber_expect_result *r)
{
    const cvm_amber_script *s = S->script;
    const cvm_amber_command *c = &s->commands[command];
    memset(r, 0, sizeof(*r));
    r->command = command;
    r->line = c->line;
    r->text = c->text;
    if (c->kind != CVM_AMBER_CMD_EXPECT) {
        snprintf(r->message, sizeof(r->message), "command %u is not an EXPECT", command);
        return;
    }
    if (c->expect == CVM_AMBER_EXPECT_IDX)
        compare_idx(c, &S->info[c->buffer], S->buffers[c->buffer], r);
    else
        compare_buffers(c, &S->info[c->buffer], S->buffers[c->buffer], &S->info[c->other],
                        S->buffers[c->other], r);
}

cvm_result cvm_amber_session_differences(cvm_amber_session *S, uint32_t command, double **o_err,
                                        uint8_t **o_state, uint64_t *o_count)
{
    const cvm_amber_script *s = S->script;
    *o_err = NULL;
    *o_state = NULL;
    *o_count = 0;
    if (command >= s->command_count || s->commands[command].kind != CVM_AMBER_CMD_EXPECT)
        return CVM_ERROR_INVALID_ARGUMENT;
    const cvm_amber_command *c = &s->commands[command];
    const cvm_amber_buffer *b = &S->info[c->buffer];
    const unsigned char *got = S->buffers[c->buffer];
    uint64_t n = b->elements * b->type.rows * b->type.columns;
    /* value slots of the buffer's own type only (a VkScript probe reads a
     * type of its own from a byte buffer: no slots to map) */
    if (c->expect == CVM_AMBER_EXPECT_IDX && !cvm_amber_type_equal(c->value_type, b->type))
        return CVM_ERROR_INVALID_ARGUMENT;
    if (n > (UINT64_C(1) << 32))
        return CVM_ERROR_LIMIT;
    double *err = cvm_malloc((size_t)n * sizeof(double) + 1);
    uint8_t *st = cvm_malloc((size_t)n + 1);
    if (!err || !st) {
        cvm_mem_free(err);
        cvm_mem_free(st);
        return CVM_ERROR_OUT_OF_MEMORY;
    }
    for (uint64_t i = 0; i < n; i++) {
        err[i] = 0;
        st[i] = CVM_AMBER_SLOT_NOT_COMPARED;
    }
    if (c->expect == CVM_AMBER_EXPECT_IDX) {
        /* the slots evaluate() compared, each judged as it judged them */
        cvm_amber_expect_result r;
        cvm_amber_session_evaluate(S, command, &r);
        if (r.message[0] || !r.compared) {
            cvm_mem_free(err);
            cvm_mem_free(st);
            return CVM_ERROR_INVALID_ARGUMENT;
        }
        uint64_t start = 0;
        uint32_t per = b->type.rows * b->type.columns;
        uint64_t element = c->offset / cvm_amber_type_stride(b->type);
        for (uint32_t k = 0; k < per; k++)
            if (cvm_amber_value_offset(b->type, element * per + k) == c->offset)
                start = element * per + k;
        for (uint32_t k = 0; k < c->value_count && start + k < n; k++) {
            cvm_amber_command one = *c;
            one.offset = cvm_amber_value_offset(b->type, start + k);
            one.values = c->values + k;
            one.ivalues = c->ivalues + k;
            one.value_count = 1;
            /* the offset keeps the slot, so its component's tolerance */
            memset(&r, 0, sizeof(r));
            compare_idx(&one, b, got, &r);
            err[start + k] = r.worst_error;
            st[start + k] = r.passed ? CVM_AMBER_SLOT_PASSED : CVM_AMBER_SLOT_FAILED;
        }
    } else {
        const cvm_amber_buffer *bb = &S->info[c->other];
        cvm_amber_expect_result r;
        memset(&r, 0, sizeof(r));
        if (!same_shape(b, bb, &r)) {
            cvm_mem_free(err);
            cvm_mem_free(st);
            return CVM_ERROR_INVALID_ARGUMENT;
        }
        const unsigned char *exp = S->buffers[c->other];
        double tol = (double)c->tolerance;
        for (uint64_t i = 0; i < n; i++) {
            uint64_t off = cvm_amber_value_offset(b->type, i), gb, eb;
            double g, e;
            read_slot(b->type.scalar, got + off, &g, &gb, NULL);
            read_slot(bb->type.scalar, exp + off, &e, &eb, NULL);
            err[i] = gb == eb ? 0.0 : abs_error(g, e);
            int fail = c->expect == CVM_AMBER_EXPECT_RMSE_BUFFER ? !(fabs(g - e) <= tol) : gb != eb;
            st[i] = fail ? CVM_AMBER_SLOT_FAILED : CVM_AMBER_SLOT_PASSED;
        }
    }
    *o_err = err;
    *o_state = st;
    *o_count = n;
    return CVM_SUCCESS;
}

cvm_result cvm_amber_session_check(cvm_amber_session *S,
                                   const cvm_amber_expect_result **o_results, uint32_t *o_count)
{
    const cvm_amber_script *s = S->script;
    uint32_t n = 0, failed = 0;
    for (uint32_t i = 0; i < s->command_count; i++) {
        if (s->commands[i].kind != CVM_AMBER_CMD_EXPECT)
            continue;
        cvm_amber_session_evaluate(S, i, &S->results[n]);
        failed += !S->results[n].passed;
        n++;
    }
    if (o_results)
        *o_results = S->results;
    if (o_count)
        *o_count = n;
    return failed ? CVM_ERROR_EXPECTATION_FAILED : CVM_SUCCESS;
}

/* Whole scripts -------------------------------------------------------- */

cvm_result cvm_amber_session_set_debug(cvm_amber_session *S, const cvm_debug_desc *debug,
                                       cvm_diagnostic *o_diag)
{
    for (uint32_t i = 0; i < S->script->pipeline_count; i++)
        if (S->pipelines[i])
            CVM_TRY(cvm_pipeline_set_debug(S->pipelines[i], debug, o_diag));
    return CVM_SUCCESS;
}

cvm_pipeline *cvm_amber_session_pipeline(cvm_amber_session *S, uint32_t index)
{
    return S && index < S->script->pipeline_count ? S->pipelines[index] : NULL;
}

cvm_result cvm_amber_execute(const cvm_amber_script *s, const cvm_context_desc *desc,
                             cvm_amber_report *o_report, cvm_diagnostic *o_diag)
{
    return cvm_amber_execute_hooked(s, desc, NULL, o_report, o_diag);
}

cvm_result cvm_amber_execute_hooked(const cvm_amber_script *s, const cvm_context_desc *desc,
                                    const cvm_amber_hooks *hooks, cvm_amber_report *o_report,
                                    cvm_diagnostic *o_diag)
{
    memset(o_report, 0, sizeof(*o_report));
    cvm_amber_session *S;
    cvm_result r = cvm_amber_session_create(s, desc, &S, o_diag);
    if (r == CVM_SUCCESS && hooks && hooks->debug) {
        r = cvm_amber_session_set_debug(S, hooks->debug, o_diag);
        if (r != CVM_SUCCESS)
            cvm_amber_session_destroy(S);
    }
    if (r != CVM_SUCCESS) {
        o_report->error_line = o_diag && o_diag->line && !strcmp(o_diag->file, s->path)
                                   ? o_diag->line
                                   : 0;
        return r;
    }
    o_report->results = cvm_calloc(s->expect_count, sizeof(*o_report->results));
    if (!o_report->results) {
        cvm_amber_session_destroy(S);
        return cvm_diag_set(o_diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    for (uint32_t i = 0; i < s->command_count && r == CVM_SUCCESS; i++) {
        const cvm_amber_command *c = &s->commands[i];
        switch (c->kind) {
        case CVM_AMBER_CMD_RUN:
            if (hooks && hooks->before_run)
                hooks->before_run(hooks->user, S, i);
            r = run_command(S, c, o_diag);
            if (hooks && hooks->after_run)
                hooks->after_run(hooks->user, S, i, r);
            break;
        case CVM_AMBER_CMD_COPY: {
            const cvm_amber_buffer *a = &S->info[c->buffer], *b = &S->info[c->other];
            if (a->size != b->size)
                r = script_error(o_diag, s, c->line, CVM_ERROR_INVALID_ARGUMENT,
                                 "COPY %s TO %s: sizes differ (%zu and %zu bytes)", a->name,
                                 b->name, a->size, b->size);
            else
                memcpy(S->buffers[c->other], S->buffers[c->buffer], a->size);
            break;
        }
        case CVM_AMBER_CMD_WRITE: {
            const cvm_amber_buffer *b = &S->info[c->buffer];
            if (c->offset > b->size || c->data_size > b->size - c->offset)
                r = script_error(o_diag, s, c->line, CVM_ERROR_INVALID_ARGUMENT,
                                 "%zu bytes at offset %llu do not fit in %s (%zu bytes)",
                                 c->data_size, (unsigned long long)c->offset, b->name,
                                 b->size);
            else
                memcpy(S->buffers[c->buffer] + c->offset, c->data, c->data_size);
            break;
        }
        case CVM_AMBER_CMD_EXPECT: {
            cvm_amber_expect_result *res = &o_report->results[o_report->result_count++];
            cvm_amber_session_evaluate(S, i, res);
            o_report->failed += !res->passed;
            if (hooks && hooks->after_expect)
                hooks->after_expect(hooks->user, S, res);
            break;
        }
        }
        if (r != CVM_SUCCESS)
            o_report->error_line = c->line;
    }
    cvm_amber_session_destroy(S);
    if (r != CVM_SUCCESS)
        return r;
    if (!o_report->failed)
        return CVM_SUCCESS;
    const cvm_amber_expect_result *first = NULL;
    for (uint32_t k = 0; k < o_report->result_count && !first; k++)
        if (!o_report->results[k].passed)
            first = &o_report->results[k];
    return script_error(o_diag, s, first ? first->line : 0, CVM_ERROR_EXPECTATION_FAILED,
                        "%u of %u EXPECT commands failed, the first at line %u", o_report->failed,
                        o_report->result_count, first ? first->line : 0);
}

void cvm_amber_report_release(cvm_amber_report *report)
{
    if (!report)
        return;
    cvm_mem_free(report->results);
    memset(report, 0, sizeof(*report));
}
