/* Placeholder: lands from its own branch. */
#include "exec/program.h"

cvm_result cvm_lower_coopmat2(cvm_lower *lw, const spv_inst *inst, cvm_insn *out)
{
    (void)lw;
    (void)inst;
    (void)out;
    return CVM_ERROR_NOT_FOUND;
}
