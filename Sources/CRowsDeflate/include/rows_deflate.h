#ifndef ABRLAB_ROWS_DEFLATE_H
#define ABRLAB_ROWS_DEFLATE_H

#include <stddef.h>

/* The most bytes abrl_rows_deflate writes for `n` input bytes. */
size_t abrl_rows_deflate_bound(size_t n);

/* Raw deflate (RFC 1951) of `in`, final block set, into `out`: the bytes written, or 0 when
   `capacity` is below the bound or memory ran out. Safe to call from many threads at once. */
size_t abrl_rows_deflate(const unsigned char *in, size_t n, unsigned char *out, size_t capacity);

#endif
