/* Deflate (RFC 1951) for CSV rows: what segments.csv.gz holds, each block one gzip member.

   Rows repeat whole cells and runs of cells (names, levels, the value the row before ended on)
   and differ in the digits of their numbers. A general matcher hashes every byte; this one looks
   for a match only where a cell begins, at each separator (',' or '\n', which the match then
   starts with), so it hashes about one byte in eight and still finds the repeats: on segment
   rows it writes fewer bytes than libdeflate's level 2 at more than twice its speed
   (`abrlab-bench --only output`). Each input becomes one block with its own Huffman codes, or
   stored blocks when those are smaller. Integer code only: the bytes depend on the input alone,
   on every machine. Huffman code lengths by Moffat and Katajainen's in-place method,
   doi:10.1007/3-540-60220-8_79. */
#include "rows_deflate.h"
#include "huffman.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum {
    HASH_BITS = 12,
    CHAIN_DEPTH = 2,
    MIN_MATCH = 6,
    MAX_MATCH = 258,
    WINDOW = 32768,
    LITLEN_SYMBOLS = 286,
    DIST_SYMBOLS = 30,
    CODELEN_SYMBOLS = 19,
    END_OF_BLOCK = 256,
};

/* A token: `literals` bytes taken as they are, then a match of `length` (3..258) bytes at
   `distance` (1..32768) back, or no match (length 0) for the last run. */
typedef struct token {
    unsigned literals;
    unsigned short length;
    unsigned short distance;
} token;

typedef struct bit_writer {
    unsigned char *out;
    size_t capacity, count;
    unsigned long long bits;
    unsigned filled;
    int overflow;
} bit_writer;

static inline __attribute__((always_inline)) void put_bits(bit_writer *w, unsigned long long value, unsigned n) {
    w->bits |= value << w->filled;
    w->filled += n;
    if (w->filled < 32) return;
    if (w->count + 8 <= w->capacity) {
        unsigned char *p = w->out + w->count;
        for (int i = 0; i < 4; i++) p[i] = (unsigned char)(w->bits >> (8 * i));
    } else {
        w->overflow = 1;
    }
    w->count += 4;
    w->bits >>= 32;
    w->filled -= 32;
}

/* Writes out the whole bytes still held. */
static void flush_bytes(bit_writer *w) {
    while (w->filled >= 8) {
        if (w->count < w->capacity) w->out[w->count] = (unsigned char)w->bits; else w->overflow = 1;
        w->count++;
        w->bits >>= 8;
        w->filled -= 8;
    }
}

static void align_to_byte(bit_writer *w) {
    flush_bytes(w);
    if (w->filled > 0) put_bits(w, 0, 8 - w->filled);
    flush_bytes(w);
}

static unsigned floor_log2(unsigned v) { return 31u - (unsigned)__builtin_clz(v); }

static inline void length_code(unsigned length, unsigned *symbol, unsigned *extra_bits, unsigned *extra) {
    if (length == 258) { *symbol = 285; *extra_bits = 0; *extra = 0; return; }
    unsigned v = length - 3;
    if (v < 8) { *symbol = 257 + v; *extra_bits = 0; *extra = 0; return; }
    unsigned k = floor_log2(v);
    *symbol = 257 + 4 * (k - 1) + ((v >> (k - 2)) & 3);
    *extra_bits = k - 2;
    *extra = v & ((1u << (k - 2)) - 1);
}

static inline void distance_code(unsigned distance, unsigned *symbol, unsigned *extra_bits, unsigned *extra) {
    unsigned v = distance - 1;
    if (v < 4) { *symbol = v; *extra_bits = 0; *extra = 0; return; }
    unsigned k = floor_log2(v);
    *symbol = 2 * k + ((v >> (k - 1)) & 1);
    *extra_bits = k - 1;
    *extra = v & ((1u << (k - 1)) - 1);
}

/* Loads read bytes in little-endian order on every machine, so hashes, and so the output, never
   depend on the CPU; where the CPU is little-endian they compile to one load. */
