/* Reading a whole input file, the one way the sub-commands share. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

int cvm_cli_read_file(const char *path, int allow_stdin, unsigned char **o_data, size_t *o_size)
{
    FILE *f = allow_stdin && !strcmp(path, "-") ? stdin : fopen(path, "rb");
    if (!f)
        return 0;
    size_t cap = 1 << 16, len = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        if (len == cap) {
            unsigned char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t k = fread(buf + len, 1, cap - len, f);
        len += k;
        if (k == 0)
            break;
    }
    int err = ferror(f);
    if (f != stdin)
        fclose(f);
    if (!buf || err) {
        free(buf);
        return -1;
    }
    *o_data = buf;
    *o_size = len;
    return 1;
}
