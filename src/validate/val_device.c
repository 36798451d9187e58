/* The rules that depend on the device and the pipeline (VAL_DEVICE rows of
 * rules.h): a module checked against a cvm_device_description
 * (cvm_validate_options.device); the Vulkan rows under a vulkan* target,
 * the QCOM text's own under any.  Each check reads the description's lists and limits as the VUID
 * names them (shared/specs/vulkan/spirvenv_cooperative_vuids.adoc); a value
 * a specialization constant decides is not checked, and a limit of 0 is one
 * the description does not report.  NULL lists with a count of 0 are empty
 * lists: a module that needs an entry breaks the rule. */
#include <stdio.h>
#include <string.h>

#include "validate/val.h"
#include "validate/val_checks.h"

/* ---- component types ----------------------------------------------------------- */

enum { SIGN_TYPE, SIGN_SIGNED, SIGN_UNSIGNED, SIGN_STRICT };

/* 1 when the scalar type `t` is the VkComponentTypeKHR `vk`.  Integers:
 * SIGN_SIGNED / SIGN_UNSIGNED give the signedness (an instruction's
 * Matrix*SignedComponents operands); SIGN_STRICT takes the OpTypeInt's;
 * SIGN_TYPE takes Signedness 1 as signed and Signedness 0 ("no signedness
 * semantics", SPIR-V 3.42.6) as either. */
static int type_is(const val_ctx *v, uint32_t t, int sign, uint32_t vk)
{
    uint32_t w, s, enc;
    if (val_int_type(v, t, &w, &s)) {
        uint32_t k = w == 8 ? 0 : w == 16 ? 1 : w == 32 ? 2 : w == 64 ? 3 : 9;
        if (k == 9)
            return 0;
        uint32_t sv = CVM_COMPONENT_TYPE_SINT8 + k, uv = CVM_COMPONENT_TYPE_UINT8 + k;
        switch (sign) {
        case SIGN_SIGNED:
            return vk == sv;
        case SIGN_UNSIGNED:
            return vk == uv;
        case SIGN_STRICT:
            return vk == (s ? sv : uv);
        default:
            return s ? vk == sv : (vk == sv || vk == uv);
        }
    }
    if (!val_float_type(v, t, &w, &enc) || sign == SIGN_SIGNED)
        return 0;
    if (enc == VAL_NONE)
        return (w == 16 && vk == CVM_COMPONENT_TYPE_FLOAT16) ||
               (w == 32 && vk == CVM_COMPONENT_TYPE_FLOAT32) ||
               (w == 64 && vk == CVM_COMPONENT_TYPE_FLOAT64);
    return (enc == SpvFPEncodingBFloat16KHR && vk == CVM_COMPONENT_TYPE_BFLOAT16) ||
           (enc == SpvFPEncodingFloat8E4M3EXT && vk == CVM_COMPONENT_TYPE_FLOAT_E4M3) ||
           (enc == SpvFPEncodingFloat8E5M2EXT && vk == CVM_COMPONENT_TYPE_FLOAT_E5M2);
}

/* The type's name for messages: "float16", "int8", "uint32", "bfloat16"... */
static const char *type_name(const val_ctx *v, uint32_t t, char *buf, size_t size)
{
    uint32_t w, s, enc;
    if (val_int_type(v, t, &w, &s))
        snprintf(buf, size, "%sint%u", s ? "" : "u", w);
    else if (val_float_type(v, t, &w, &enc))
        snprintf(buf, size, "%s%u",
                 enc == VAL_NONE                      ? "float"
                 : enc == SpvFPEncodingBFloat16KHR    ? "bfloat"
                 : enc == SpvFPEncodingFloat8E4M3EXT  ? "e4m3 float"
                 : enc == SpvFPEncodingFloat8E5M2EXT  ? "e5m2 float"
                                                      : "float(encoded)",
                 w);
    else
        snprintf(buf, size, "%%%u", t);
    return buf;
}

static const char *scope_name(uint64_t scope)
{
    return scope == SpvScopeWorkgroup ? "Workgroup" : scope == SpvScopeSubgroup ? "Subgroup" : "?";
}

/* ---- the module's entry points --------------------------------------------------- */

/* 1 when the entry point at `off` is the pipeline's (every entry point when
 * the description names none). */
static int entry_selected(const val_ctx *v, const spv_inst *ep)
{
    const char *name;
    if (!v->device->entry_point)
        return 1;
    return spv_inst_string(ep, 3, &name) && !strcmp(name, v->device->entry_point);
}

/* VkShaderStageFlagBits of an execution model, 0 for none. */
static uint32_t stage_of(uint32_t model)
{
    switch (model) {
    case SpvExecutionModelVertex:
        return 0x1;
    case SpvExecutionModelTessellationControl:
        return 0x2;
    case SpvExecutionModelTessellationEvaluation:
        return 0x4;
    case SpvExecutionModelGeometry:
        return 0x8;
    case SpvExecutionModelFragment:
        return 0x10;
    case SpvExecutionModelGLCompute:
        return 0x20;
    case SpvExecutionModelTaskNV:
    case SpvExecutionModelTaskEXT:
        return 0x40;
    case SpvExecutionModelMeshNV:
    case SpvExecutionModelMeshEXT:
        return 0x80;
    case SpvExecutionModelRayGenerationKHR:
        return 0x100;
    case SpvExecutionModelAnyHitKHR:
        return 0x200;
    case SpvExecutionModelClosestHitKHR:
        return 0x400;
    case SpvExecutionModelMissKHR:
        return 0x800;
    case SpvExecutionModelIntersectionKHR:
        return 0x1000;
    case SpvExecutionModelCallableKHR:
        return 0x2000;
    default:
        return 0;
    }
}

/* The instructions of one family, for the stage rules. */
enum { FAM_KHR, FAM_NV1, FAM_CV };