static inline unsigned long long load64(const unsigned char *p) {
    unsigned long long v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

static inline unsigned hash4(const unsigned char *p) {
    unsigned v = (unsigned)p[0] | (unsigned)p[1] << 8 | (unsigned)p[2] << 16 | (unsigned)p[3] << 24;
    return (v * 2654435761u) >> (32 - HASH_BITS);
}

static size_t common_length(const unsigned char *a, const unsigned char *b, size_t limit) {
    size_t length = 0;
    while (length + 8 <= limit) {
        unsigned long long x = load64(a + length), y = load64(b + length);
        if (x != y) return length + ((size_t)__builtin_ctzll(x ^ y) >> 3);
        length += 8;
    }
    while (length < limit && a[length] == b[length]) length++;
    return length;
}

/* The first ',' or '\n' at or after `i` (n when none), eight bytes at a time. */
static inline size_t next_separator(const unsigned char *in, size_t i, size_t n) {
    const unsigned long long ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    while (i + 8 <= n) {
        unsigned long long v = load64(in + i);
        /* A zero byte of v ^ c marks c; the lowest flag is exact (borrows only run upward). */
        unsigned long long comma = v ^ (ones * ','), newline = v ^ (ones * '\n');
        unsigned long long found = ((comma - ones) & ~comma & highs) | ((newline - ones) & ~newline & highs);
        if (found) return i + ((size_t)__builtin_ctzll(found) >> 3);
        i += 8;
    }
    while (i < n && in[i] != ',' && in[i] != '\n') i++;
    return i;
}

static void insert(const unsigned char *in, size_t at, int *head, int *previous) {
    unsigned h = hash4(in + at);
    previous[at] = head[h];
    head[h] = (int)at;
}

/* Greedy parse: at each separator, the longest of the last CHAIN_DEPTH separator positions with
   the same four bytes ahead, taken when it reaches MIN_MATCH. Counts the matches' symbols;
   count_literals counts the literal runs after. */
static size_t tokenize(const unsigned char *in, size_t n, token *tokens, int *head, int *previous,
                       unsigned *lit_freq, unsigned *dist_freq) {
    for (size_t i = 0; i < (1u << HASH_BITS); i++) head[i] = -1;
    size_t count = 0, i = 0, run_start = 0;
    while (i < n) {
        unsigned char c = in[i];
        if ((c == ',' || c == '\n') && i + 4 <= n) {
            unsigned h = hash4(in + i);
            size_t best = 0, best_distance = 0;
            int candidate = head[h];
            size_t limit = n - i < MAX_MATCH ? n - i : MAX_MATCH;
            for (int depth = 0; depth < CHAIN_DEPTH && candidate >= 0 && i - (size_t)candidate <= WINDOW; depth++) {
                size_t length = common_length(in + candidate, in + i, limit);
                if (length > best) { best = length; best_distance = i - (size_t)candidate; }
                candidate = previous[candidate];
            }
            insert(in, i, head, previous);
            if (best >= MIN_MATCH) {
                unsigned symbol, bits, extra;
                tokens[count].literals = (unsigned)(i - run_start);
                tokens[count].length = (unsigned short)best;
                tokens[count].distance = (unsigned short)best_distance;
                count++;
                length_code((unsigned)best, &symbol, &bits, &extra);
                lit_freq[symbol]++;
                distance_code((unsigned)best_distance, &symbol, &bits, &extra);
                dist_freq[symbol]++;
                /* Separators inside the match are where later cells may begin. */
                size_t end = i + best;
                for (size_t k = i + 1; k < end; k++) {
                    if ((in[k] == ',' || in[k] == '\n') && k + 4 <= n) insert(in, k, head, previous);
                }
                i = end;
                run_start = i;
                continue;
            }
        }
        /* A literal run to the next separator, whose bytes go in the counts at the end. */
        i = next_separator(in, i + 1, n);
    }
    tokens[count].literals = (unsigned)(n - run_start);
    tokens[count].length = 0;
    tokens[count].distance = 0;
    return count + 1;
}

/* The code-length sequence of both trees with runs folded into 16/17/18 (each item: symbol, and
   its repeat count in the high byte). */
static unsigned fold_lengths(const unsigned char *lengths, unsigned count, unsigned short *items, unsigned *frequencies) {
    unsigned n = 0;
    for (unsigned i = 0; i < count;) {
        unsigned l = lengths[i], run = 1;
        while (i + run < count && lengths[i + run] == l) run++;
        unsigned left = run;
        if (l == 0) {
            while (left >= 11) { unsigned r = left > 138 ? 138 : left; items[n++] = (unsigned short)(18 | (r - 11) << 8); frequencies[18]++; left -= r; }
            if (left >= 3) { items[n++] = (unsigned short)(17 | (left - 3) << 8); frequencies[17]++; left = 0; }
        } else {
            items[n++] = (unsigned short)l; frequencies[l]++; left--;
            while (left >= 3) { unsigned r = left > 6 ? 6 : left; items[n++] = (unsigned short)(16 | (r - 3) << 8); frequencies[16]++; left -= r; }
        }
        while (left > 0) { items[n++] = (unsigned short)l; frequencies[l]++; left--; }
        i += run;
    }
    return n;
}

static const unsigned char codelen_order[CODELEN_SYMBOLS] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

static void write_dynamic_block(bit_writer *w, const unsigned char *in, const token *tokens, size_t count,
                                unsigned *lit_freq, unsigned *dist_freq) {
    lit_freq[END_OF_BLOCK] = 1;
    unsigned char lengths[LITLEN_SYMBOLS + DIST_SYMBOLS];
    abrl_code_lengths(lit_freq, LITLEN_SYMBOLS, 15, lengths);
    abrl_code_lengths(dist_freq, DIST_SYMBOLS, 15, lengths + LITLEN_SYMBOLS);
    unsigned hlit = LITLEN_SYMBOLS, hdist = DIST_SYMBOLS;
    while (hlit > 257 && lengths[hlit - 1] == 0) hlit--;
    while (hdist > 1 && lengths[LITLEN_SYMBOLS + hdist - 1] == 0) hdist--;
    unsigned char joined[LITLEN_SYMBOLS + DIST_SYMBOLS];
    memcpy(joined, lengths, hlit);
    memcpy(joined + hlit, lengths + LITLEN_SYMBOLS, hdist);
    unsigned short items[LITLEN_SYMBOLS + DIST_SYMBOLS];
    unsigned codelen_freq[CODELEN_SYMBOLS] = {0};
    unsigned item_count = fold_lengths(joined, hlit + hdist, items, codelen_freq);
    unsigned char codelen_lengths[CODELEN_SYMBOLS];
    abrl_code_lengths(codelen_freq, CODELEN_SYMBOLS, 7, codelen_lengths);
    unsigned short codelen_codes[CODELEN_SYMBOLS];
    abrl_canonical_codes(codelen_lengths, CODELEN_SYMBOLS, codelen_codes);
    unsigned hclen = CODELEN_SYMBOLS;
    while (hclen > 4 && codelen_lengths[codelen_order[hclen - 1]] == 0) hclen--;

    unsigned short lit_codes[LITLEN_SYMBOLS], dist_codes[DIST_SYMBOLS];
    abrl_canonical_codes(lengths, LITLEN_SYMBOLS, lit_codes);
    abrl_canonical_codes(lengths + LITLEN_SYMBOLS, DIST_SYMBOLS, dist_codes);

    put_bits(w, 1, 1);          /* BFINAL */
    put_bits(w, 2, 2);          /* dynamic Huffman */
    put_bits(w, hlit - 257, 5);
    put_bits(w, hdist - 1, 5);
    put_bits(w, hclen - 4, 4);
    for (unsigned i = 0; i < hclen; i++) put_bits(w, codelen_lengths[codelen_order[i]], 3);
    for (unsigned i = 0; i < item_count; i++) {
        unsigned symbol = items[i] & 0xFF, repeat = items[i] >> 8;
        put_bits(w, codelen_codes[symbol], codelen_lengths[symbol]);
        if (symbol == 16) put_bits(w, repeat, 2);
        else if (symbol == 17) put_bits(w, repeat, 3);
        else if (symbol == 18) put_bits(w, repeat, 7);
    }
    const unsigned char *lit_lengths = lengths, *dist_lengths = lengths + LITLEN_SYMBOLS;
    const unsigned char *at = in;
    for (size_t t = 0; t < count; t++) {
        const unsigned char *end = at + tokens[t].literals;
        /* Two literals a write: two codes of at most 15 bits fit beside the 31 held. */
        for (; at + 2 <= end; at += 2) {
            unsigned first = at[0], second = at[1];
            put_bits(w, lit_codes[first] | (unsigned long long)lit_codes[second] << lit_lengths[first], lit_lengths[first] + lit_lengths[second]);
        }
        if (at < end) { put_bits(w, lit_codes[*at], lit_lengths[*at]); at++; }
        if (tokens[t].length == 0) continue;
        unsigned symbol, bits, extra;
        length_code(tokens[t].length, &symbol, &bits, &extra);
        put_bits(w, lit_codes[symbol], lit_lengths[symbol]);
        if (bits) put_bits(w, extra, bits);
        distance_code(tokens[t].distance, &symbol, &bits, &extra);
        put_bits(w, dist_codes[symbol], dist_lengths[symbol]);
        if (bits) put_bits(w, extra, bits);
        at += tokens[t].length;
    }
    put_bits(w, lit_codes[END_OF_BLOCK], lit_lengths[END_OF_BLOCK]);
}

static void write_stored_blocks(bit_writer *w, const unsigned char *in, size_t n) {
    size_t done = 0;
    do {
        size_t part = n - done > 65535 ? 65535 : n - done;
        put_bits(w, done + part == n, 1);
        put_bits(w, 0, 2);
        align_to_byte(w);
        put_bits(w, part, 16);
        put_bits(w, ~part & 0xFFFF, 16);
        for (size_t i = 0; i < part; i++) put_bits(w, in[done + i], 8);
        done += part;
    } while (done < n);
}

size_t abrl_rows_deflate_bound(size_t n) {
    return n + 5 * (n / 65535 + 1) + 8;
}

/* Adds the literal bytes of `tokens` to `lit_freq`, in four tables so that runs of one digit
   do not wait on each other's increments. */
static void count_literals(const unsigned char *in, const token *tokens, size_t count, unsigned *lit_freq) {
    unsigned tables[4][256];
    memset(tables, 0, sizeof tables);
    const unsigned char *at = in;
    for (size_t t = 0; t < count; t++) {
        const unsigned char *end = at + tokens[t].literals;
        while (at + 4 <= end) {
            tables[0][at[0]]++; tables[1][at[1]]++; tables[2][at[2]]++; tables[3][at[3]]++;
            at += 4;
        }
        while (at < end) tables[0][*at++]++;
        at += tokens[t].length;
    }
    for (int b = 0; b < 256; b++) lit_freq[b] += tables[0][b] + tables[1][b] + tables[2][b] + tables[3][b];
}

/* Each thread's buffers, grown to the largest input it has compressed: blocks are compressed
   by the thousand, and allocating per block cost a fifth of the time in page faults. */
typedef struct workspace {
    size_t capacity;
    token *tokens;
    int *previous;
    int head[1 << HASH_BITS];
} workspace;

static pthread_key_t workspace_key;
static pthread_once_t workspace_once = PTHREAD_ONCE_INIT;

static void free_workspace(void *pointer) {
    workspace *space = pointer;
    free(space->tokens);
    free(space->previous);
    free(space);
}

static void make_workspace_key(void) { pthread_key_create(&workspace_key, free_workspace); }

static workspace *thread_workspace(size_t n) {
    pthread_once(&workspace_once, make_workspace_key);
    workspace *space = pthread_getspecific(workspace_key);
    if (space == NULL) {
        space = calloc(1, sizeof *space);
        if (space == NULL || pthread_setspecific(workspace_key, space) != 0) { free(space); return NULL; }
    }
    if (space->capacity < n + 1) {
        token *tokens = realloc(space->tokens, (n + 1) * sizeof *tokens);
        if (tokens != NULL) space->tokens = tokens;
        int *previous = realloc(space->previous, (n + 1) * sizeof *previous);
        if (previous != NULL) space->previous = previous;
        if (tokens == NULL || previous == NULL) return NULL;
        space->capacity = n + 1;
    }
    return space;
}

size_t abrl_rows_deflate(const unsigned char *in, size_t n, unsigned char *out, size_t capacity) {
    if (capacity < abrl_rows_deflate_bound(n)) return 0;
    bit_writer w = {out, capacity, 0, 0, 0, 0};
    /* Positions are ints: an input past 2 GiB (never a block of rows) is stored. */
    if (n > 0x7FFFFFF0u) {
        write_stored_blocks(&w, in, n);
        align_to_byte(&w);
        return w.overflow ? 0 : w.count;
    }
    workspace *space = thread_workspace(n);
    if (space == NULL) return 0;
    unsigned lit_freq[LITLEN_SYMBOLS] = {0}, dist_freq[DIST_SYMBOLS] = {0};
    size_t count = tokenize(in, n, space->tokens, space->head, space->previous, lit_freq, dist_freq);
    count_literals(in, space->tokens, count, lit_freq);
    write_dynamic_block(&w, in, space->tokens, count, lit_freq, dist_freq);
    align_to_byte(&w);
    /* Stored blocks cost n plus 5 bytes each: written instead when the codes did not pay. */
    size_t stored = n + 5 * (n / 65535 + 1);
    if (w.overflow || w.count > stored) {
        w.count = 0; w.bits = 0; w.filled = 0; w.overflow = 0;
        write_stored_blocks(&w, in, n);
        align_to_byte(&w);
    }
    return w.overflow ? 0 : w.count;
}
