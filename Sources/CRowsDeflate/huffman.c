/* Huffman codes for deflate blocks (RFC 1951 3.2.2): code lengths of at most a given number of
   bits from symbol frequencies, then the canonical codes. Lengths by Moffat and Katajainen's
   in-place method, "In-place calculation of minimum-redundancy codes", WADS 1995,
   doi:10.1007/3-540-60220-8_79. */
#include "huffman.h"

#include <string.h>

typedef struct symbol_weight {
    unsigned weight;
    unsigned short symbol;
} symbol_weight;

static inline int by_weight(const symbol_weight *x, const symbol_weight *y) {
    if (x->weight != y->weight) return x->weight < y->weight ? -1 : 1;
    return x->symbol < y->symbol ? -1 : x->symbol > y->symbol;
}

/* Code lengths of at most `limit` bits for `count` symbols from their frequencies: Huffman's
   lengths (Moffat and Katajainen's in-place method over the sorted weights), then, when some are
   too long, the longest shortened and the Kraft sum restored by lengthening the next shorter
   ones, the longer codes going to the rarer symbols. Symbols never seen get 0; at least two get a
   code, so every tree is complete. */
void abrl_code_lengths(const unsigned *frequencies, unsigned count, unsigned limit, unsigned char *lengths) {
    symbol_weight sorted[ABRL_MAX_SYMBOLS];
    unsigned used = 0;
    memset(lengths, 0, count);
    for (unsigned s = 0; s < count; s++) {
        if (frequencies[s] > 0) { sorted[used].weight = frequencies[s]; sorted[used].symbol = (unsigned short)s; used++; }
    }
    for (unsigned s = 0; used < 2 && s < count; s++) {
        if (frequencies[s] == 0) { sorted[used].weight = 0; sorted[used].symbol = (unsigned short)s; used++; }
    }
    /* Insertion sort by (weight, symbol): under 300 entries, most already in order. */
    for (unsigned i = 1; i < used; i++) {
        symbol_weight item = sorted[i];
        unsigned j = i;
        while (j > 0 && by_weight(&sorted[j - 1], &item) > 0) { sorted[j] = sorted[j - 1]; j--; }
        sorted[j] = item;
    }

    unsigned a[ABRL_MAX_SYMBOLS] = {0};
    for (unsigned i = 0; i < used; i++) a[i] = sorted[i].weight;
    /* Pass 1: internal node weights, each leaf or node linked to its parent. */
    unsigned root = 0, leaf = 2, next;
    a[0] += a[1];
    for (next = 1; next < used - 1; next++) {
        if (leaf >= used || a[root] < a[leaf]) { a[next] = a[root]; a[root++] = next; }
        else a[next] = a[leaf++];
        if (leaf >= used || (root < next && a[root] < a[leaf])) { a[next] += a[root]; a[root++] = next; }
        else a[next] += a[leaf++];
    }
    /* Pass 2: depths of the internal nodes. */
    a[used - 2] = 0;
    for (int j = (int)used - 3; j >= 0; j--) a[j] = a[a[j]] + 1;
    /* Pass 3: depths of the leaves, longest first. */
    int available = 1, taken = 0, depth = 0, r = (int)used - 2, out = (int)used - 1;
    while (available > 0) {
        while (r >= 0 && (int)a[r] == depth) { taken++; r--; }
        while (available > taken) { a[out--] = (unsigned)depth; available--; }
        available = 2 * taken;
        depth++;
        taken = 0;
    }
    /* a[i] is now the length of sorted[i], non-increasing in i. */
    unsigned per_length[32] = {0};
    for (unsigned i = 0; i < used; i++) per_length[a[i] > 31 ? 31 : a[i]]++;
    if (a[0] > limit) {
        for (unsigned l = limit + 1; l < 32; l++) { per_length[limit] += per_length[l]; per_length[l] = 0; }
        unsigned long long kraft = 0;
        for (unsigned l = 1; l <= limit; l++) kraft += (unsigned long long)per_length[l] << (limit - l);
        while (kraft > (1ull << limit)) {
            per_length[limit]--;
            for (unsigned l = limit - 1; l > 0; l--) {
                if (per_length[l] > 0) { per_length[l]--; per_length[l + 1] += 2; break; }
            }
            kraft--;
        }
        unsigned i = 0;
        for (unsigned l = limit; l > 0; l--) {
            for (unsigned k = 0; k < per_length[l]; k++) a[i++] = l;
        }
    }
    for (unsigned i = 0; i < used; i++) lengths[sorted[i].symbol] = (unsigned char)a[i];
}

/* Canonical codes (RFC 1951 3.2.2), bit-reversed for an LSB-first stream. */
void abrl_canonical_codes(const unsigned char *lengths, unsigned count, unsigned short *codes) {
    unsigned per_length[16] = {0}, next_code[16] = {0};
    for (unsigned s = 0; s < count; s++) per_length[lengths[s]]++;
    per_length[0] = 0;
    unsigned code = 0;
    for (unsigned l = 1; l < 16; l++) { code = (code + per_length[l - 1]) << 1; next_code[l] = code; }
    for (unsigned s = 0; s < count; s++) {
        unsigned l = lengths[s];
        if (l == 0) { codes[s] = 0; continue; }
        unsigned c = next_code[l]++, reversed = 0;
        for (unsigned b = 0; b < l; b++) { reversed = (reversed << 1) | (c & 1); c >>= 1; }
        codes[s] = (unsigned short)reversed;
    }
}