static int in_family(val_ctx *v, const spv_inst *in, int fam)
{
    switch (fam) {
    case FAM_KHR:
        return in->opcode == SpvOpCooperativeMatrixLoadKHR ||
               in->opcode == SpvOpCooperativeMatrixStoreKHR ||
               in->opcode == SpvOpCooperativeMatrixMulAddKHR ||
               in->opcode == SpvOpCooperativeMatrixLengthKHR ||
               val_touches_type(v, in, SpvOpTypeCooperativeMatrixKHR);
    case FAM_NV1:
        return in->opcode == SpvOpCooperativeMatrixLoadNV ||
               in->opcode == SpvOpCooperativeMatrixStoreNV ||
               in->opcode == SpvOpCooperativeMatrixMulAddNV ||
               in->opcode == SpvOpCooperativeMatrixLengthNV ||
               val_touches_type(v, in, SpvOpTypeCooperativeMatrixNV);
    default:
        return val_touches_type(v, in, SpvOpTypeCooperativeVectorNV);
    }
}

/* The first instruction of the family in each function (0: none): one
 * pass over the functions, shared by every entry point. */
static uint32_t *family_uses(val_ctx *v, int fam)
{
    uint32_t *first = cvm_calloc(v->nfuncs ? v->nfuncs : 1, sizeof(uint32_t));
    if (!first) {
        v->oom = 1;
        return NULL;
    }
    for (uint32_t g = 0; g < v->nfuncs; g++) {
        spv_inst in;
        for (uint32_t off = v->funcs[g].begin; off < v->funcs[g].end; off += in.word_count) {
            if (!val_inst_at(v, off, &in))
                break;
            if (in_family(v, &in, fam)) {
                first[g] = off;
                break;
            }
        }
    }
    return first;
}

/* The first use of the family in the functions entry point `fn` reaches,
 * or 0. */
static uint32_t family_use(val_ctx *v, uint32_t fn, const uint32_t *first, uint8_t *seen)
{
    uint32_t f = val_function_index(v, fn);
    if (f == VAL_NONE)
        return 0;
    val_call_closure(v, f, seen);
    for (uint32_t g = 0; g < v->nfuncs; g++)
        if (seen[g] && first[g])
            return first[g];
    return 0;
}

static int stages_rule(val_ctx *v, int fam, uint32_t supported, const char *what,
                       const char *limit)
{
    uint32_t *first = NULL;
    uint8_t *seen = NULL;
    int ok = 1;
    spv_inst ep;
    for (uint32_t i = 0; i < v->nentries && ok; i++) {
        if (!val_inst_at(v, v->entry_offs[i], &ep) || ep.word_count < 3 || !entry_selected(v, &ep))
            continue;
        uint32_t stage = stage_of(ep.words[1]);
        if (stage & supported)
            continue;
        if (!first) {
            first = family_uses(v, fam);
            seen = cvm_calloc(v->nfuncs ? v->nfuncs : 1, 1);
            if (!first || !seen) {
                v->oom = 1;
                break;
            }
        }
        uint32_t at = family_use(v, ep.words[2], first, seen);
        if (at) {
            char tmp[32];
            ok = val_fail_at(v, at, "%s used in a %s entry point (stage bit 0x%x), not in %s 0x%x",
                             what,
                             val_enum_name(SPV_OPERAND_ExecutionModel, ep.words[1], tmp,
                                           sizeof(tmp)),
                             stage, limit, supported);
        }
    }
    cvm_mem_free(first);
    cvm_mem_free(seen);
    return ok;
}

int dev_cm_stages(val_ctx *v, const spv_inst *in)
{
    (void)in;
    return stages_rule(v, FAM_KHR, v->device->cooperative_matrix_supported_stages,
                       "a cooperative matrix (KHR) is", "cooperativeMatrixSupportedStages");
}

int dev_nv_stages(val_ctx *v, const spv_inst *in)
{
    (void)in;
    return stages_rule(v, FAM_NV1, v->device->cooperative_matrix_nv_supported_stages,
                       "a cooperative matrix (NV) is",
                       "VkPhysicalDeviceCooperativeMatrixPropertiesNV::"
                       "cooperativeMatrixSupportedStages");
}

int dev_cv_stages(val_ctx *v, const spv_inst *in)
{
    (void)in;
    return stages_rule(v, FAM_CV, v->device->cooperative_vector_supported_stages,
                       "a cooperative vector is", "cooperativeVectorSupportedStages");
}

/* Invocations of the local workgroup of the pipeline's entry points, when
 * LocalSize (or LocalSizeId of constants) says; 0 when unknown or when the
 * selected entry points differ. */
static uint64_t local_invocations(const val_ctx *v)
{
    uint64_t found = 0;
    spv_inst ep, m;
    for (uint32_t i = 0; i < v->nentries; i++) {
        if (!val_inst_at(v, v->entry_offs[i], &ep) || ep.word_count < 3 || !entry_selected(v, &ep))
            continue;
        uint64_t n = 0;
        for (uint32_t k = 0; k < v->nmodes; k++) {
            if (!val_inst_at(v, v->mode_offs[k], &m) || m.word_count < 6 || m.words[1] != ep.words[2])
                continue;
            if (m.opcode == SpvOpExecutionMode && m.words[2] == SpvExecutionModeLocalSize) {
                n = (uint64_t)m.words[3] * m.words[4] * m.words[5];
            } else if (m.opcode == SpvOpExecutionModeId && m.words[2] == SpvExecutionModeLocalSizeId) {
                uint64_t x, y, z;
                if (val_const_value(v, m.words[3], &x) && val_const_value(v, m.words[4], &y) &&
                    val_const_value(v, m.words[5], &z) && x < (1u << 20) && y < (1u << 20) &&
                    z < (1u << 20))
                    n = x * y * z;
            }
        }
        if (!n || (found && found != n))
            return 0;
        found = n;
    }
    return found;
}

/* ---- cooperative matrix types against the lists -------------------------------------- */

/* A KHR matrix type with every operand a constant; 0 otherwise (the rule
 * is not checked). */
static int known_type(const val_ctx *v, uint32_t type, val_coopmat *m)
{
    return val_coopmat_type(v, type, m) && m->scope_known && m->rows_known && m->cols_known &&
           m->use_known && m->use <= 2;
}

static int khr_entry_has_type(const val_ctx *v, const cvm_coopmat_properties *p,
                              const val_coopmat *m)
{
    if (p->scope != m->scope)
        return 0;
    switch (m->use) {
    case 0:
        return m->rows == p->m_size && m->cols == p->k_size &&
               type_is(v, m->component, SIGN_TYPE, p->a_type);
    case 1:
        return m->rows == p->k_size && m->cols == p->n_size &&
               type_is(v, m->component, SIGN_TYPE, p->b_type);
    default:
        return m->rows == p->m_size && m->cols == p->n_size &&
               (type_is(v, m->component, SIGN_TYPE, p->c_type) ||
                type_is(v, m->component, SIGN_TYPE, p->result_type));
    }
}

