/* The contract check shared by the harnesses (fuzz_common.h). */
#include "fuzz_common.h"

#include <stdio.h>
#include <string.h>

cvm_result cvm_fuzz_last_result;
cvm_diagnostic cvm_fuzz_last_diag;

uint32_t *cvm_fuzz_words(const uint8_t *data, size_t size, size_t *o_word_count)
{
    size_t n = size / 4;
    uint32_t *words = malloc(n ? n * 4 : 4);
    if (words && n)
        memcpy(words, data, n * 4);
    *o_word_count = n;
    return words;
}

char *cvm_fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return NULL;
    if (size)
        memcpy(text, data, size);
    text[size] = '\0';
    return text;
}

static void breach(const char *what, cvm_result r, const cvm_diagnostic *d)
{
    fprintf(stderr, "fuzz contract broken: %s (status %d %s, message \"%.*s\")\n", what, (int)r,
            cvm_result_string(r), (int)sizeof(d->message), d->message);
    abort();
}

void cvm_fuzz_check(cvm_result r, const cvm_diagnostic *d)
{
    cvm_fuzz_last_result = r;
    memcpy(&cvm_fuzz_last_diag, d, sizeof(*d));
    if (r == CVM_SUCCESS || r == CVM_INCOMPLETE)
        return;
    if (!strcmp(cvm_result_string(r), "CVM_ERROR_UNKNOWN"))
        breach("a status outside the documented set", r, d);
    if (r == CVM_ERROR_INTERNAL)
        breach("an internal error", r, d);
    if (memchr(d->message, '\0', sizeof(d->message)) == NULL)
        breach("the message is not terminated", r, d);
    if (d->message[0] == '\0')
        breach("a failure without a message", r, d);
    if (strchr(d->message, '\n'))
        breach("the message is not one line", r, d);
    if (d->result != r)
        breach("the diagnostic's status differs from the returned one", r, d);
}
