/* Helpers for the text-form tests: reading files, listing the corpus. */
#ifndef CVM_TEXT_TEST_UTIL_H
#define CVM_TEXT_TEST_UTIL_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads a whole file; returns NULL when it cannot. The buffer has a NUL
 * after the data. */
static char *tt_read(const char *path, size_t *o_size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 4);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        memset(buf + n, 0, 4);
        *o_size = (size_t)n;
    }
    return buf;
}

#define TT_MAX_MODULES 64

/* dst = a + b + c + d (NULs allowed for absent parts); 0 when too long. */
static int tt_cat(char *dst, size_t cap, const char *a, const char *b, const char *c,
                  const char *d)
{
    const char *parts[4] = {a, b, c, d};
    size_t len = 0;
    for (int i = 0; i < 4; i++) {
        if (!parts[i])
            continue;
        size_t n = strlen(parts[i]);
        if (len + n + 1 > cap)
            return 0;
        memcpy(dst + len, parts[i], n);
        len += n;
    }
    dst[len] = '\0';
    return 1;
}

/* Fills paths[i] with "<dir>/<name>/<name>" (no extension) for every module
 * folder of shared/corpus and shared/bench; returns the count. */
static int tt_list_modules(char paths[][512])
{
    static const char *const roots[] = {CVM_SHARED_DIR "/corpus", CVM_SHARED_DIR "/bench"};
    int count = 0;
    for (size_t r = 0; r < 2; r++) {
        DIR *d = opendir(roots[r]);
        if (!d)
            continue;
        struct dirent *e;
        while ((e = readdir(d)) != NULL && count < TT_MAX_MODULES) {
            if (e->d_name[0] == '.')
                continue;
            char dir[512], probe[1024];
            if (!tt_cat(dir, sizeof(dir), roots[r], "/", e->d_name, "/") ||
                !tt_cat(probe, sizeof(probe), dir, e->d_name, ".spv", NULL))
                continue;
            FILE *f = fopen(probe, "rb");
            if (!f)
                continue;
            fclose(f);
            if (tt_cat(paths[count], 512, dir, e->d_name, NULL, NULL))
                count++;
        }
        closedir(d);
    }
    /* Sort for a stable order (the fuzz driver depends on it). */
    for (int i = 1; i < count; i++)
        for (int j = i; j > 0 && strcmp(paths[j - 1], paths[j]) > 0; j--) {
            char tmp[512];
            memcpy(tmp, paths[j], 512);
            memcpy(paths[j], paths[j - 1], 512);
            memcpy(paths[j - 1], tmp, 512);
        }
    return count;
}

static char *tt_read_ext(const char *base, const char *ext, size_t *o_size)
{
    char path[600];
    if (!tt_cat(path, sizeof(path), base, ext, NULL, NULL))
        return NULL;
    return tt_read(path, o_size);
}

#endif
