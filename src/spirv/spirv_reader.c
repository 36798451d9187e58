/* Bounded reading of a SPIR-V binary. */
#include "spirv/spirv_reader.h"

#include <string.h>

#include "spirv/spirv_grammar.h"

static uint32_t bswap32(uint32_t v)
{
    return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

cvm_result spv_binary_open(spv_binary *o_bin, const uint32_t *words, size_t word_count,
                           cvm_diagnostic *diag)
{
    memset(o_bin, 0, sizeof(*o_bin));
    if (!words || word_count < SPV_HEADER_WORDS)
        return cvm_diag_at(diag, CVM_ERROR_MALFORMED, 0, 0,
                           "binary has %zu words, fewer than the 5-word header", word_count);
    if (words[0] == bswap32(SPV_MAGIC_NUMBER)) {
        uint32_t *copy = cvm_malloc(word_count * sizeof(uint32_t));
        if (!copy)
            return cvm_diag_set(diag, CVM_ERROR_OUT_OF_MEMORY, "out of memory");
        for (size_t i = 0; i < word_count; i++)
            copy[i] = bswap32(words[i]);
        o_bin->owned = copy;
        words = copy;
    } else if (words[0] != SPV_MAGIC_NUMBER) {
        return cvm_diag_at(diag, CVM_ERROR_MALFORMED, 0, 0,
                           "bad magic number 0x%08x (expected 0x%08x)", words[0],
                           SPV_MAGIC_NUMBER);
    }
    o_bin->words = words;
    o_bin->word_count = word_count;
    o_bin->header.magic = words[0];
    o_bin->header.version = words[1];
    o_bin->header.generator = words[2];
    o_bin->header.bound = words[3];
    o_bin->header.schema = words[4];
    /* The diagnostics read the header copy, never `words`: when the binary
     * was byte-swapped, `words` is the copy that spv_binary_release frees. */
    const spv_header h = o_bin->header;
    cvm_result r = CVM_SUCCESS;
    if ((h.version & 0xff0000ffu) != 0 || ((h.version >> 16) & 0xff) != 1)
        r = cvm_diag_at(diag, CVM_ERROR_MALFORMED, 1, 0, "unsupported SPIR-V version 0x%08x",
                        h.version);
    else if (h.bound == 0)
        r = cvm_diag_at(diag, CVM_ERROR_MALFORMED, 3, 0, "id bound is 0");
    else if (h.schema != 0)
        r = cvm_diag_at(diag, CVM_ERROR_MALFORMED, 4, 0, "schema word is %u, not 0", h.schema);
    if (r != CVM_SUCCESS)
        spv_binary_release(o_bin);
    return r;
}

void spv_binary_release(spv_binary *bin)
{
    if (bin->owned)
        cvm_mem_free(bin->owned);
    memset(bin, 0, sizeof(*bin));
}

int spv_next_inst(const spv_binary *bin, size_t *io_offset, spv_inst *o_inst,
                  cvm_diagnostic *diag)
{
    size_t off = *io_offset;
    if (off >= bin->word_count)
        return 0;
    uint32_t w = bin->words[off];
    uint32_t count = w >> 16;
    if (count == 0) {
        cvm_diag_at(diag, CVM_ERROR_MALFORMED, (uint32_t)off, w & 0xffffu,
                    "instruction at word %zu has a word count of 0", off);
        return -1;
    }
    if (count > bin->word_count - off) {
        cvm_diag_at(diag, CVM_ERROR_MALFORMED, (uint32_t)off, w & 0xffffu,
                    "instruction at word %zu (opcode %u) needs %u words but only %zu remain", off,
                    w & 0xffffu, count, bin->word_count - off);
        return -1;
    }
    o_inst->words = bin->words + off;
    o_inst->opcode = (uint16_t)(w & 0xffffu);
    o_inst->word_count = (uint16_t)count;
    o_inst->offset = (uint32_t)off;
    *io_offset = off + count;
    return 1;
}

uint32_t spv_inst_string(const spv_inst *inst, uint32_t first, const char **o_str)
{
    if (first >= inst->word_count)
        return 0;
    const char *s = (const char *)(inst->words + first);
    size_t max = (size_t)(inst->word_count - first) * 4;
    const char *nul = memchr(s, 0, max);
    if (!nul)
        return 0;
    *o_str = s;
    return (uint32_t)((size_t)(nul - s) / 4 + 1);
}
