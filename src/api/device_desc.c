/* coopvm's own device description (cvm_get_device_description): the
 * cooperative-matrix and cooperative-vector lists its Vulkan driver reports,
 * built here once so that the driver (src/vulkan/icd_instance.c) and the
 * validator's device rules read one table. */
#include <pthread.h>
#include <string.h>

#include "cvm_common.h"
#include "cvm_config.h"
#include "exec/kernels/coopvec_kernels.h"

/* The cooperative-matrix combinations the KHR, NV, flexible-dimension and
 * Properties2EXT queries list.  coopvm takes any AType, BType, CType and
 * ResultType of its component types, saturating accumulation for integer
 * CType and ResultType, at any M, N, K (granularity 1, up to
 * CVM_MAX_MATRIX_DIM); a finite list must name some of them, so it names
 * those a program (or the CTS, which asks for A = B and C = Result) looks
 * for: every input type with every result type, each integer pair also
 * saturating, and the two 8-bit mixed-signedness products. */
typedef struct dd_combo {
    uint32_t a, b, c;
    uint32_t saturating;
} dd_combo;

static const uint32_t combo_types[] = {
    CVM_COMPONENT_TYPE_FLOAT16,    CVM_COMPONENT_TYPE_FLOAT32,    CVM_COMPONENT_TYPE_FLOAT64,
    CVM_COMPONENT_TYPE_BFLOAT16,   CVM_COMPONENT_TYPE_FLOAT_E4M3, CVM_COMPONENT_TYPE_FLOAT_E5M2,
    CVM_COMPONENT_TYPE_SINT8,      CVM_COMPONENT_TYPE_SINT16,     CVM_COMPONENT_TYPE_SINT32,
    CVM_COMPONENT_TYPE_SINT64,     CVM_COMPONENT_TYPE_UINT8,      CVM_COMPONENT_TYPE_UINT16,
    CVM_COMPONENT_TYPE_UINT32,     CVM_COMPONENT_TYPE_UINT64,
};
#define NTYPES CVM_ARRAY_SIZE(combo_types)
#define NINTEGER 8 /* the last NINTEGER of combo_types */
#define NCOMBOS (NTYPES * NTYPES + NINTEGER * NINTEGER + 2)

/* Combination k < NCOMBOS: first every (in, in, out) pair, then the
 * saturating integer pairs, then s8 x u8 and u8 x s8 into s32. */
static dd_combo combo_at(size_t k)
{
    dd_combo c;
    if (k < NTYPES * NTYPES) {
        c.a = c.b = combo_types[k / NTYPES];
        c.c = combo_types[k % NTYPES];
        c.saturating = 0;
    } else if (k < NTYPES * NTYPES + NINTEGER * NINTEGER) {
        k -= NTYPES * NTYPES;
        c.a = c.b = combo_types[NTYPES - NINTEGER + k / NINTEGER];
        c.c = combo_types[NTYPES - NINTEGER + k % NINTEGER];
        c.saturating = 1;
    } else {
        int first = k == NTYPES * NTYPES + NINTEGER * NINTEGER;
        c.a = first ? CVM_COMPONENT_TYPE_SINT8 : CVM_COMPONENT_TYPE_UINT8;
        c.b = first ? CVM_COMPONENT_TYPE_UINT8 : CVM_COMPONENT_TYPE_SINT8;
        c.c = CVM_COMPONENT_TYPE_SINT32;
        c.saturating = 0;
    }
    return c;
}

static const uint32_t sizes[][3] = {{16, 16, 16}, {16, 8, 16}, {16, 8, 8},
                                    {16, 16, 32}, {16, 8, 32}, {32, 32, 16}};
#define NSIZES CVM_ARRAY_SIZE(sizes)

/* Workgroup sizes listed for workgroup-scope flexible dimensions: coopvm
 * takes any count up to CVM_MAX_WORKGROUP_INVOCATIONS; these are the common
 * ones. */
static const uint32_t wg_invocations[] = {32, 64, 128, 256, 512, 1024};
#define NWG CVM_ARRAY_SIZE(wg_invocations)

/* VK_NV_cooperative_matrix (VkComponentTypeNV stops at UINT64): the KHR
 * list without bfloat16, float8 and saturation.  They stay out on purpose:
 * GL_NV_cooperative_matrix's fcoopmatNV<16> names float16 only and there is
 * no fcoopmatNV<8>, so the CTS's nv.*.convert* cases with those types, which
 * look for them in this list, fail to compile their shader when they are
 * listed; unlisted they are NotSupported. */
static int nv_combo(const dd_combo *c)
{
    return c->a <= CVM_COMPONENT_TYPE_UINT64 && c->b <= CVM_COMPONENT_TYPE_UINT64 &&
           c->c <= CVM_COMPONENT_TYPE_UINT64 && !c->saturating;
}

#define COOPVEC_MAX 512 /* room for cvm_coopvec_combinations' list */

