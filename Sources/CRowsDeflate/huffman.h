#ifndef ABRLAB_HUFFMAN_H
#define ABRLAB_HUFFMAN_H

/* The largest alphabet: deflate's literal/length symbols. */
enum { ABRL_MAX_SYMBOLS = 286 };

/* Lengths (0 for an unused symbol, else 1..limit) for `count` symbols of the given frequencies;
   at least two symbols get a code, so the code is complete. */
void abrl_code_lengths(const unsigned *frequencies, unsigned count, unsigned limit, unsigned char *lengths);

/* Canonical codes of `lengths` (each at most 15 bits), bit-reversed for an LSB-first stream. */
void abrl_canonical_codes(const unsigned char *lengths, unsigned count, unsigned short *codes);

#endif