static int khr_list_has_type(const val_ctx *v, const val_coopmat *m)
{
    const cvm_device_description *d = v->device;
    for (uint32_t i = 0; i < d->coopmat_property_count && d->coopmat_properties; i++)
        if (khr_entry_has_type(v, &d->coopmat_properties[i], m))
            return 1;
    return 0;
}

static int multiple(uint64_t x, uint32_t g, int exact)
{
    return g && (exact ? x == g : x % g == 0);
}

/* The workgroup-scope and subgroup-size conditions of a granularity entry. */
static int gran_invocations_ok(const val_ctx *v, const cvm_coopmat_granularity *g, uint64_t scope,
                               int props2)
{
    if (scope == SpvScopeWorkgroup && g->workgroup_invocations) {
        uint64_t n = local_invocations(v);
        if (n && n != g->workgroup_invocations)
            return 0;
    }
    if (props2 && g->subgroup_size && v->device->subgroup_size &&
        g->subgroup_size != v->device->subgroup_size)
        return 0;
    return 1;
}

static int gran_entry_has_type(const val_ctx *v, const cvm_coopmat_granularity *g,
                               const val_coopmat *m, int exact, int props2)
{
    if (g->scope != m->scope || !gran_invocations_ok(v, g, m->scope, props2))
        return 0;
    switch (m->use) {
    case 0:
        return multiple(m->rows, g->m_granularity, exact) &&
               multiple(m->cols, g->k_granularity, exact) &&
               type_is(v, m->component, SIGN_TYPE, g->a_type);
    case 1:
        return multiple(m->rows, g->k_granularity, exact) &&
               multiple(m->cols, g->n_granularity, exact) &&
               type_is(v, m->component, SIGN_TYPE, g->b_type);
    default:
        return multiple(m->rows, g->m_granularity, exact) &&
               multiple(m->cols, g->n_granularity, exact) &&
               (type_is(v, m->component, SIGN_TYPE, g->c_type) ||
                type_is(v, m->component, SIGN_TYPE, g->result_type));
    }
}

static int type_fail(val_ctx *v, const val_coopmat *m, const char *lists)
{
    char tmp[32];
    return val_fail(v, "no %s of the device has a %llux%llu %s %s at %s scope", lists,
                    (unsigned long long)m->rows, (unsigned long long)m->cols,
                    type_name(v, m->component, tmp, sizeof(tmp)), val_use_name(m->use),
                    scope_name(m->scope));
}

int dev_cm_type(val_ctx *v, const spv_inst *in)
{
    val_coopmat m;
    const cvm_device_description *d = v->device;
    if (d->cooperative_matrix_flexible_dimensions || d->cooperative_matrix_properties2 ||
        !known_type(v, in->words[1], &m) || khr_list_has_type(v, &m))
        return 1;
    return type_fail(v, &m, "VkCooperativeMatrixPropertiesKHR");
}

int dev_cm_type_flexible(val_ctx *v, const spv_inst *in)
{
    val_coopmat m;
    const cvm_device_description *d = v->device;
    if (!d->cooperative_matrix_flexible_dimensions || !known_type(v, in->words[1], &m) ||
        khr_list_has_type(v, &m))
        return 1;
    for (uint32_t i = 0; i < d->flexible_property_count && d->flexible_properties; i++)
        if (gran_entry_has_type(v, &d->flexible_properties[i], &m, 0, 0))
            return 1;
    return type_fail(v, &m,
                     "VkCooperativeMatrixPropertiesKHR or "
                     "VkCooperativeMatrixFlexibleDimensionsPropertiesNV");
}

int dev_cm_type_props2(val_ctx *v, const spv_inst *in)
{
    val_coopmat m;
    const cvm_device_description *d = v->device;
    if (!d->cooperative_matrix_properties2 || !known_type(v, in->words[1], &m) ||
        khr_list_has_type(v, &m))
        return 1;
    int exact = !d->cooperative_matrix_flexible_dimensions;
    for (uint32_t i = 0; i < d->properties2_count && d->properties2; i++)
        if (gran_entry_has_type(v, &d->properties2[i], &m, exact, 1))
            return 1;
    return type_fail(v, &m,
                     exact ? "VkCooperativeMatrixPropertiesKHR or "
                             "VkCooperativeMatrixProperties2EXT (dimensions equal to the "
                             "granularities: cooperativeMatrixFlexibleDimensions is not enabled)"
                           : "VkCooperativeMatrixPropertiesKHR or "
                             "VkCooperativeMatrixProperties2EXT");
}

int dev_cm_workgroup_scope(val_ctx *v, const spv_inst *in)
{
    val_coopmat m;
    if (!v->device->cooperative_matrix_workgroup_scope && val_coopmat_type(v, in->words[1], &m) &&
        m.scope_known && m.scope == SpvScopeWorkgroup)
        return val_fail(v, "Workgroup scope without the cooperativeMatrixWorkgroupScope feature");
    return 1;
}

int dev_cm_max_dimension(val_ctx *v, const spv_inst *in)
{
    val_coopmat m;
    uint32_t max = v->device->cooperative_matrix_flexible_dimensions_max_dimension;
    if (!max || !val_coopmat_type(v, in->words[1], &m))
        return 1;
    if ((m.rows_known && m.rows > max) || (m.cols_known && m.cols > max))
        return val_fail(v, "%llu rows and %llu columns: more than "
                           "cooperativeMatrixFlexibleDimensionsMaxDimension %u",
                        (unsigned long long)m.rows, (unsigned long long)m.cols, max);
    return 1;
}

/* ---- OpCooperativeMatrixMulAddKHR -------------------------------------------------------- */

typedef struct muladd {
    val_coopmat a, b, c, r;
    uint32_t ops; /* Cooperative Matrix Operands */
} muladd;

