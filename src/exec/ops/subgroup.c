/* Placeholder: the subgroup family is not implemented yet; every instruction of it
 * is reported as unsupported by lower.c. */
#include "exec/program.h"

cvm_result cvm_lower_subgroup(cvm_lower *lw, const spv_inst *inst, cvm_insn *out)
{
    (void)lw;
    (void)inst;
    (void)out;
    return CVM_ERROR_NOT_FOUND;
}
