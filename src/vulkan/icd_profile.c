/* COOPVM_VK_PROFILE: where a Vulkan application's time goes inside the ICD.
 *
 * With COOPVM_VK_PROFILE set (a file, appended to, or "stderr"), the ICD
 * times what it does for the application and writes, in the form
 *
 *   coopvm ICD profile: pipeline 5d1c..e0 main (1234 words, 3 specs):
 *       create 12.3 ms, 40 dispatches 51.2 ms, 3072 workgroups, tier ...
 *   coopvm ICD profile: device: 210 pipelines create 1500.1 ms, ...
 *
 * one line per pipeline (or shader object) when the application destroys
 * it, and one line per device when it is destroyed: pipeline creation
 * (cvm_module_create + cvm_pipeline_create: parsing, validation, lowering),
 * dispatches (cvm_pipeline_dispatch: the interpreter or the compiled tier,
 * whose compile time falls in the dispatch that first wants it), transfers
 * (vkCmdCopyBuffer, vkCmdFillBuffer, vkCmdUpdateBuffer) and cooperative
 * vector matrix conversions.  The rest of the application's wall time is
 * its own.  Without the variable nothing is timed. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vulkan/icd.h"

uint64_t cvk_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* The devices being profiled, for the report at exit (applications that
 * never destroy their pipelines or device, as ggml's, still get one). */
static pthread_mutex_t devices_lock = PTHREAD_MUTEX_INITIALIZER;
static struct VkDevice_T *devices;

static FILE *open_profile(const struct VkDevice_T *d)
{
    const char *p = d->profile.path;
    return !strcmp(p, "stderr") ? stderr : fopen(p, "a");
}

static void close_profile(FILE *f)
{
    if (f && f != stderr)
        fclose(f);
}

/* FNV-1a over the module's words: names a shader across runs and lines. */
static uint64_t words_hash(const uint32_t *words, size_t nwords)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < nwords; i++)
        for (int b = 0; b < 4; b++) {
            h ^= (words[i] >> (8 * b)) & 0xffu;
            h *= 1099511628211ull;
        }
    return h;
}

static double ms(uint64_t ns)
{
    return (double)ns / 1e6;
}

void cvk_profile_device_start(struct VkDevice_T *d)
{
    const char *v = getenv("COOPVM_VK_PROFILE");
    if (!v || !*v)
        return;
    d->profile.path = strdup(v);
    if (!d->profile.path)
        return;
    pthread_mutex_init(&d->profile.lock, NULL);
    d->profile.on = 1;
    pthread_mutex_lock(&devices_lock);
    d->profile.next = devices;
    devices = d;
    pthread_mutex_unlock(&devices_lock);
}

void cvk_profile_pipeline_start(struct VkDevice_T *d, struct VkPipeline_T *p, uint64_t create_ns,
                                const uint32_t *words, size_t nwords, const char *entry,
                                uint32_t nspecs)
{
    cvk_pipeline_profile *pr = &p->profile;
    pr->create_ns = create_ns;
    pr->device = d;
    pr->hash = words_hash(words, nwords);
    pr->nwords = nwords;
    pr->nspecs = nspecs;
    snprintf(pr->entry, sizeof(pr->entry), "%s", entry ? entry : "");
    pthread_mutex_lock(&d->profile.lock);
    pr->prev = NULL;
    pr->next = d->profile.live;
    if (pr->next)
        pr->next->profile.prev = p;
    d->profile.live = p;
    pr->on = 1;
    pthread_mutex_unlock(&d->profile.lock);
}

/* Unlinks p from its device's list (the caller holds the device's lock). */
static void pipeline_report(struct VkPipeline_T *p)
{
    struct VkDevice_T *d = p->profile.device;
    if (p->profile.prev)
        p->profile.prev->profile.next = p->profile.next;
    else
        d->profile.live = p->profile.next;
    if (p->profile.next)
        p->profile.next->profile.prev = p->profile.prev;
    p->profile.on = 0;
    cvm_tier_info ti;
    cvm_pipeline_tier_info(p->pipeline, &ti);
    uint64_t disp = atomic_load(&p->profile.dispatches), dns = atomic_load(&p->profile.dispatch_ns);
    {
        atomic_fetch_add(&d->profile.pipelines, 1);
        atomic_fetch_add(&d->profile.create_ns, p->profile.create_ns);
        atomic_fetch_add(&d->profile.dispatches, disp);
        atomic_fetch_add(&d->profile.dispatch_ns, dns);
        if (ti.compiled_dispatches)
            atomic_fetch_add(&d->profile.compiled_pipelines, 1);
    }
    FILE *f = open_profile(d);
    if (!f)
        return;
    char tier[sizeof(ti.entry_why.message) + 64];
    if (ti.entry == 1)
        snprintf(tier, sizeof(tier), "compiled, %" PRIu64 " dispatches ran compiled code",
                 ti.compiled_dispatches);
    else if (ti.entry == -1)
        snprintf(tier, sizeof(tier), "interpreted (not taken at word %u: %s)",
                 ti.entry_why.word_offset, ti.entry_why.message);
    else
        snprintf(tier, sizeof(tier), "interpreted (compiled tier not tried)");
    fprintf(f,
            "coopvm ICD profile: pipeline %016" PRIx64 " %s (%zu words, %u specs): create %.1f ms, "
            "%" PRIu64 " dispatches %.1f ms, %" PRIu64 " workgroups, tier: %s\n",
            p->profile.hash, p->profile.entry, p->profile.nwords, p->profile.nspecs,
            ms(p->profile.create_ns), disp, ms(dns), atomic_load(&p->profile.workgroups), tier);
    close_profile(f);
}