static int muladd_of(const val_ctx *v, const spv_inst *in, muladd *o)
{
    o->ops = in->word_count > 6 ? in->words[6] : 0;
    return known_type(v, in->words[1], &o->r) && known_type(v, val_type_of(v, in->words[3]), &o->a) &&
           known_type(v, val_type_of(v, in->words[4]), &o->b) &&
           known_type(v, val_type_of(v, in->words[5]), &o->c) && o->a.use == 0 && o->b.use == 1 &&
           o->c.use == 2 && o->r.use == 2;
}

static int sign_of(uint32_t ops, uint32_t bit)
{
    return ops & bit ? SIGN_SIGNED : SIGN_UNSIGNED;
}

/* The types and flags of an entry, sizes (exact) or granularities. */
static int muladd_matches(const val_ctx *v, const muladd *x, uint32_t m, uint32_t n, uint32_t k,
                          int exact, uint32_t at, uint32_t bt, uint32_t ct, uint32_t rt,
                          uint32_t saturating, uint32_t scope)
{
    int sat = (x->ops & SpvCooperativeMatrixOperandsSaturatingAccumulationKHRMask) != 0;
    return multiple(x->a.rows, m, exact) && multiple(x->a.cols, k, exact) &&
           multiple(x->b.rows, k, exact) && multiple(x->b.cols, n, exact) &&
           multiple(x->c.rows, m, exact) && multiple(x->c.cols, n, exact) &&
           multiple(x->r.rows, m, exact) && multiple(x->r.cols, n, exact) &&
           type_is(v, x->a.component,
                   sign_of(x->ops, SpvCooperativeMatrixOperandsMatrixASignedComponentsKHRMask), at) &&
           type_is(v, x->b.component,
                   sign_of(x->ops, SpvCooperativeMatrixOperandsMatrixBSignedComponentsKHRMask), bt) &&
           type_is(v, x->c.component,
                   sign_of(x->ops, SpvCooperativeMatrixOperandsMatrixCSignedComponentsKHRMask), ct) &&
           type_is(v, x->r.component,
                   sign_of(x->ops, SpvCooperativeMatrixOperandsMatrixResultSignedComponentsKHRMask),
                   rt) &&
           (saturating ? 1 : 0) == sat && x->a.scope == scope && x->b.scope == scope &&
           x->c.scope == scope && x->r.scope == scope;
}

static int khr_list_has_muladd(const val_ctx *v, const muladd *x)
{
    const cvm_device_description *d = v->device;
    for (uint32_t i = 0; i < d->coopmat_property_count && d->coopmat_properties; i++) {
        const cvm_coopmat_properties *p = &d->coopmat_properties[i];
        if (muladd_matches(v, x, p->m_size, p->n_size, p->k_size, 1, p->a_type, p->b_type,
                           p->c_type, p->result_type, p->saturating_accumulation, p->scope))
            return 1;
    }
    return 0;
}

static int muladd_fail(val_ctx *v, const muladd *x, const char *lists)
{
    char ta[32], tb[32], tc[32], tr[32];
    return val_fail(v,
                    "no %s of the device matches A %llux%llu %s, B %llux%llu %s, C %llux%llu %s, "
                    "Result %s, operands 0x%x, %s scope",
                    lists, (unsigned long long)x->a.rows, (unsigned long long)x->a.cols,
                    type_name(v, x->a.component, ta, sizeof(ta)), (unsigned long long)x->b.rows,
                    (unsigned long long)x->b.cols, type_name(v, x->b.component, tb, sizeof(tb)),
                    (unsigned long long)x->c.rows, (unsigned long long)x->c.cols,
                    type_name(v, x->c.component, tc, sizeof(tc)),
                    type_name(v, x->r.component, tr, sizeof(tr)), x->ops, scope_name(x->a.scope));
}

int dev_cm_muladd(val_ctx *v, const spv_inst *in)
{
    muladd x;
    const cvm_device_description *d = v->device;
    if (d->cooperative_matrix_flexible_dimensions || d->cooperative_matrix_properties2 ||
        !muladd_of(v, in, &x) || khr_list_has_muladd(v, &x))
        return 1;
    return muladd_fail(v, &x, "VkCooperativeMatrixPropertiesKHR");
}

static int gran_list_has_muladd(const val_ctx *v, const muladd *x,
                                const cvm_coopmat_granularity *list, uint32_t n, int exact,
                                int props2)
{
    for (uint32_t i = 0; i < n && list; i++) {
        const cvm_coopmat_granularity *g = &list[i];
        if (gran_invocations_ok(v, g, g->scope, props2) &&
            muladd_matches(v, x, g->m_granularity, g->n_granularity, g->k_granularity, exact,
                           g->a_type, g->b_type, g->c_type, g->result_type,
                           g->saturating_accumulation, g->scope))
            return 1;
    }
    return 0;
}

int dev_cm_muladd_flexible(val_ctx *v, const spv_inst *in)
{
    muladd x;
    const cvm_device_description *d = v->device;
    if (!d->cooperative_matrix_flexible_dimensions || !muladd_of(v, in, &x) ||
        khr_list_has_muladd(v, &x) ||
        gran_list_has_muladd(v, &x, d->flexible_properties, d->flexible_property_count, 0, 0))
        return 1;
    return muladd_fail(v, &x,
                       "VkCooperativeMatrixPropertiesKHR or "
                       "VkCooperativeMatrixFlexibleDimensionsPropertiesNV");
}

int dev_cm_muladd_props2(val_ctx *v, const spv_inst *in)
{
    muladd x;
    const cvm_device_description *d = v->device;
    int exact = !d->cooperative_matrix_flexible_dimensions;
    if (!d->cooperative_matrix_properties2 || !muladd_of(v, in, &x) ||
        khr_list_has_muladd(v, &x) ||
        gran_list_has_muladd(v, &x, d->properties2, d->properties2_count, exact, 1))
        return 1;
    return muladd_fail(v, &x, "VkCooperativeMatrixPropertiesKHR or VkCooperativeMatrixProperties2EXT");
}

/* ---- workgroup memory (VUID 10168) ------------------------------------------------------ */

/* Size and alignment in bytes of a type in Workgroup memory: scalars and
 * vectors at their natural alignment (a 3-component vector aligned as 4),
 * arrays of constant length, structs member after member.  0 when the size
 * is not known. */
