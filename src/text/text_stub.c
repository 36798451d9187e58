/* Temporary: the text form lands from its own branch. */
#include "cvm_common.h"

cvm_result cvm_assemble(const char *text, size_t length, uint32_t flags, const char *target_env,
                        uint32_t **o_words, size_t *o_word_count, cvm_diagnostic *o_diag)
{
    (void)text; (void)length; (void)flags; (void)target_env; (void)o_words; (void)o_word_count;
    return cvm_diag_set(o_diag, CVM_ERROR_UNSUPPORTED, "the assembler is not built yet");
}

cvm_result cvm_disassemble(const uint32_t *words, size_t word_count, uint32_t flags, char **o_text,
                           size_t *o_length, cvm_diagnostic *o_diag)
{
    (void)words; (void)word_count; (void)flags; (void)o_text; (void)o_length;
    return cvm_diag_set(o_diag, CVM_ERROR_UNSUPPORTED, "the disassembler is not built yet");
}