void cvk_profile_pipeline_done(struct VkPipeline_T *p)
{
    if (!p->profile.on)
        return;
    struct VkDevice_T *d = p->profile.device;
    pthread_mutex_lock(&d->profile.lock);
    if (p->profile.on)
        pipeline_report(p);
    pthread_mutex_unlock(&d->profile.lock);
}

/* Reports the device's live pipelines and its totals, once. */
static void device_report(struct VkDevice_T *d, const char *when)
{
    pthread_mutex_lock(&d->profile.lock);
    while (d->profile.live)
        pipeline_report(d->profile.live);
    int done = d->profile.done;
    d->profile.done = 1;
    pthread_mutex_unlock(&d->profile.lock);
    if (done)
        return;
    FILE *f = open_profile(d);
    if (!f)
        return;
    fprintf(f, "coopvm ICD profile: device (%s): ", when);
    fprintf(f,
            "%" PRIu64 " pipelines (%" PRIu64
            " ran compiled code) create %.1f ms; %" PRIu64 " dispatches %.1f ms; %" PRIu64
            " transfers %.1f MB %.1f ms; %" PRIu64 " matrix conversions %.1f ms\n",
            atomic_load(&d->profile.pipelines), atomic_load(&d->profile.compiled_pipelines),
            ms(atomic_load(&d->profile.create_ns)), atomic_load(&d->profile.dispatches),
            ms(atomic_load(&d->profile.dispatch_ns)), atomic_load(&d->profile.transfers),
            (double)atomic_load(&d->profile.transfer_bytes) / 1e6,
            ms(atomic_load(&d->profile.transfer_ns)), atomic_load(&d->profile.conversions),
            ms(atomic_load(&d->profile.conversion_ns)));
    /* where the engine's threads spent the dispatches (coopvm.h
     * cvm_dispatch_profile), over the device's contexts */
    cvm_dispatch_profile sum, one;
    memset(&sum, 0, sizeof(sum));
    for (int k = 0; k < CVK_SUBGROUP_SIZES; k++) {
        if (!d->ctx[k])
            continue;
        cvm_context_dispatch_profile(d->ctx[k], &one);
        uint64_t *a = (uint64_t *)&sum;
        const uint64_t *b = (const uint64_t *)&one;
        for (size_t i = 0; i < sizeof(sum) / sizeof(uint64_t); i++)
            a[i] += b[i];
    }
    if (sum.dispatches) {
        double serial = (double)(sum.wall_ns - sum.parallel_ns) * (double)sum.threads /
                        (double)sum.dispatches;
        double all = (double)sum.thread_ns + serial;
        fprintf(f,
                "coopvm ICD profile: device (%s): engine threads %.1f per dispatch, %.1f "
                "joined; of their time: busy %.1f%%, serial %.1f%%, wake %.1f%%, setup "
                "%.1f%%, teardown %.1f%%, tail %.1f%%, absent %.1f%%\n",
                when, (double)sum.threads / (double)sum.dispatches,
                (double)sum.workers / (double)sum.dispatches, 100.0 * (double)sum.busy_ns / all,
                100.0 * serial / all, 100.0 * (double)sum.wake_ns / all,
                100.0 * (double)sum.setup_ns / all, 100.0 * (double)sum.teardown_ns / all,
                100.0 * (double)sum.tail_ns / all, 100.0 * (double)sum.absent_ns / all);
    }
    close_profile(f);
}

void cvk_profile_device_done(struct VkDevice_T *d)
{
    if (!d->profile.on)
        return;
    pthread_mutex_lock(&devices_lock);
    for (struct VkDevice_T **q = &devices; *q; q = &(*q)->profile.next)
        if (*q == d) {
            *q = d->profile.next;
            break;
        }
    pthread_mutex_unlock(&devices_lock);
    device_report(d, "destroyed");
    pthread_mutex_destroy(&d->profile.lock);
    free(d->profile.path);
    d->profile.path = NULL;
    d->profile.on = 0;
}

/* At exit, the devices the application left alive.  Pipelines still in use
 * by another thread are read as they are: counts, not a consistent cut. */
__attribute__((destructor)) static void report_at_exit(void)
{
    pthread_mutex_lock(&devices_lock);
    for (struct VkDevice_T *d = devices; d; d = d->profile.next)
        device_report(d, "alive at exit");
    pthread_mutex_unlock(&devices_lock);
}