static uint64_t type_size(const val_ctx *v, uint32_t t, uint64_t *o_align, int depth)
{
    uint32_t w, comp, n, elem, len_id;
    spv_inst in;
    *o_align = 1;
    if (depth > 16)
        return 0;
    if (val_int_type(v, t, &w, NULL) || val_float_type(v, t, &w, NULL)) {
        *o_align = w / 8 ? w / 8 : 1;
        return w / 8 ? w / 8 : 1;
    }
    if (val_is_bool(v, t)) {
        *o_align = 4;
        return 4;
    }
    if (val_vector_type(v, t, &comp, &n)) {
        uint64_t a, s = type_size(v, comp, &a, depth + 1);
        if (!s || n > 1024)
            return 0;
        *o_align = s * (n == 3 ? 4 : n);
        return s * n;
    }
    if (val_array_type(v, t, &elem, &len_id) && len_id) {
        uint64_t a, len, s = type_size(v, elem, &a, depth + 1);
        if (!s || !val_const_default(v, len_id, &len) || len > (1u << 30))
            return 0;
        *o_align = a;
        return ((s + a - 1) / a * a) * len;
    }
    if (val_opcode(v, t) == SpvOpTypeMatrix && val_def(v, t, &in) && in.word_count >= 4) {
        uint64_t a, s = type_size(v, in.words[2], &a, depth + 1);
        *o_align = a;
        return s ? ((s + a - 1) / a * a) * in.words[3] : 0;
    }
    if (val_opcode(v, t) == SpvOpTypeStruct && val_def(v, t, &in)) {
        uint64_t off = 0, maxa = 1;
        for (uint32_t i = 2; i < in.word_count; i++) {
            uint64_t a, s = type_size(v, in.words[i], &a, depth + 1);
            if (!s)
                return 0;
            off = (off + a - 1) / a * a + s;
            maxa = a > maxa ? a : maxa;
        }
        *o_align = maxa;
        return (off + maxa - 1) / maxa * maxa;
    }
    return 0;
}

static int has_workgroup_matrix(const val_ctx *v)
{
    for (uint32_t id = 1; id < v->bound; id++) {
        val_coopmat m;
        if (v->ids[id].opcode == SpvOpTypeCooperativeMatrixKHR && val_coopmat_type(v, id, &m) &&
            m.scope_known && m.scope == SpvScopeWorkgroup)
            return 1;
    }
    return 0;
}

/* Bytes of the Workgroup variables an entry point uses: its interface (SPIR-V
 * 1.4 on lists every global it uses), or every Workgroup variable of the
 * module before 1.4.  0 when a size is unknown. */
static uint64_t workgroup_bytes(const val_ctx *v, const spv_inst *ep, int *o_known)
{
    uint64_t total = 0;
    *o_known = 1;
    const char *name;
    uint32_t first = 3;
    if (spv_inst_string(ep, 3, &name))
        first = 3 + (uint32_t)(strlen(name) / 4 + 1);
    int from_interface = val_version_at_least(v, 1, 4);
    for (uint32_t id = 1; id < v->bound; id++) {
        spv_inst var;
        if (v->ids[id].opcode != SpvOpVariable || v->ids[id].func != VAL_NONE ||
            !val_def(v, id, &var) || var.word_count < 4 || var.words[3] != SpvStorageClassWorkgroup)
            continue;
        if (from_interface) {
            int listed = 0;
            for (uint32_t k = first; k < ep->word_count; k++)
                listed |= ep->words[k] == id;
            if (!listed)
                continue;
        }
        uint32_t pointee, sc;
        uint64_t a, s;
        if (!val_pointer_type(v, var.words[1], &sc, &pointee) || !pointee ||
            !(s = type_size(v, pointee, &a, 0))) {
            *o_known = 0;
            return 0;
        }
        total = (total + a - 1) / a * a + s;
    }
    return total;
}

int dev_cm_shared_memory(val_ctx *v, const spv_inst *in)
{
    (void)in;
    const cvm_device_description *d = v->device;
    if (!d->max_compute_shared_memory_size || !has_workgroup_matrix(v))
        return 1;
    uint64_t limit = d->max_compute_shared_memory_size >
                             d->cooperative_matrix_workgroup_scope_reserved_shared_memory
                         ? (uint64_t)d->max_compute_shared_memory_size -
                               d->cooperative_matrix_workgroup_scope_reserved_shared_memory
                         : 0;
    spv_inst ep;
    for (uint32_t i = 0; i < v->nentries; i++) {
        int known;
        if (!val_inst_at(v, v->entry_offs[i], &ep) || ep.word_count < 4 ||
            ep.words[1] != SpvExecutionModelGLCompute || !entry_selected(v, &ep))
            continue;
        uint64_t bytes = workgroup_bytes(v, &ep, &known);
        if (known && bytes > limit)
            return val_fail_at(v, ep.offset,
                               "with a Workgroup-scope matrix, %llu bytes of Workgroup variables: "
                               "more than maxComputeSharedMemorySize %u minus "
                               "cooperativeMatrixWorkgroupScopeReservedSharedMemory %u",
                               (unsigned long long)bytes, d->max_compute_shared_memory_size,
                               d->cooperative_matrix_workgroup_scope_reserved_shared_memory);
    }
    return 1;
}

/* ---- pipeline flags ------------------------------------------------------------------------ */

static int full_subgroups_rule(val_ctx *v, int shader_object)
{
    const cvm_device_description *d = v->device;
    if ((d->shader_object ? 1 : 0) != shader_object || d->require_full_subgroups ||
        val_version_at_least(v, 1, 6))
        return 1;
    for (uint32_t id = 1; id < v->bound; id++)
        if (v->ids[id].opcode == SpvOpTypeCooperativeMatrixKHR)
            return val_fail_at(v, v->ids[id].off,
                               "a SPIR-V %u.%u module with cooperative matrices in a %s created "
                               "without %s",
                               (v->version >> 16) & 0xff, (v->version >> 8) & 0xff,
                               shader_object ? "shader object" : "pipeline",
                               shader_object ? "VK_SHADER_CREATE_REQUIRE_FULL_SUBGROUPS_BIT_EXT"
                                             : "VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_"
                                               "SUBGROUPS_BIT");
    return 1;
}