static cvm_coopmat_properties khr_list[NCOMBOS * NSIZES];
static cvm_coopmat_properties nv_list[NCOMBOS * NSIZES];
static uint32_t nv_count;
static cvm_coopmat_granularity flex_list[NCOMBOS * (1 + NWG)];
static cvm_coopmat_granularity props2_list[NCOMBOS * 2];
static cvm_coopvec_properties coopvec_list[COOPVEC_MAX];
static uint32_t coopvec_count;
static pthread_once_t lists_once = PTHREAD_ONCE_INIT;

static void build_lists(void)
{
    for (size_t k = 0; k < NCOMBOS * NSIZES; k++) {
        dd_combo c = combo_at(k / NSIZES);
        cvm_coopmat_properties p;
        p.m_size = sizes[k % NSIZES][0];
        p.n_size = sizes[k % NSIZES][1];
        p.k_size = sizes[k % NSIZES][2];
        p.a_type = c.a;
        p.b_type = c.b;
        p.c_type = p.result_type = c.c;
        p.saturating_accumulation = c.saturating;
        p.scope = CVM_SCOPE_SUBGROUP;
        khr_list[k] = p;
        if (nv_combo(&c))
            nv_list[nv_count++] = p;
    }
    for (size_t k = 0; k < NCOMBOS * (1 + NWG); k++) {
        dd_combo c = combo_at(k / (1 + NWG));
        size_t w = k % (1 + NWG);
        cvm_coopmat_granularity *g = &flex_list[k];
        g->m_granularity = g->n_granularity = g->k_granularity = 1;
        g->a_type = c.a;
        g->b_type = c.b;
        g->c_type = g->result_type = c.c;
        g->saturating_accumulation = c.saturating;
        g->scope = w == 0 ? CVM_SCOPE_SUBGROUP : CVM_SCOPE_WORKGROUP;
        g->workgroup_invocations = w == 0 ? 0 : wg_invocations[w - 1];
        g->subgroup_size = 0;
    }
    /* Properties2EXT: the driver answers every query it takes (either scope,
     * any invocation count and subgroup size it supports) with every
     * combination of the query's saturation, at granularity 1. */
    for (size_t k = 0; k < NCOMBOS * 2; k++) {
        dd_combo c = combo_at(k / 2);
        cvm_coopmat_granularity *g = &props2_list[k];
        g->m_granularity = g->n_granularity = g->k_granularity = 1;
        g->a_type = c.a;
        g->b_type = c.b;
        g->c_type = g->result_type = c.c;
        g->saturating_accumulation = c.saturating;
        g->scope = k % 2 == 0 ? CVM_SCOPE_SUBGROUP : CVM_SCOPE_WORKGROUP;
        g->workgroup_invocations = 0;
        g->subgroup_size = 0;
    }
    uint32_t n = cvm_coopvec_combinations(NULL, 0);
    coopvec_count = n < COOPVEC_MAX ? n : COOPVEC_MAX;
    cvm_coopvec_combinations(coopvec_list, coopvec_count);
}

void cvm_get_device_description(cvm_device_description *o)
{
    if (!o)
        return;
    pthread_once(&lists_once, build_lists);
    memset(o, 0, sizeof(*o));
    o->coopmat_properties = khr_list;
    o->coopmat_property_count = (uint32_t)CVM_ARRAY_SIZE(khr_list);
    o->coopmat_nv_properties = nv_list;
    o->coopmat_nv_property_count = nv_count;
    o->flexible_properties = flex_list;
    o->flexible_property_count = (uint32_t)CVM_ARRAY_SIZE(flex_list);
    o->properties2 = props2_list;
    o->properties2_count = (uint32_t)CVM_ARRAY_SIZE(props2_list);
    o->coopvec_properties = coopvec_list;
    o->coopvec_property_count = coopvec_count;
    /* The driver's limits (icd_instance.c): 256 KiB of workgroup memory, no
     * memory reserved for workgroup-scope matrices. */
    o->max_compute_shared_memory_size = CVM_VK_MAX_SHARED_MEMORY;
    o->cooperative_matrix_workgroup_scope_reserved_shared_memory = 0;
    o->cooperative_matrix_flexible_dimensions_max_dimension = CVM_MAX_MATRIX_DIM;
    o->max_cooperative_vector_components = CVM_MAX_COOPVEC_COMPONENTS;
    o->subgroup_size = CVM_DEFAULT_SUBGROUP_SIZE;
    o->cooperative_matrix_supported_stages = CVM_STAGE_COMPUTE;
    o->cooperative_matrix_nv_supported_stages = CVM_STAGE_COMPUTE;
    o->cooperative_vector_supported_stages = CVM_STAGE_COMPUTE;
    o->cooperative_matrix_workgroup_scope = 1;
    o->cooperative_matrix_flexible_dimensions = 1;
    o->cooperative_matrix_properties2 = 1;
}