int dev_cm_full_subgroups(val_ctx *v, const spv_inst *in)
{
    (void)in;
    return full_subgroups_rule(v, 0);
}

int dev_cm_full_subgroups_object(val_ctx *v, const spv_inst *in)
{
    (void)in;
    return full_subgroups_rule(v, 1);
}

/* 1 when 64-bit offsets are allowed: the pipeline flag, or
 * Shader64BitIndexingEXT on a selected entry point. */
static int indexing_64bit(const val_ctx *v)
{
    if (v->device->indexing_64bit)
        return 1;
    spv_inst ep, m;
    for (uint32_t i = 0; i < v->nentries; i++) {
        if (!val_inst_at(v, v->entry_offs[i], &ep) || ep.word_count < 3 || !entry_selected(v, &ep))
            continue;
        for (uint32_t k = 0; k < v->nmodes; k++)
            if (val_inst_at(v, v->mode_offs[k], &m) && m.word_count >= 3 &&
                m.words[1] == ep.words[2] && m.words[2] == SpvExecutionModeShader64BitIndexingEXT)
                return 1;
    }
    return 0;
}

static int offset_32(val_ctx *v, uint32_t id, const char *what)
{
    if (!id || val_is_int_scalar(v, val_type_of(v, id), 32) || !val_is_int_scalar(v, val_type_of(v, id), 64) ||
        indexing_64bit(v))
        return 1;
    return val_fail(v, "%s is a 64-bit integer without VK_PIPELINE_CREATE_2_64_BIT_INDEXING_BIT_EXT "
                       "(VK_SHADER_CREATE_64_BIT_INDEXING_BIT_EXT) or Shader64BitIndexingEXT",
                    what);
}

int dev_cv_matmul_offsets_32(val_ctx *v, const spv_inst *in)
{
    if (in->opcode != SpvOpCooperativeVectorMatrixMulNV &&
        in->opcode != SpvOpCooperativeVectorMatrixMulAddNV)
        return 1;
    if (!offset_32(v, in->words[val_cv_mm_word(in, 0)], "MatrixOffset"))
        return 0;
    if (in->opcode == SpvOpCooperativeVectorMatrixMulAddNV)
        return offset_32(v, in->words[val_cv_mm_word(in, 1)], "BiasOffset");
    return 1;
}

int dev_cv_offsets_32(val_ctx *v, const spv_inst *in)
{
    switch (in->opcode) {
    case SpvOpCooperativeVectorLoadNV:
        return offset_32(v, in->words[4], "Offset");
    case SpvOpCooperativeVectorStoreNV:
    case SpvOpCooperativeVectorOuterProductAccumulateNV:
    case SpvOpCooperativeVectorReduceSumAccumulateNV:
        return offset_32(v, in->words[2], "Offset");
    default:
        return 1;
    }
}

/* ---- cooperative vectors ------------------------------------------------------------------- */

int dev_cv_max_components(val_ctx *v, const spv_inst *in)
{
    uint64_t n;
    int known;
    uint32_t max = v->device->max_cooperative_vector_components;
    if (max && val_coopvec_type(v, in->words[1], NULL, NULL, &n, &known) && known && n > max)
        return val_fail(v, "Component Count %llu is more than maxCooperativeVectorComponents %u",
                        (unsigned long long)n, max);
    return 1;
}

int dev_cv_component_type(val_ctx *v, const spv_inst *in)
{
    const cvm_device_description *d = v->device;
    uint32_t comp = in->words[2];
    for (uint32_t i = 0; i < d->coopvec_property_count && d->coopvec_properties; i++) {
        const cvm_coopvec_properties *p = &d->coopvec_properties[i];
        if (type_is(v, comp, SIGN_TYPE, p->input_type) ||
            type_is(v, comp, SIGN_TYPE, p->input_interpretation) ||
            type_is(v, comp, SIGN_TYPE, p->matrix_interpretation) ||
            type_is(v, comp, SIGN_TYPE, p->bias_interpretation) ||
            type_is(v, comp, SIGN_TYPE, p->result_type))
            return 1;
    }
    char tmp[32];
    return val_fail(v, "Component Type %s is no type vkGetPhysicalDeviceCooperativeVectorPropertiesNV "
                       "reports",
                    type_name(v, comp, tmp, sizeof(tmp)));
}

/* Signedness of an integer Input or Result: signed when the instruction's
 * Matrix{B,Result}SignedComponentsKHR operand says so (cvm_coopvec_properties)
 * or the OpTypeInt is signed. */
static int cv_sign(const val_ctx *v, uint32_t t, uint32_t ops, uint32_t bit)
{
    uint32_t w, s;
    if (val_int_type(v, t, &w, &s))
        return (ops & bit) || s ? SIGN_SIGNED : SIGN_UNSIGNED;
    return SIGN_UNSIGNED;
}

int dev_cv_matmul(val_ctx *v, const spv_inst *in)
{
    if (in->opcode != SpvOpCooperativeVectorMatrixMulNV &&
        in->opcode != SpvOpCooperativeVectorMatrixMulAddNV)
        return 1;
    int add = in->opcode == SpvOpCooperativeVectorMatrixMulAddNV;
    uint32_t next = add ? 11 : 8; /* M, K, MemoryLayout, Transpose, MatrixStride?, operands? */
    uint64_t in_interp, m_interp, b_interp = 0, transpose;
    if (next + 3 >= in->word_count || !val_const_value(v, in->words[4], &in_interp) ||
        !val_const_value(v, in->words[val_cv_mm_word(in, 2)], &m_interp) ||
        (add && !val_const_value(v, in->words[10], &b_interp)) ||
        !val_const_value(v, in->words[next + 3], &transpose))
        return 1;
    /* The optional MatrixStride and Cooperative Matrix Operands: the
     * operands mask is the word after MatrixStride. */
    uint32_t ops = next + 5 < in->word_count ? in->words[next + 5] : 0;
    uint32_t it = val_component_type(v, val_type_of(v, in->words[3]));
    uint32_t rt = val_component_type(v, in->words[1]);
    int isign = cv_sign(v, it, ops, SpvCooperativeMatrixOperandsMatrixBSignedComponentsKHRMask);
    int rsign = cv_sign(v, rt, ops, SpvCooperativeMatrixOperandsMatrixResultSignedComponentsKHRMask);
    const cvm_device_description *d = v->device;
    for (uint32_t i = 0; i < d->coopvec_property_count && d->coopvec_properties; i++) {
        const cvm_coopvec_properties *p = &d->coopvec_properties[i];
        if (type_is(v, it, isign, p->input_type) && p->input_interpretation == in_interp &&
            p->matrix_interpretation == m_interp && (!add || p->bias_interpretation == b_interp) &&
            type_is(v, rt, rsign, p->result_type) && (!transpose || p->transpose))
            return 1;
    }
    char ti[32], tr[32], bias[48] = "";
    if (add)
        snprintf(bias, sizeof(bias), ", BiasInterpretation %llu", (unsigned long long)b_interp);
    return val_fail(v,
                    "no VkCooperativeVectorPropertiesNV of the device has input %s, "
                    "InputInterpretation %llu, MatrixInterpretation %llu%s, result %s%s",
                    type_name(v, it, ti, sizeof(ti)), (unsigned long long)in_interp,
                    (unsigned long long)m_interp, bias, type_name(v, rt, tr, sizeof(tr)),
                    transpose ? ", transpose" : "");
}

/* ---- SPV_NV_cooperative_matrix (version 1) --------------------------------------------------- */

typedef struct nv_mat {
    uint32_t component;
    uint64_t scope, rows, cols;
} nv_mat;

static int nv_type(const val_ctx *v, uint32_t t, nv_mat *o)
{
    spv_inst in;
    if (val_opcode(v, t) != SpvOpTypeCooperativeMatrixNV || !val_def(v, t, &in) ||
        in.word_count < 6)
        return 0;
    o->component = in.words[2];
    return val_const_value(v, in.words[3], &o->scope) && val_const_value(v, in.words[4], &o->rows) &&
           val_const_value(v, in.words[5], &o->cols);
}

int dev_nv_type(val_ctx *v, const spv_inst *in)
{
    nv_mat m;
    if (!nv_type(v, in->words[1], &m))
        return 1;
    const cvm_device_description *d = v->device;
    for (uint32_t i = 0; i < d->coopmat_nv_property_count && d->coopmat_nv_properties; i++) {
        const cvm_coopmat_properties *p = &d->coopmat_nv_properties[i];
        if (p->scope != m.scope)
            continue;
        if ((m.rows == p->m_size && m.cols == p->k_size && type_is(v, m.component, SIGN_TYPE, p->a_type)) ||
            (m.rows == p->k_size && m.cols == p->n_size && type_is(v, m.component, SIGN_TYPE, p->b_type)) ||
            (m.rows == p->m_size && m.cols == p->n_size &&
             (type_is(v, m.component, SIGN_TYPE, p->c_type) ||
              type_is(v, m.component, SIGN_TYPE, p->result_type))))
            return 1;
    }
    char tmp[32];
    return val_fail(v, "no VkCooperativeMatrixPropertiesNV of the device has a %llux%llu %s matrix "
                       "at %s scope",
                    (unsigned long long)m.rows, (unsigned long long)m.cols,
                    type_name(v, m.component, tmp, sizeof(tmp)), scope_name(m.scope));
}

int dev_nv_muladd(val_ctx *v, const spv_inst *in)
{
    nv_mat a, b, c, r;
    if (!nv_type(v, in->words[1], &r) || !nv_type(v, val_type_of(v, in->words[3]), &a) ||
        !nv_type(v, val_type_of(v, in->words[4]), &b) || !nv_type(v, val_type_of(v, in->words[5]), &c))
        return 1;
    const cvm_device_description *d = v->device;
    for (uint32_t i = 0; i < d->coopmat_nv_property_count && d->coopmat_nv_properties; i++) {
        const cvm_coopmat_properties *p = &d->coopmat_nv_properties[i];
        if (a.rows == p->m_size && a.cols == p->k_size && b.rows == p->k_size &&
            b.cols == p->n_size && c.rows == p->m_size && c.cols == p->n_size &&
            r.rows == p->m_size && r.cols == p->n_size &&
            type_is(v, a.component, SIGN_STRICT, p->a_type) &&
            type_is(v, b.component, SIGN_STRICT, p->b_type) &&
            type_is(v, c.component, SIGN_STRICT, p->c_type) &&
            type_is(v, r.component, SIGN_STRICT, p->result_type) && a.scope == SpvScopeSubgroup &&
            b.scope == SpvScopeSubgroup && c.scope == SpvScopeSubgroup && r.scope == SpvScopeSubgroup)
            return 1;
    }
    char ta[32], tb[32], tc[32], tr[32];
    return val_fail(v,
                    "no VkCooperativeMatrixPropertiesNV of the device matches A %llux%llu %s, B "
                    "%llux%llu %s, C %llux%llu %s, Result %s at %s scope",
                    (unsigned long long)a.rows, (unsigned long long)a.cols,
                    type_name(v, a.component, ta, sizeof(ta)), (unsigned long long)b.rows,
                    (unsigned long long)b.cols, type_name(v, b.component, tb, sizeof(tb)),
                    (unsigned long long)c.rows, (unsigned long long)c.cols,
                    type_name(v, c.component, tc, sizeof(tc)), type_name(v, r.component, tr, sizeof(tr)),
                    scope_name(a.scope));
}

/* ---- SPV_QCOM_cooperative_matrix_conversion ---------------------------------------------------- */

/* 1 when some KHR entry has `x` as its M (which 0), N (1) or K (2) size. */
static int khr_size(const val_ctx *v, uint64_t x, int which)
{
    const cvm_device_description *d = v->device;
    for (uint32_t i = 0; i < d->coopmat_property_count && d->coopmat_properties; i++) {
        const cvm_coopmat_properties *p = &d->coopmat_properties[i];
        uint32_t s = which == 0 ? p->m_size : which == 1 ? p->n_size : p->k_size;
        if (s == x)
            return 1;
    }
    return 0;
}

static int array_length(const val_ctx *v, uint32_t t, uint64_t *o_len)
{
    uint32_t elem, len_id;
    return val_opcode(v, t) == SpvOpTypeArray && val_array_type(v, t, &elem, &len_id) &&
           val_const_value(v, len_id, o_len);
}

int dev_qcom_nsize(val_ctx *v, const spv_inst *in)
{
    uint64_t n;
    if (!array_length(v, val_type_of(v, in->words[3]), &n) || khr_size(v, n, 1))
        return 1;
    return val_fail(v, "Source Array's length %llu is no NSize of the device's "
                       "VkCooperativeMatrixPropertiesKHR",
                    (unsigned long long)n);
}

int dev_qcom_ksize(val_ctx *v, const spv_inst *in)
{
    uint64_t n;
    if (!array_length(v, in->words[1], &n) || khr_size(v, n, 2))
        return 1;
    return val_fail(v, "the Result Type's length %llu is no KSize of the device's "
                       "VkCooperativeMatrixPropertiesKHR",
                    (unsigned long long)n);
}

/* 1 when `x` is a supported M (which 0), N (1) or K (2) of the device for
 * the QCOM text's "supported cooperative matrix ... sizes", which names no
 * list: a size of the KHR list, or, with cooperativeMatrixFlexibleDimensions
 * (cooperativeMatrixProperties2) enabled, a multiple of a Subgroup-scope
 * granularity of the flexible-dimensions (Properties2EXT) list (equal to
 * it when flexible dimensions are not enabled), up to the maximum
 * dimension. */
static int supported_size(const val_ctx *v, uint64_t x, int which)
{
    const cvm_device_description *d = v->device;
    if (khr_size(v, x, which))
        return 1;
    uint32_t max = d->cooperative_matrix_flexible_dimensions_max_dimension;
    if (!x || (max && x > max))
        return 0;
    for (int list = 0; list < 2; list++) {
        const cvm_coopmat_granularity *g = list ? d->properties2 : d->flexible_properties;
        uint32_t n = list ? d->properties2_count : d->flexible_property_count;
        int on = list ? d->cooperative_matrix_properties2 : d->cooperative_matrix_flexible_dimensions;
        int exact = list && !d->cooperative_matrix_flexible_dimensions;
        for (uint32_t i = 0; on && g && i < n; i++) {
            uint32_t gr = which == 0   ? g[i].m_granularity
                          : which == 1 ? g[i].n_granularity
                                       : g[i].k_granularity;
            if (g[i].scope == SpvScopeSubgroup && multiple(x, gr, exact))
                return 1;
        }
    }
    return 0;
}

/* "its Rows must be one of the supported cooperative matrix row sizes that
 * are less than or equal to SubgroupSize" (and Columns for MatrixB, both
 * for accumulators), and "SubgroupSize must be a power of 2": rows are the
 * MSize, columns the NSize of the device's KHR list. */
int dev_qcom_subgroup_size(val_ctx *v, const spv_inst *in)
{
    uint32_t t;
    if (in->opcode == SpvOpCompositeConstructCoopMatQCOM)
        t = in->words[1];
    else if (in->opcode == SpvOpCompositeExtractCoopMatQCOM)
        t = val_type_of(v, in->words[3]);
    else
        return 1;
    val_coopmat m;
    if (!known_type(v, t, &m))
        return 1;
    uint32_t sg = v->device->subgroup_size;
    if (sg && (sg & (sg - 1)))
        return val_fail(v, "the subgroup size %u is not a power of 2", sg);
    int rows = m.use != 1, cols = m.use != 0;
    if (rows && (!supported_size(v, m.rows, 0) || (sg && m.rows > sg)))
        return val_fail(v, "%llu rows: not a supported row size (an MSize of the device) at most "
                           "the subgroup size %u",
                        (unsigned long long)m.rows, sg);
    if (cols && (!supported_size(v, m.cols, 1) || (sg && m.cols > sg)))
        return val_fail(v, "%llu columns: not a supported column size (an NSize of the device) "
                           "at most the subgroup size %u",
                        (unsigned long long)m.cols, sg);
    return 1;
}

/* "If the result is to be used as inputs to any subsequent cooperative
 * matrix operations, Start Index must be a multiple of one of the lengths
 * supported for ... (i.e., input channel K)": checked for a constant Start
 * Index whose result is an operand of OpCompositeConstructCoopMatQCOM. */
int dev_qcom_subarray_k(val_ctx *v, const spv_inst *in)
{
    uint64_t start;
    if (!val_const_value(v, in->words[4], &start))
        return 1;
    if (!v->qcom_sources) {
        /* One pass over the module, the first time: which ids are built
         * into matrices. */
        v->qcom_sources = cvm_calloc(v->bound ? v->bound : 1, 1);
        if (!v->qcom_sources) {
            v->oom = 1;
            return 1;
        }
        spv_inst u;
        for (uint32_t off = SPV_HEADER_WORDS; off < v->nwords; off += u.word_count) {
            if (!val_inst_at(v, off, &u))
                break;
            if (u.opcode == SpvOpCompositeConstructCoopMatQCOM && u.word_count > 3 &&
                u.words[3] < v->bound)
                v->qcom_sources[u.words[3]] = 1;
        }
    }
    if (in->words[2] >= v->bound || !v->qcom_sources[in->words[2]])
        return 1;
    const cvm_device_description *d = v->device;
    for (uint32_t i = 0; i < d->coopmat_property_count && d->coopmat_properties; i++) {
        uint32_t k = d->coopmat_properties[i].k_size;
        if (k && (int64_t)start % (int64_t)k == 0)
            return 1;
    }
    /* With flexible dimensions (Properties2EXT), a supported K is any
     * multiple of a K granularity (the granularity itself without flexible
     * dimensions): Start Index is a multiple of one when it is a multiple
     * of the granularity. */
    for (int list = 0; list < 2; list++) {
        const cvm_coopmat_granularity *g = list ? d->properties2 : d->flexible_properties;
        uint32_t n = list ? d->properties2_count : d->flexible_property_count;
        int on = list ? d->cooperative_matrix_properties2 : d->cooperative_matrix_flexible_dimensions;
        for (uint32_t i = 0; on && g && i < n; i++)
            if (g[i].scope == SpvScopeSubgroup && g[i].k_granularity &&
                (int64_t)start % (int64_t)g[i].k_granularity == 0)
                return 1;
    }
    return val_fail(v, "Start Index %lld of an array a cooperative matrix is built from is a "
                       "multiple of no KSize of the device",
                    (long long)(int64_t)start);
}
