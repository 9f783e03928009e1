/* The nonogram engine in C: line solving, propagation to a fixpoint and probing, for
 * black-and-white and colour puzzles alike (line.py and logic.py are the same in Python: the
 * fallback without a compiler, and the oracle the tests compare this with).
 *
 * Cells are colour masks: bit 0 the background, bit c colour c (at most 63 colours). A
 * black-and-white puzzle is the one-colour case (masks 1 empty, 2 filled, 3 open).
 *
 * Two line solvers give the same answer:
 *   - the general one (any number of colours), cell by cell, O(n * k) for n cells, k runs:
 *       fwd[j][i]  runs 0..j-1 fit in cells [0, i), background after the last one up to i;
 *       bwd[j][i]  runs j..k-1 fit in cells [i, n), background before the first one from i;
 *     run j may start at s when its colour is allowed on s..s+len-1, the runs before it end
 *     by s (one background cell earlier when run j-1 has the same colour) and the runs after
 *     it fit from s+len on (after a background cell when run j+1 has the same colour);
 *   - the bit-parallel one for one colour, on bit sets of any length (words of 64 bits): a
 *     table row of the same programme is a handful of shifts and ANDs and one addition,
 *     whose carry walks over cells that may stay empty (line.py explains the steps). The
 *     backward table is the forward table of the mirrored line, bit-reversed.
 *
 * Module functions: solve_line(clue, line), run_starts(clue, line). The Engine type holds one
 * puzzle's clues and runs whole-grid work on a list of masks: propagate (dirty rows top to
 * bottom, then dirty columns, until nothing changes), find_probe (the first open cell, from a
 * start and wrapping, with a colour that breaks a line) and solve_by_logic (propagation and
 * probes until solved or stuck). Probes that end without contradiction are remembered with
 * the cells they changed: propagation is monotone, so while every cell learned since is at
 * least as open as that probe's fixpoint, the probe can only end there again and is skipped.
 * The LinePropagator type (at the end) carries the line solver into CaDiCaL's search.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <structmember.h>

#define MAX_COLOURS 63
#define MEMO_CELL_BUDGET ((Py_ssize_t)1 << 22) /* remembered cells over all probes */

typedef uint64_t word;

/* ---- the general line solver ------------------------------------------------------------ */

typedef struct {
    Py_ssize_t n, k;
    const uint64_t *line;
    const Py_ssize_t *len;
    const int *colour;
    unsigned char *fwd, *bwd, *bg_ok;
    int32_t *bad; /* per run j: bad[j * (n + 1) + i] = cells in [0, i) not allowing its colour */
} Work;

#define FWD(w, j, i) ((w)->fwd[(j) * ((w)->n + 1) + (i)])
#define BWD(w, j, i) ((w)->bwd[(j) * ((w)->n + 2) + (i)])

static int fits_colour(const Work *w, Py_ssize_t j, Py_ssize_t s) {
    const int32_t *bad = w->bad + j * (w->n + 1);
    Py_ssize_t e = s + w->len[j];
    return s >= 0 && e <= w->n && bad[e] == bad[s];
}

/* The runs before j may have ended (with the gap the colours need) by start s. */
static int start_ok(const Work *w, Py_ssize_t j, Py_ssize_t s) {
    if (j == 0 || w->colour[j - 1] != w->colour[j]) return FWD(w, j, s);
    return s >= 1 && w->bg_ok[s - 1] && FWD(w, j, s - 1);
}

/* The runs after j fit from the end e of run j (with the gap the colours need). */
static int end_ok(const Work *w, Py_ssize_t j, Py_ssize_t e) {
    if (j == w->k - 1) return BWD(w, w->k, e);
    if (w->colour[j + 1] != w->colour[j]) return BWD(w, j + 1, e);
    return e < w->n && w->bg_ok[e] && BWD(w, j + 1, e + 1);
}

static void forward(Work *w) {
    Py_ssize_t n = w->n, k = w->k;
    FWD(w, 0, 0) = 1;
    for (Py_ssize_t i = 1; i <= n; i++) FWD(w, 0, i) = FWD(w, 0, i - 1) && w->bg_ok[i - 1];
    for (Py_ssize_t j = 1; j <= k; j++) {
        Py_ssize_t len = w->len[j - 1];
        for (Py_ssize_t i = 0; i <= n; i++) {
            int ends_here = i >= len && fits_colour(w, j - 1, i - len) && start_ok(w, j - 1, i - len);
            FWD(w, j, i) = ends_here || (i >= 1 && FWD(w, j, i - 1) && w->bg_ok[i - 1]);
        }
    }
}

static void backward(Work *w) {
    Py_ssize_t n = w->n, k = w->k;
    BWD(w, k, n) = 1;
    BWD(w, k, n + 1) = 0;
    for (Py_ssize_t i = n - 1; i >= 0; i--) BWD(w, k, i) = w->bg_ok[i] && BWD(w, k, i + 1);
    for (Py_ssize_t j = k - 1; j >= 0; j--) {
        BWD(w, j, n + 1) = 0;
        BWD(w, j, n) = 0;
        for (Py_ssize_t i = n - 1; i >= 0; i--) {
            int starts_here = fits_colour(w, j, i) && end_ok(w, j, i + w->len[j]);
            BWD(w, j, i) = starts_here || (w->bg_ok[i] && BWD(w, j, i + 1));
        }
    }
}

/* possible[i]: the colour mask cell i may take; 0 when the clue does not fit at all. */
static int narrow(Work *w, uint64_t *possible, int32_t *cover) {
    Py_ssize_t n = w->n, k = w->k;
    forward(w);
    if (!FWD(w, k, n)) return 0;
    backward(w);
    memset(possible, 0, (size_t)n * sizeof(uint64_t));
    for (Py_ssize_t j = 0; j < k; j++) {
        Py_ssize_t len = w->len[j];
        memset(cover, 0, (size_t)(n + 1) * sizeof(int32_t));
        for (Py_ssize_t s = 0; s + len <= n; s++) {
            if (fits_colour(w, j, s) && start_ok(w, j, s) && end_ok(w, j, s + len)) {
                cover[s]++;
                cover[s + len]--;
            }
        }
        int32_t depth = 0;
        uint64_t bit = (uint64_t)1 << w->colour[j];
        for (Py_ssize_t i = 0; i < n; i++) {
            depth += cover[i];
            if (depth > 0) possible[i] |= bit;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!w->bg_ok[i]) continue;
        for (Py_ssize_t j = 0; j <= k; j++) {
            if (FWD(w, j, i) && BWD(w, j, i + 1)) {
                possible[i] |= 1;
                break;
            }
        }
    }
    return 1;
}

/* ---- the bit-parallel line solver (one colour) ------------------------------------------ */

/* Bit sets over the n + 1 boundaries of a line (bit i: boundary i, or cell i), in `nw` words;
 * every operation keeps the bits above `bits` clear. */
typedef struct {
    Py_ssize_t bits, nw;
    word top; /* the used bits of the last word */
} Shape;

static void b_clear(word *d, const Shape *sh) { memset(d, 0, (size_t)sh->nw * sizeof(word)); }

static void b_shl(word *d, const word *a, Py_ssize_t s, const Shape *sh) {
    Py_ssize_t q = s >> 6, r = s & 63, nw = sh->nw;
    for (Py_ssize_t i = nw - 1; i >= 0; i--) {
        word hi = i - q >= 0 ? a[i - q] << r : 0;
        word lo = (r && i - q - 1 >= 0) ? a[i - q - 1] >> (64 - r) : 0;
        d[i] = hi | lo;
    }
    d[nw - 1] &= sh->top;
}

static void b_shr(word *d, const word *a, Py_ssize_t s, const Shape *sh) {
    Py_ssize_t q = s >> 6, r = s & 63, nw = sh->nw;
    for (Py_ssize_t i = 0; i < nw; i++) {
        word lo = i + q < nw ? a[i + q] >> r : 0;
        word hi = (r && i + q + 1 < nw) ? a[i + q + 1] << (64 - r) : 0;
        d[i] = lo | hi;
    }
}

/* d = boundaries reachable from `seeds` stepping right over cells of `pass`:
 * seeds | ((pass + (seeds & pass)) ^ pass), the addition carried across words. */
static void b_slide(word *d, const word *seeds, const word *pass, const Shape *sh) {
    word carry = 0;
    for (Py_ssize_t i = 0; i < sh->nw; i++) {
        word add = seeds[i] & pass[i];
        word sum = pass[i] + add;
        word c1 = sum < pass[i];
        word sum2 = sum + carry;
        word c2 = sum2 < sum;
        carry = c1 | c2;
        d[i] = seeds[i] | (sum2 ^ pass[i]);
    }
    d[sh->nw - 1] &= sh->top;
}

/* d = bits s with bits s..s+len-1 of m all set (d may not alias m; tmp is scratch). */
static void b_windows(word *d, const word *m, Py_ssize_t len, word *tmp, const Shape *sh) {
    memcpy(d, m, (size_t)sh->nw * sizeof(word));
    Py_ssize_t span = 1;
    while (span * 2 <= len) {
        b_shr(tmp, d, span, sh);
        for (Py_ssize_t i = 0; i < sh->nw; i++) d[i] &= tmp[i];
        span *= 2;
    }
    if (span < len) {
        b_shr(tmp, d, len - span, sh);
        for (Py_ssize_t i = 0; i < sh->nw; i++) d[i] &= tmp[i];
    }
}

/* d |= the cells covered by a run of `len` starting at a bit of `starts` (starts is used up). */
static void b_spread_into(word *d, word *starts, Py_ssize_t len, word *tmp, const Shape *sh) {
    Py_ssize_t span = 1;
    while (span * 2 <= len) {
        b_shl(tmp, starts, span, sh);
        for (Py_ssize_t i = 0; i < sh->nw; i++) starts[i] |= tmp[i];
        span *= 2;
    }
    if (span < len) {
        b_shl(tmp, starts, len - span, sh);
        for (Py_ssize_t i = 0; i < sh->nw; i++) starts[i] |= tmp[i];
    }
    for (Py_ssize_t i = 0; i < sh->nw; i++) d[i] |= starts[i];
}

static word reverse64(word x) {
    x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((x & 0x0F0F0F0F0F0F0F0FULL) << 4);
    return __builtin_bswap64(x);
}

/* d = a with its `bits` lowest bits in reverse order (tmp is scratch). */
static void b_reverse(word *d, const word *a, word *tmp, const Shape *sh) {
    Py_ssize_t nw = sh->nw;
    for (Py_ssize_t i = 0; i < nw; i++) tmp[nw - 1 - i] = reverse64(a[i]);
    b_shr(d, tmp, nw * 64 - sh->bits, sh);
}

static int b_test(const word *a, Py_ssize_t i) { return (int)(a[i >> 6] >> (i & 63) & 1); }

/* Scratch for the bit-parallel solver: lines up to `cells` cells, clues up to `runs` runs. */
typedef struct {
    word *block;
    word *nf, *ne, *mnf, *mne, *fwd, *bwd, *fill, *empty, *t1, *t2, *t3, *t4;
    Py_ssize_t *mlen;
} Bits;

static int bits_alloc(Bits *b, Py_ssize_t cells, Py_ssize_t runs) {
    Py_ssize_t nw = (cells + 1 + 63) / 64 + 1;
    size_t words = (size_t)nw * (10 + 2 * (size_t)(runs + 1));
    b->block = calloc(words + (size_t)runs + 1, sizeof(word));
    if (b->block == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    word *p = b->block;
    word **slots[] = {&b->nf, &b->ne, &b->mnf, &b->mne, &b->fill, &b->empty,
                      &b->t1, &b->t2, &b->t3, &b->t4};
    for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++, p += nw) *slots[i] = p;
    b->fwd = p;
    p += nw * (runs + 1);
    b->bwd = p;
    p += nw * (runs + 1);
    b->mlen = (Py_ssize_t *)p;
    return 0;
}

/* forward table of one orientation: table[j] = boundaries where runs 0..j-1 may have ended. */
static void b_forward(word *table, const Py_ssize_t *len, Py_ssize_t k, const word *nf,
                      const word *ne, Bits *b, const Shape *sh) {
    Py_ssize_t nw = sh->nw;
    b_clear(b->t1, sh);
    b->t1[0] = 1;
    b_slide(table, b->t1, nf, sh);
    for (Py_ssize_t j = 0; j < k; j++) {
        word *reach = table + j * nw, *starts = b->t1;
        if (j == 0) {
            memcpy(starts, reach, (size_t)nw * sizeof(word));
        } else {
            for (Py_ssize_t i = 0; i < nw; i++) b->t2[i] = reach[i] & nf[i];
            b_shl(starts, b->t2, 1, sh);
        }
        b_windows(b->t2, ne, len[j], b->t3, sh);
        for (Py_ssize_t i = 0; i < nw; i++) b->t2[i] &= starts[i];
        b_shl(b->t4, b->t2, len[j], sh);
        b_slide(reach + nw, b->t4, nf, sh);
    }
}

/* The one-colour line `line` (n masks of bits 0-1) against runs len[0..k): possible[i] set to
 * the masks each cell may take; 0 when no placement fits. */
static int narrow_bits(const uint64_t *line, Py_ssize_t n, const Py_ssize_t *len, Py_ssize_t k,
                       Bits *b, uint64_t *possible) {
    Shape sh = {n + 1, (n + 1 + 63) / 64, 0};
    sh.top = (sh.bits & 63) ? (((word)1 << (sh.bits & 63)) - 1) : ~(word)0;
    Py_ssize_t nw = sh.nw;
    b_clear(b->nf, &sh);
    b_clear(b->ne, &sh);
    b_clear(b->mnf, &sh);
    b_clear(b->mne, &sh);
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t m = n - 1 - i;
        if (line[i] & 1) {
            b->nf[i >> 6] |= (word)1 << (i & 63);
            b->mnf[m >> 6] |= (word)1 << (m & 63);
        }
        if (line[i] & 2) {
            b->ne[i >> 6] |= (word)1 << (i & 63);
            b->mne[m >> 6] |= (word)1 << (m & 63);
        }
    }
    if (k == 0) {
        for (Py_ssize_t i = 0; i < n; i++) {
            if (!(line[i] & 1)) return 0;
            possible[i] = 1;
        }
        return 1;
    }
    b_forward(b->fwd, len, k, b->nf, b->ne, b, &sh);
    if (!b_test(b->fwd + k * nw, n)) return 0;
    for (Py_ssize_t j = 0; j < k; j++) b->mlen[j] = len[k - 1 - j];
    /* the mirrored table, reversed row by row into bwd[j] = mirrored[k - j] */
    word *mirrored = b->bwd; /* written in place, then reversed through t-scratch below */
    b_forward(mirrored, b->mlen, k, b->mnf, b->mne, b, &sh);
    for (Py_ssize_t j = 0; j <= k / 2; j++) {
        word *lo = mirrored + j * nw, *hi = mirrored + (k - j) * nw;
        b_reverse(b->t2, lo, b->t1, &sh);
        if (lo != hi) {
            b_reverse(b->t3, hi, b->t1, &sh);
            memcpy(lo, b->t3, (size_t)nw * sizeof(word));
        }
        memcpy(hi, b->t2, (size_t)nw * sizeof(word));
    }
    word *fwd = b->fwd, *bwd = b->bwd;
    b_clear(b->fill, &sh);
    for (Py_ssize_t j = 0; j < k; j++) {
        word *prefix = b->t1, *suffix = b->t2;
        if (j == 0) {
            memcpy(prefix, fwd, (size_t)nw * sizeof(word));
        } else {
            for (Py_ssize_t i = 0; i < nw; i++) b->t3[i] = fwd[j * nw + i] & b->nf[i];
            b_shl(prefix, b->t3, 1, &sh);
        }
        if (j == k - 1) {
            b_shr(suffix, bwd + k * nw, len[j], &sh);
        } else {
            b_shr(b->t3, bwd + (j + 1) * nw, 1, &sh);
            for (Py_ssize_t i = 0; i < nw; i++) b->t3[i] &= b->nf[i];
            b_shr(suffix, b->t3, len[j], &sh);
        }
        b_windows(b->t3, b->ne, len[j], b->t4, &sh);
        for (Py_ssize_t i = 0; i < nw; i++) b->t3[i] &= prefix[i] & suffix[i];
        b_spread_into(b->fill, b->t3, len[j], b->t4, &sh);
    }
    b_clear(b->empty, &sh);
    for (Py_ssize_t j = 0; j <= k; j++) {
        b_shr(b->t1, bwd + j * nw, 1, &sh);
        for (Py_ssize_t i = 0; i < nw; i++) b->empty[i] |= fwd[j * nw + i] & b->t1[i];
    }
    for (Py_ssize_t i = 0; i < n; i++)
        possible[i] = (uint64_t)(b_test(b->fill, i) << 1 | (b_test(b->empty, i) & b_test(b->nf, i)));
    return 1;
}

/* ---- scratch and clues ------------------------------------------------------------------- */

/* Scratch space for one line of up to n cells and k runs (both solvers). */
typedef struct {
    char *block;
    uint64_t *line, *possible;
    Py_ssize_t *len, *left, *right; /* left, right: each run's extreme starts */
    int32_t *bad, *cover;
    int *colour;
    unsigned char *bg_ok, *fwd, *bwd;
    Bits bits;
} Scratch;

static void scratch_free(Scratch *s) {
    free(s->block);
    free(s->bits.block);
    s->block = NULL;
    s->bits.block = NULL;
}

static int scratch_alloc(Scratch *s, Py_ssize_t n, Py_ssize_t k) {
    size_t cells = (size_t)n + 2, runs = (size_t)k + 1;
    /* Widest arrays first so that each stays aligned: line, possible, len, left, right (8 bytes each),
     * bad, cover, colour (4), bg_ok, fwd, bwd (1). */
    size_t bytes = cells * 2 * sizeof(uint64_t) + 3 * runs * sizeof(Py_ssize_t) +
                   (runs * cells + cells) * sizeof(int32_t) + runs * sizeof(int) + cells +
                   2 * runs * cells;
    s->bits.block = NULL;
    char *block = calloc(1, bytes);
    if (block == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    s->block = block;
    s->line = (uint64_t *)block;
    s->possible = s->line + cells;
    s->len = (Py_ssize_t *)(s->possible + cells);
    s->left = s->len + runs;
    s->right = s->left + runs;
    s->bad = (int32_t *)(s->right + runs);
    s->cover = s->bad + runs * cells;
    s->colour = (int *)(s->cover + cells);
    s->bg_ok = (unsigned char *)(s->colour + runs);
    s->fwd = s->bg_ok + cells;
    s->bwd = s->fwd + runs * cells;
    if (bits_alloc(&s->bits, n, k) < 0) {
        scratch_free(s);
        return -1;
    }
    return 0;
}

/* The work of one line for the general solver: `line` (n masks) against len/colour[0..k). */
static Work setup(Scratch *s, const uint64_t *line, Py_ssize_t n, const Py_ssize_t *len,
                  const int *colour, Py_ssize_t k) {
    for (Py_ssize_t i = 0; i < n; i++) s->bg_ok[i] = (unsigned char)(line[i] & 1);
    for (Py_ssize_t j = 0; j < k; j++) {
        int32_t *row = s->bad + j * (n + 1);
        uint64_t bit = (uint64_t)1 << colour[j];
        row[0] = 0;
        for (Py_ssize_t i = 0; i < n; i++) row[i + 1] = row[i] + !(line[i] & bit);
    }
    Work w = {n, k, line, len, colour, s->fwd, s->bwd, s->bg_ok, s->bad};
    return w;
}

/* The line when none of its cells is narrowed yet (each allows the background and every
 * colour of the clue): 0 when the clue does not fit, 1 with s->possible filled, -1 when a cell
 * is narrowed already (the general solver's work). On such a line every start of run j from
 * its leftmost to its rightmost is possible (the runs before it packed left, those after it
 * packed right), so run j may cover [leftmost, rightmost + len) and surely covers
 * [rightmost, leftmost + len); a cell no run surely covers may be background (the runs whose
 * leftmost ends reach it packed left, the others packed right). Most puzzles start with every
 * row in this state, and the first pass is then linear instead of runs x cells. */
static int solve_unnarrowed(Scratch *s, Py_ssize_t n, const Py_ssize_t *len, const int *colour,
                            Py_ssize_t k) {
    uint64_t needed = 1;
    for (Py_ssize_t j = 0; j < k; j++) needed |= (uint64_t)1 << colour[j];
    for (Py_ssize_t i = 0; i < n; i++)
        if ((s->line[i] & needed) != needed) return -1;
    Py_ssize_t *left = s->left, *right = s->right;
    Py_ssize_t at = 0;
    for (Py_ssize_t j = 0; j < k; j++) {
        if (j > 0 && colour[j - 1] == colour[j]) at++;
        left[j] = at;
        at += len[j];
    }
    if (at > n) return 0;
    at = n;
    for (Py_ssize_t j = k - 1; j >= 0; j--) {
        if (j < k - 1 && colour[j + 1] == colour[j]) at--;
        at -= len[j];
        right[j] = at;
    }
    for (Py_ssize_t i = 0; i < n; i++) s->possible[i] = 1;
    for (Py_ssize_t j = 0; j < k; j++) {
        uint64_t bit = (uint64_t)1 << colour[j];
        for (Py_ssize_t i = left[j]; i < right[j] + len[j]; i++) s->possible[i] |= bit;
        for (Py_ssize_t i = right[j]; i < left[j] + len[j]; i++) s->possible[i] = bit;
    }
    return 1;
}

/* s->possible for the line in s->line: by bits when `one_colour` (every run colour 1 and
 * every mask below 4), else cell by cell. 0 when no placement fits. */
static int solve_into(Scratch *s, Py_ssize_t n, const Py_ssize_t *len, const int *colour,
                      Py_ssize_t k, int one_colour) {
    if (one_colour) return narrow_bits(s->line, n, len, k, &s->bits, s->possible);
    int fresh = solve_unnarrowed(s, n, len, colour, k);
    if (fresh >= 0) return fresh;
    Work w = setup(s, s->line, n, len, colour, k);
    return narrow(&w, s->possible, s->cover);
}

static int read_clue(PyObject *clue, Py_ssize_t *len, int *colour, Py_ssize_t k) {
    for (Py_ssize_t j = 0; j < k; j++) {
        PyObject *run = PyTuple_GET_ITEM(clue, j);
        if (!PyTuple_Check(run) || PyTuple_GET_SIZE(run) != 2) {
            PyErr_SetString(PyExc_TypeError, "a run is a (length, colour) tuple");
            return -1;
        }
        len[j] = PyLong_AsSsize_t(PyTuple_GET_ITEM(run, 0));
        long c = PyLong_AsLong(PyTuple_GET_ITEM(run, 1));
        if (PyErr_Occurred()) return -1;
        if (len[j] < 1 || c < 1 || c > MAX_COLOURS) {
            PyErr_SetString(PyExc_ValueError, "run length or colour out of range");
            return -1;
        }
        colour[j] = (int)c;
    }
    return 0;
}

/* Whether the bit-parallel solver applies: every run of colour 1, every mask below 4. */
static int is_one_colour(const uint64_t *line, Py_ssize_t n, const int *colour, Py_ssize_t k) {
    for (Py_ssize_t j = 0; j < k; j++)
        if (colour[j] != 1) return 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (line[i] > 3) return 0;
    return 1;
}

/* Read the clue and the line (Python tuples) into fresh scratch space; -1 with a Python error
 * set (the space freed). */
static int load(PyObject *clue, PyObject *line_obj, Scratch *s) {
    Py_ssize_t n = PyTuple_GET_SIZE(line_obj), k = PyTuple_GET_SIZE(clue);
    if (scratch_alloc(s, n, k) < 0) return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        s->line[i] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(line_obj, i));
        if (PyErr_Occurred()) goto fail;
    }
    if (read_clue(clue, s->len, s->colour, k) < 0) goto fail;
    return 0;
fail:
    scratch_free(s);
    return -1;
}

static PyObject *solve_line(PyObject *self, PyObject *args) {
    PyObject *clue, *line_obj;
    if (!PyArg_ParseTuple(args, "O!O!", &PyTuple_Type, &clue, &PyTuple_Type, &line_obj)) return NULL;
    Scratch data;
    if (load(clue, line_obj, &data) < 0) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(line_obj), k = PyTuple_GET_SIZE(clue);
    uint64_t *possible = data.possible;
    PyObject *result = NULL;
    if (!solve_into(&data, n, data.len, data.colour, k,
                    is_one_colour(data.line, n, data.colour, k))) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    int changed = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        possible[i] &= data.line[i];
        changed |= possible[i] != data.line[i];
    }
    if (!changed) {
        result = Py_NewRef(line_obj);
        goto done;
    }
    result = PyTuple_New(n);
    if (result == NULL) goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *value = PyLong_FromUnsignedLongLong(possible[i]);
        if (value == NULL) {
            Py_CLEAR(result);
            goto done;
        }
        PyTuple_SET_ITEM(result, i, value);
    }
done:
    scratch_free(&data);
    return result;
}

/* The starts each run may take, as a list per run; None when the clue does not fit. */
static PyObject *run_starts(PyObject *self, PyObject *args) {
    PyObject *clue, *line_obj;
    if (!PyArg_ParseTuple(args, "O!O!", &PyTuple_Type, &clue, &PyTuple_Type, &line_obj)) return NULL;
    Scratch data;
    if (load(clue, line_obj, &data) < 0) return NULL;
    Work work = setup(&data, data.line, PyTuple_GET_SIZE(line_obj), data.len, data.colour,
                      PyTuple_GET_SIZE(clue));
    Work *w = &work;
    PyObject *result = NULL;
    forward(w);
    if (!FWD(w, w->k, w->n)) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    backward(w);
    result = PyTuple_New(w->k);
    if (result == NULL) goto done;
    for (Py_ssize_t j = 0; j < w->k; j++) {
        PyObject *starts = PyList_New(0);
        if (starts == NULL) goto fail;
        PyTuple_SET_ITEM(result, j, starts);
        for (Py_ssize_t s = 0; s + w->len[j] <= w->n; s++) {
            if (!(fits_colour(w, j, s) && start_ok(w, j, s) && end_ok(w, j, s + w->len[j])))
                continue;
            PyObject *value = PyLong_FromSsize_t(s);
            if (value == NULL || PyList_Append(starts, value) < 0) {
                Py_XDECREF(value);
                goto fail;
            }
            Py_DECREF(value);
        }
    }
    goto done;
fail:
    Py_CLEAR(result);
done:
    scratch_free(&data);
    return result;
}

/* The clues of one direction (rows or columns), flattened: line i's runs are
 * len/colour[start[i] .. start[i + 1]). */
typedef struct {
    Py_ssize_t count, *start, *len;
    int *colour;
} Clues;

static void clues_free(Clues *c) {
    free(c->start);
    free(c->len);
    free(c->colour);
    c->start = NULL;
    c->len = NULL;
    c->colour = NULL;
}

static int clues_read(PyObject *seq_obj, Py_ssize_t count, Clues *out, Py_ssize_t *max_runs,
                      int *max_colour) {
    out->start = NULL;
    out->len = NULL;
    out->colour = NULL;
    PyObject *seq = PySequence_Fast(seq_obj, "clues must be a sequence");
    if (seq == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != count) {
        PyErr_SetString(PyExc_ValueError, "the clues do not match the grid's size");
        goto fail;
    }
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *clue = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyTuple_Check(clue)) {
            PyErr_SetString(PyExc_TypeError, "a clue is a tuple of (length, colour) runs");
            goto fail;
        }
        Py_ssize_t k = PyTuple_GET_SIZE(clue);
        total += k;
        if (k > *max_runs) *max_runs = k;
    }
    out->count = count;
    out->start = malloc((size_t)(count + 1) * sizeof(Py_ssize_t));
    out->len = malloc((size_t)(total + 1) * sizeof(Py_ssize_t));
    out->colour = malloc((size_t)(total + 1) * sizeof(int));
    if (out->start == NULL || out->len == NULL || out->colour == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    out->start[0] = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *clue = PySequence_Fast_GET_ITEM(seq, i);
        Py_ssize_t at = out->start[i], k = PyTuple_GET_SIZE(clue);
        if (read_clue(clue, out->len + at, out->colour + at, k) < 0) goto fail;
        for (Py_ssize_t j = 0; j < k; j++)
            if (out->colour[at + j] > *max_colour) *max_colour = out->colour[at + j];
        out->start[i + 1] = at + k;
    }
    Py_DECREF(seq);
    return 0;
fail:
    Py_DECREF(seq);
    clues_free(out);
    return -1;
}

/* ---- the engine ---------------------------------------------------------------------------- */

/* A remembered line answer: which line (rows 0.., then columns), a hash of its cells, and
 * whether a placement fits (the answer itself sits in the engine's cache_data). */
typedef struct {
    uint64_t hash;
    int32_t id, fits;
} LineKey;

#define LINE_CACHE_BYTES ((size_t)1 << 22)

/* A probe that ended without contradiction: the cells it changed and their masks there. */
typedef struct {
    Py_ssize_t stamp, count; /* count < 0: nothing remembered */
    int32_t *cells;
    uint64_t *masks;
} Entry;

typedef struct {
    PyObject_HEAD
    Py_ssize_t width, height, total;
    int colours, one_colour;
    Clues rows, cols;
    Scratch s;
    uint64_t *grid, *trial, *last; /* the state worked on, a probe's copy, the memo's view */
    unsigned char *dirty;          /* rows (height), then columns (width); twice: trial's */
    /* the memo */
    Entry *entries;                /* per cell * colours + colour */
    int32_t *log;                  /* cells narrowed since the memo started */
    Py_ssize_t log_len, log_cap, memo_cells;
    int has_last;
    long probes, passes, solves;
    /* the line answers remembered (direct-mapped): probing meets the same line states again
     * and again (about half of the line solves on a puzzle that needs probes) */
    LineKey *cache_keys;
    uint64_t *cache_data; /* per slot: the line, then what the solver narrowed it to */
    Py_ssize_t cache_slots, cache_width;
} Engine;

static void memo_forget(Engine *e) {
    if (e->entries != NULL) {
        for (Py_ssize_t i = 0; i < e->total * e->colours; i++) {
            free(e->entries[i].cells);
            free(e->entries[i].masks);
            e->entries[i].cells = NULL;
            e->entries[i].masks = NULL;
            e->entries[i].count = -1;
        }
    }
    e->log_len = 0;
    e->memo_cells = 0;
    e->has_last = 0;
}

static int log_push(Engine *e, int32_t cell) {
    if (e->log_len == e->log_cap) {
        Py_ssize_t cap = e->log_cap ? e->log_cap * 2 : 1024;
        int32_t *grown = realloc(e->log, (size_t)cap * sizeof(int32_t));
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        e->log = grown;
        e->log_cap = cap;
    }
    e->log[e->log_len++] = cell;
    return 0;
}

/* Bring the memo's view up to `grid`: narrowed cells go to the log; a widened cell (another
 * state than the one the memo learned on) forgets everything. */
static int memo_sync(Engine *e, const uint64_t *grid) {
    if (!e->has_last) {
        memcpy(e->last, grid, (size_t)e->total * sizeof(uint64_t));
        e->has_last = 1;
        return 0;
    }
    for (Py_ssize_t i = 0; i < e->total; i++) {
        if (grid[i] == e->last[i]) continue;
        if (grid[i] & ~e->last[i]) {
            memo_forget(e);
            memcpy(e->last, grid, (size_t)e->total * sizeof(uint64_t));
            e->has_last = 1;
            return 0;
        }
        if (log_push(e, (int32_t)i) < 0) return -1;
        e->last[i] = grid[i];
    }
    return 0;
}

static void entry_drop(Engine *e, Entry *en) {
    e->memo_cells -= en->count > 0 ? en->count : 0;
    free(en->cells);
    free(en->masks);
    en->cells = NULL;
    en->masks = NULL;
    en->count = -1;
}

/* Whether the probe (cell, colour) is known to end without contradiction from e->last. */
static int memo_safe(Engine *e, Py_ssize_t cell, int colour) {
    Entry *en = &e->entries[cell * e->colours + colour];
    if (en->count < 0) return 0;
    for (Py_ssize_t t = en->stamp; t < e->log_len; t++) {
        int32_t i = e->log[t];
        Py_ssize_t lo = 0, hi = en->count;
        while (lo < hi) {
            Py_ssize_t mid = (lo + hi) / 2;
            if (en->cells[mid] < i) lo = mid + 1;
            else hi = mid;
        }
        if (lo == en->count || en->cells[lo] != i || (en->masks[lo] & ~e->last[i])) {
            entry_drop(e, en);
            return 0;
        }
    }
    en->stamp = e->log_len;
    return 1;
}

static void memo_remember(Engine *e, Py_ssize_t cell, int colour, const uint64_t *from,
                          const uint64_t *fixpoint) {
    Entry *en = &e->entries[cell * e->colours + colour];
    if (en->count >= 0) entry_drop(e, en);
    Py_ssize_t count = 0;
    for (Py_ssize_t i = 0; i < e->total; i++) count += from[i] != fixpoint[i];
    if (e->memo_cells + count > MEMO_CELL_BUDGET) return;
    en->cells = malloc((size_t)(count + 1) * sizeof(int32_t));
    en->masks = malloc((size_t)(count + 1) * sizeof(uint64_t));
    if (en->cells == NULL || en->masks == NULL) {
        free(en->cells);
        free(en->masks);
        en->cells = NULL;
        en->masks = NULL;
        return; /* no memory for it: the probe is simply not remembered */
    }
    Py_ssize_t at = 0;
    for (Py_ssize_t i = 0; i < e->total; i++) {
        if (from[i] == fixpoint[i]) continue;
        en->cells[at] = (int32_t)i;
        en->masks[at++] = fixpoint[i];
    }
    en->count = count;
    en->stamp = e->log_len;
    e->memo_cells += count;
}

static uint64_t line_hash(const uint64_t *line, Py_ssize_t n, int32_t id) {
    uint64_t h = 0xcbf29ce484222325u ^ (uint64_t)id;
    for (Py_ssize_t i = 0; i < n; i++) h = (h ^ line[i]) * 0x100000001b3u;
    return h ^ (h >> 29);
}

/* solve_into for line `id` (in e->s.line), from the cache when this line was last seen in
 * the same state; the answer is remembered, replacing whatever shared its slot. */
static int solve_remembered(Engine *e, int32_t id, Py_ssize_t n, const Py_ssize_t *len,
                            const int *colour, Py_ssize_t k) {
    Scratch *s = &e->s;
    if (e->cache_slots == 0) return solve_into(s, n, len, colour, k, e->one_colour);
    uint64_t h = line_hash(s->line, n, id);
    Py_ssize_t slot = (Py_ssize_t)(h & (uint64_t)(e->cache_slots - 1));
    LineKey *key = e->cache_keys + slot;
    uint64_t *seen = e->cache_data + slot * 2 * e->cache_width, *answer = seen + e->cache_width;
    size_t bytes = (size_t)n * sizeof(uint64_t);
    if (key->id == id && key->hash == h && memcmp(seen, s->line, bytes) == 0) {
        if (key->fits) memcpy(s->possible, answer, bytes);
        return key->fits;
    }
    int fits = solve_into(s, n, len, colour, k, e->one_colour);
    key->id = id;
    key->hash = h;
    key->fits = fits;
    memcpy(seen, s->line, bytes);
    if (fits) memcpy(answer, s->possible, bytes);
    return fits;
}

/* One direction's part of a pass: solve every flagged line (flags cleared as it goes), mark
 * the crossing lines whose cells changed in `touched`; the broken line's index, or -1. */
static Py_ssize_t sweep(Engine *e, uint64_t *grid, int rows, unsigned char *todo,
                        unsigned char *touched) {
    const Clues *clues = rows ? &e->rows : &e->cols;
    Py_ssize_t width = e->width, n = rows ? e->width : e->height;
    Py_ssize_t step = rows ? 1 : width;
    Scratch *s = &e->s;
    for (Py_ssize_t index = 0; index < clues->count; index++) {
        if (!todo[index]) continue;
        todo[index] = 0;
        e->solves++;
        uint64_t *first = grid + (rows ? index * width : index);
        for (Py_ssize_t i = 0; i < n; i++) s->line[i] = first[i * step];
        Py_ssize_t at = clues->start[index], k = clues->start[index + 1] - at;
        int32_t id = (int32_t)(rows ? index : e->height + index);
        if (!solve_remembered(e, id, n, clues->len + at, clues->colour + at, k)) return index;
        for (Py_ssize_t i = 0; i < n; i++) {
            uint64_t narrowed = s->possible[i] & s->line[i];
            if (narrowed != s->line[i]) {
                if (!narrowed) return index;
                first[i * step] = narrowed;
                touched[i] = 1;
            }
        }
    }
    return -1;
}

static int any(const unsigned char *flags, Py_ssize_t count) {
    for (Py_ssize_t i = 0; i < count; i++)
        if (flags[i]) return 1;
    return 0;
}

/* Propagate `grid` from the flagged lines (dirty: rows then columns); 0 at the fixpoint or
 * after max_passes (>= 0), else 1 with the broken line in *kind (0 row, 1 column), *index. */
static int run(Engine *e, uint64_t *grid, unsigned char *dirty, long max_passes, int *kind,
               Py_ssize_t *index) {
    unsigned char *dirty_rows = dirty, *dirty_cols = dirty + e->height;
    long passes = 0;
    int broken = 0;
    while (any(dirty_rows, e->height) || any(dirty_cols, e->width)) {
        if (max_passes >= 0 && passes >= max_passes) break;
        passes++;
        Py_ssize_t at = sweep(e, grid, 1, dirty_rows, dirty_cols);
        if (at >= 0) {
            *kind = 0;
            *index = at;
            broken = 1;
            break;
        }
        at = sweep(e, grid, 0, dirty_cols, dirty_rows);
        if (at >= 0) {
            *kind = 1;
            *index = at;
            broken = 1;
            break;
        }
    }
    e->passes += passes;
    return broken;
}

static void engine_dealloc(Engine *e) {
    memo_forget(e);
    free(e->entries);
    free(e->cache_keys);
    free(e->cache_data);
    free(e->log);
    free(e->grid);
    free(e->dirty);
    scratch_free(&e->s);
    clues_free(&e->rows);
    clues_free(&e->cols);
    Py_TYPE(e)->tp_free((PyObject *)e);
}

/* The line cache: as many slots (a power of two) as LINE_CACHE_BYTES holds for the longest
 * line. Black-and-white too: its bit-parallel solves are cheap, but probing repeats them
 * (survey #803: 88 -> 67 ms), and a look-up costs about what a solve does where it misses. */
static int cache_alloc(Engine *e) {
    e->cache_width = e->width > e->height ? e->width : e->height;
    e->cache_slots = 0;
    size_t per_slot = 2 * (size_t)e->cache_width * sizeof(uint64_t);
    Py_ssize_t slots = 16;
    while ((size_t)slots * 2 * per_slot <= LINE_CACHE_BYTES) slots *= 2;
    e->cache_keys = malloc((size_t)slots * sizeof(LineKey));
    e->cache_data = malloc((size_t)slots * per_slot);
    if (e->cache_keys == NULL || e->cache_data == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < slots; i++) e->cache_keys[i].id = -1;
    e->cache_slots = slots;
    return 0;
}

static int engine_init(Engine *e, PyObject *args, PyObject *kwds) {
    PyObject *row_obj, *col_obj;
    Py_ssize_t width, height;
    int colours;
    if (!PyArg_ParseTuple(args, "OOnni", &row_obj, &col_obj, &width, &height, &colours))
        return -1;
    if (e->grid != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "an Engine is made once");
        return -1;
    }
    if (width < 1 || height < 1 || colours < 2 || colours > MAX_COLOURS + 1) {
        PyErr_SetString(PyExc_ValueError, "the grid needs a row, a column and 1 to 63 colours");
        return -1;
    }
    Py_ssize_t max_runs = 0;
    int max_colour = 1;
    if (clues_read(row_obj, height, &e->rows, &max_runs, &max_colour) < 0) return -1;
    if (clues_read(col_obj, width, &e->cols, &max_runs, &max_colour) < 0) return -1;
    e->width = width;
    e->height = height;
    e->total = width * height;
    if (max_colour >= colours) {
        PyErr_SetString(PyExc_ValueError, "a run has a colour outside the palette");
        return -1;
    }
    e->colours = colours;
    e->one_colour = colours == 2;
    if (scratch_alloc(&e->s, width > height ? width : height, max_runs) < 0) return -1;
    e->grid = malloc((size_t)e->total * 3 * sizeof(uint64_t) + 8);
    e->dirty = calloc((size_t)(width + height) * 2 + 2, 1);
    e->entries = malloc((size_t)e->total * (size_t)e->colours * sizeof(Entry) + 1);
    if (e->grid == NULL || e->dirty == NULL || e->entries == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    e->trial = e->grid + e->total;
    e->last = e->trial + e->total;
    if (cache_alloc(e) < 0) return -1;
    for (Py_ssize_t i = 0; i < e->total * e->colours; i++) {
        e->entries[i].cells = NULL;
        e->entries[i].masks = NULL;
        e->entries[i].count = -1;
    }
    return 0;
}

/* cells (a list of masks) into e->grid; -1 with an error set. */
static int read_cells(Engine *e, PyObject *cells, uint64_t *into) {
    if (!PyList_Check(cells) || PyList_GET_SIZE(cells) != e->total) {
        PyErr_SetString(PyExc_ValueError, "cells must be a list of one mask per cell");
        return -1;
    }
    uint64_t allowed = e->colours >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << e->colours) - 1);
    for (Py_ssize_t i = 0; i < e->total; i++) {
        into[i] = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(cells, i));
        if (PyErr_Occurred()) return -1;
        if (into[i] & ~allowed) {
            PyErr_SetString(PyExc_ValueError, "a cell holds a colour outside the palette");
            return -1;
        }
    }
    return 0;
}

/* Write back the cells of `from` that differ from the list's. */
static int write_cells(Engine *e, PyObject *cells, const uint64_t *from) {
    for (Py_ssize_t i = 0; i < e->total; i++) {
        PyObject *old = PyList_GET_ITEM(cells, i);
        if (PyLong_AsUnsignedLongLong(old) == from[i]) continue;
        PyObject *value = PyLong_FromUnsignedLongLong(from[i]);
        if (value == NULL) return -1;
        PyList_SetItem(cells, i, value); /* steals the reference */
    }
    return 0;
}

static int read_dirty(PyObject *indices, unsigned char *flags, Py_ssize_t count) {
    PyObject *iter = PyObject_GetIter(indices), *item;
    if (iter == NULL) return -1;
    while ((item = PyIter_Next(iter)) != NULL) {
        Py_ssize_t i = PyLong_AsSsize_t(item);
        Py_DECREF(item);
        if (i == -1 && PyErr_Occurred()) break;
        if (i < 0 || i >= count) {
            PyErr_SetString(PyExc_IndexError, "a dirty line is outside the grid");
            break;
        }
        flags[i] = 1;
    }
    Py_DECREF(iter);
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *flagged(const unsigned char *flags, Py_ssize_t count) {
    PyObject *list = PyList_New(0);
    for (Py_ssize_t i = 0; list != NULL && i < count; i++) {
        if (!flags[i]) continue;
        PyObject *value = PyLong_FromSsize_t(i);
        if (value == NULL || PyList_Append(list, value) < 0) Py_CLEAR(list);
        Py_XDECREF(value);
    }
    return list;
}

static PyObject *broken_tuple(int kind, Py_ssize_t index) {
    return Py_BuildValue("(sn)", kind ? "column" : "row", index);
}

static PyObject *counters(Engine *e) {
    PyObject *result = Py_BuildValue("lll", e->probes, e->passes, e->solves);
    e->probes = e->passes = e->solves = 0;
    return result;
}

/* propagate(cells, rows, cols, max_passes) -> (broken, passes, solves, rows left, cols left) */
static PyObject *engine_propagate(Engine *e, PyObject *args) {
    PyObject *cells, *rows_obj, *cols_obj;
    long max_passes;
    if (!PyArg_ParseTuple(args, "O!OOl", &PyList_Type, &cells, &rows_obj, &cols_obj, &max_passes))
        return NULL;
    if (read_cells(e, cells, e->grid) < 0) return NULL;
    memset(e->dirty, 0, (size_t)(e->width + e->height));
    if (read_dirty(rows_obj, e->dirty, e->height) < 0) return NULL;
    if (read_dirty(cols_obj, e->dirty + e->height, e->width) < 0) return NULL;
    e->passes = e->solves = 0;
    int kind = 0;
    Py_ssize_t index = -1;
    int broken = run(e, e->grid, e->dirty, max_passes, &kind, &index);
    if (write_cells(e, cells, e->grid) < 0) return NULL;
    PyObject *left_rows = flagged(e->dirty, e->height);
    PyObject *left_cols = flagged(e->dirty + e->height, e->width);
    PyObject *result = NULL;
    if (left_rows != NULL && left_cols != NULL) {
        PyObject *what = broken ? broken_tuple(kind, index) : Py_NewRef(Py_None);
        if (what != NULL)
            result = Py_BuildValue("NllOO", what, e->passes, e->solves, left_rows, left_cols);
    }
    e->passes = e->solves = 0;
    Py_XDECREF(left_rows);
    Py_XDECREF(left_cols);
    return result;
}

/* Narrow cell to `mask` in `grid` and propagate from its row and column. */
static int assume(Engine *e, uint64_t *grid, Py_ssize_t cell, uint64_t mask, int *kind,
                  Py_ssize_t *index) {
    unsigned char *dirty = e->dirty + e->width + e->height;
    memset(dirty, 0, (size_t)(e->width + e->height));
    grid[cell] = mask;
    dirty[cell / e->width] = 1;
    dirty[e->height + cell % e->width] = 1;
    return run(e, grid, dirty, -1, kind, index);
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

enum { PROBE_NONE = 0, PROBE_FOUND = 1, PROBE_TIMEOUT = 2, PROBE_ERROR = -1 };

typedef struct {
    const uint64_t *solution; /* NULL, or the solution's masks: only wrong colours tried */
    int ink_first, use_memo;
    double end;               /* < 0: no deadline */
    Py_ssize_t cell;          /* the probe found */
    int colour, kind;
    Py_ssize_t index;
} Probe;

/* The first open cell of e->grid from `start` (wrapping) with a colour that breaks a line. */
static int find(Engine *e, Py_ssize_t start, Probe *p) {
    if (p->use_memo && memo_sync(e, e->grid) < 0) return PROBE_ERROR;
    for (Py_ssize_t step = 0; step < e->total; step++) {
        Py_ssize_t cell = (start + step) % e->total;
        uint64_t mask = e->grid[cell];
        if (!(mask & (mask - 1))) continue;
        for (int t = 0; t < e->colours; t++) {
            int colour = p->ink_first ? (t + 1) % e->colours : t;
            if (!(mask >> colour & 1)) continue;
            if (p->solution != NULL && p->solution[cell] == (uint64_t)1 << colour) continue;
            if (p->use_memo && memo_safe(e, cell, colour)) continue;
            if (p->end >= 0 && now() >= p->end) return PROBE_TIMEOUT;
            if ((++e->probes & 63) == 0 && PyErr_CheckSignals() < 0) return PROBE_ERROR;
            memcpy(e->trial, e->grid, (size_t)e->total * sizeof(uint64_t));
            if (assume(e, e->trial, cell, (uint64_t)1 << colour, &p->kind, &p->index)) {
                p->cell = cell;
                p->colour = colour;
                return PROBE_FOUND;
            }
            if (p->use_memo) memo_remember(e, cell, colour, e->grid, e->trial);
        }
    }
    return PROBE_NONE;
}

static int read_probe(Engine *e, PyObject *solution, int ink_first, double seconds, Probe *p,
                      uint64_t *space) {
    p->solution = NULL;
    p->ink_first = ink_first;
    p->use_memo = 1;
    p->end = seconds < 0 ? -1.0 : now() + seconds;
    if (solution != Py_None) {
        if (read_cells(e, solution, space) < 0) return -1;
        p->solution = space;
    }
    return 0;
}

/* find_probe(cells, start, solution, ink_first, seconds) -> (status, cell, colour, broken,
 * probes, passes, solves); status 0 none, 1 found, 2 out of time. */
static PyObject *engine_find_probe(Engine *e, PyObject *args) {
    PyObject *cells, *solution;
    Py_ssize_t start;
    int ink_first;
    double seconds;
    if (!PyArg_ParseTuple(args, "O!nOpd", &PyList_Type, &cells, &start, &solution, &ink_first,
                          &seconds))
        return NULL;
    if (read_cells(e, cells, e->grid) < 0) return NULL;
    uint64_t *space = NULL;
    if (solution != Py_None && (space = malloc((size_t)e->total * sizeof(uint64_t))) == NULL)
        return PyErr_NoMemory();
    Probe p;
    PyObject *result = NULL;
    if (read_probe(e, solution, ink_first, seconds, &p, space) < 0) goto done;
    int status = find(e, start < 0 || start >= e->total ? 0 : start, &p);
    if (status == PROBE_ERROR) goto done;
    PyObject *what = status == PROBE_FOUND ? broken_tuple(p.kind, p.index) : Py_NewRef(Py_None);
    if (what == NULL) goto done;
    PyObject *counts = counters(e);
    if (counts == NULL) {
        Py_DECREF(what);
        goto done;
    }
    result = Py_BuildValue("inNNN", status, status == PROBE_FOUND ? p.cell : -1,
                           PyLong_FromLong(status == PROBE_FOUND ? p.colour : -1), what, counts);
done:
    free(space);
    return result;
}

/* solve_by_logic(cells, solution, ink_first, seconds) -> (status, broken, (probes, passes,
 * solves)): lines to a fixpoint, then probes until solved or stuck, cells narrowed in place;
 * status 0 stuck or solved, 1 a contradiction (broken), 2 out of time. */
static PyObject *engine_solve_by_logic(Engine *e, PyObject *args) {
    PyObject *cells, *solution;
    int ink_first;
    double seconds;
    if (!PyArg_ParseTuple(args, "O!Opd", &PyList_Type, &cells, &solution, &ink_first, &seconds))
        return NULL;
    if (read_cells(e, cells, e->grid) < 0) return NULL;
    uint64_t *space = NULL;
    if (solution != Py_None && (space = malloc((size_t)e->total * sizeof(uint64_t))) == NULL)
        return PyErr_NoMemory();
    Probe p;
    PyObject *result = NULL, *what = NULL;
    int status = 0, kind = 0;
    Py_ssize_t index = -1;
    if (read_probe(e, solution, ink_first, seconds, &p, space) < 0) goto done;
    memo_forget(e);
    memset(e->dirty, 1, (size_t)(e->width + e->height));
    if (run(e, e->grid, e->dirty, -1, &kind, &index)) {
        status = 1;
    } else {
        Py_ssize_t start = 0;
        for (;;) {
            int found = find(e, start, &p);
            if (found == PROBE_ERROR) {
                write_cells(e, cells, e->grid);
                goto done;
            }
            if (found == PROBE_TIMEOUT) {
                status = 2;
                break;
            }
            if (found == PROBE_NONE) break;
            start = p.cell;
            uint64_t rest = e->grid[p.cell] & ~((uint64_t)1 << p.colour);
            if (assume(e, e->grid, p.cell, rest, &kind, &index)) {
                status = 1;
                break;
            }
        }
    }
    if (write_cells(e, cells, e->grid) < 0) goto done;
    what = status == 1 ? broken_tuple(kind, index) : Py_NewRef(Py_None);
    if (what != NULL) result = Py_BuildValue("iNN", status, what, counters(e));
done:
    free(space);
    memo_forget(e);
    return result;
}

/* Whether the decided line (cells `first`, `first + step`, ...) has exactly the clue's runs:
 * the re-check of a solution before it is reported, independent of the line solver. */
static int line_matches(const uint64_t *grid, Py_ssize_t first, Py_ssize_t step, Py_ssize_t n,
                        const Clues *clues, Py_ssize_t index) {
    const Py_ssize_t *len = clues->len + clues->start[index];
    const int *colour = clues->colour + clues->start[index];
    Py_ssize_t k = clues->start[index + 1] - clues->start[index], run = 0, i = 0;
    while (i < n) {
        uint64_t mask = grid[first + i * step];
        if (mask == 0 || (mask & (mask - 1))) return 0; /* empty or undecided */
        int c = 0;
        while (!(mask >> c & 1)) c++;
        if (c == 0) {
            i++;
            continue;
        }
        Py_ssize_t length = 0;
        while (i < n && grid[first + i * step] == mask) {
            length++;
            i++;
        }
        if (run >= k || len[run] != length || colour[run] != c) return 0;
        run++;
    }
    return run == k;
}

/* violation(cells) -> None, or the first line (("row" | "column"), index) whose runs differ
 * from its clue; undecided cells count as breaking their line. */
static PyObject *engine_violation(Engine *e, PyObject *cells) {
    if (read_cells(e, cells, e->trial) < 0) return NULL;
    for (Py_ssize_t r = 0; r < e->height; r++)
        if (!line_matches(e->trial, r * e->width, 1, e->width, &e->rows, r))
            return broken_tuple(0, r);
    for (Py_ssize_t c = 0; c < e->width; c++)
        if (!line_matches(e->trial, c, e->width, e->height, &e->cols, c))
            return broken_tuple(1, c);
    Py_RETURN_NONE;
}

static PyObject *engine_forget(Engine *e, PyObject *unused) {
    memo_forget(e);
    Py_RETURN_NONE;
}

static PyObject *engine_forget_lines(Engine *e, PyObject *unused) {
    for (Py_ssize_t i = 0; i < e->cache_slots; i++) e->cache_keys[i].id = -1;
    Py_RETURN_NONE;
}

static PyMethodDef engine_methods[] = {
    {"propagate", (PyCFunction)engine_propagate, METH_VARARGS,
     "propagate(cells, rows, cols, max_passes) -> (broken, passes, solves, rows left, columns "
     "left); cells narrowed in place."},
    {"find_probe", (PyCFunction)engine_find_probe, METH_VARARGS,
     "find_probe(cells, start, solution, ink_first, seconds) -> (status, cell, colour, broken, "
     "(probes, passes, solves))."},
    {"solve_by_logic", (PyCFunction)engine_solve_by_logic, METH_VARARGS,
     "solve_by_logic(cells, solution, ink_first, seconds) -> (status, broken, (probes, passes, "
     "solves)); cells narrowed in place."},
    {"forget", (PyCFunction)engine_forget, METH_NOARGS, "forget() : the probe memo emptied."},
    {"forget_lines", (PyCFunction)engine_forget_lines, METH_NOARGS,
     "forget_lines() : the remembered line answers dropped."},
    {"violation", (PyCFunction)engine_violation, METH_O,
     "violation(cells) -> None or the first (kind, index) whose runs differ from its clue."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pencilbox.genres.nonogram._engine.Engine",
    .tp_basicsize = sizeof(Engine),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Engine(row_clues, col_clues, width, height, colours): one puzzle's lines, propagation "
              "and probes.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)engine_init,
    .tp_dealloc = (destructor)engine_dealloc,
    .tp_methods = engine_methods,
};

/* ---- line solving inside the SAT search -------------------------------------------------- */

/* LinePropagator: the line solver as a CaDiCaL external propagator (python-sat's IPASIR-UP
 * protocol; python-sat calls its methods by name). search.py encodes what propagation left
 * open as clauses; unit propagation on them is weaker than the exact line solver (it sees
 * one run's bounds at a time), so after each round of it the lines whose cells the solver
 * assigned are solved again here. What the line solver forces (a colour struck out of a
 * cell, or the one colour left) becomes the clause "these assigned cells of the line imply
 * it", and a line with no placement left the clause that not all of them hold; the clauses
 * are handed over through has_clause/add_clause, and CaDiCaL propagates and learns from
 * them as from its own. Everything added follows from one line's clue, so the search stays
 * exact; the propagator only makes it find out sooner. (Handing the literals back from
 * `propagate` with lazy reasons, IPASIR-UP's other way, crashed CaDiCaL 1.9.5 in its
 * garbage collection on a 35x35 random puzzle.)
 *
 * Cells are the engine's masks: `base` the state when the puzzle was encoded, `current` that
 * narrowed by the literals notified (colour c true: only c; false: c struck out). The clock
 * and Ctrl-C (the `interrupted` callable) are looked at every 256 rounds; stopping hands the
 * search the empty clause and sets `stopped` (never to be read as "no solution"). */

typedef struct {
    PyObject_HEAD
    Engine *engine;
    Py_ssize_t total, max_var;
    int colours;
    uint64_t *base, *current;
    int32_t *cell_of, *colour_of;  /* per variable: its cell, its colour (-1: not a cell's) */
    int32_t *first_var;            /* per cell * colours + colour: its variable, 0 for none */
    int8_t *value, *fixed;         /* per variable: 1 true, -1 false, 0 unassigned */
    int32_t *trail, *level_start;  /* assigned variables (not fixed), where each level began */
    Py_ssize_t trail_len, levels, level_cap;
    unsigned char *dirty;          /* rows then columns */
    long *proposed;                /* per variable: the round a clause last forced it in */
    int32_t *lits;                 /* scratch: one line's assigned literals */
    PyObject *pending, *interrupted, *model; /* model: the last complete assignment checked */
    double deadline;
    long rounds, propagated, conflicts, literals;
    int stopped;
    char is_lazy;
} LineProp;

enum { LP_RUNNING = 0, LP_TIME = 1, LP_INTERRUPT = 2 };

/* Literals of the clauses one search may be given (CaDiCaL keeps them all): about 130 MB.
 * Past it the propagator falls silent and the search goes on with what it has; a search
 * that long (a 95x80 puzzle runs into it after some minutes) would otherwise only grow. */
#define LINE_LITERAL_BUDGET ((long)1 << 25)

static void lp_dealloc(LineProp *p) {
    Py_XDECREF(p->engine);
    Py_XDECREF(p->pending);
    Py_XDECREF(p->interrupted);
    Py_XDECREF(p->model);
    free(p->base);
    free(p->cell_of);
    free(p->first_var);
    free(p->value);
    free(p->trail);
    free(p->level_start);
    free(p->dirty);
    free(p->proposed);
    free(p->lits);
    Py_TYPE(p)->tp_free((PyObject *)p);
}

/* LinePropagator(engine, cells, variables, seconds, interrupted): `variables` holds per cell
 * and colour (cell * colours + colour) the variable "the cell has this colour", 0 for none. */
static int lp_init(LineProp *p, PyObject *args, PyObject *kwds) {
    PyObject *engine, *cells, *variables, *interrupted;
    double seconds;
    if (!PyArg_ParseTuple(args, "O!OOdO", &EngineType, &engine, &cells, &variables, &seconds,
                          &interrupted))
        return -1;
    if (p->base != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "a LinePropagator is made once");
        return -1;
    }
    Engine *e = (Engine *)engine;
    Py_ssize_t total = e->total, slots = total * e->colours;
    PyObject *vars = PySequence_Fast(variables, "variables must be a sequence");
    if (vars == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(vars) != slots) {
        Py_DECREF(vars);
        PyErr_SetString(PyExc_ValueError, "variables: one per cell and colour");
        return -1;
    }
    p->base = malloc((size_t)total * 2 * sizeof(uint64_t) + 8);
    p->first_var = calloc((size_t)slots + 1, sizeof(int32_t));
    if (p->base == NULL || p->first_var == NULL) goto nomem;
    p->current = p->base + total;
    if (read_cells(e, cells, p->base) < 0) goto fail;
    memcpy(p->current, p->base, (size_t)total * sizeof(uint64_t));
    Py_ssize_t max_var = 0;
    for (Py_ssize_t i = 0; i < slots; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(vars, i));
        if (PyErr_Occurred()) goto fail;
        if (v < 0 || v > INT32_MAX / 2) {
            PyErr_SetString(PyExc_ValueError, "a variable out of range");
            goto fail;
        }
        p->first_var[i] = (int32_t)v;
        if (v > max_var) max_var = v;
    }
    Py_CLEAR(vars);
    p->max_var = max_var;
    p->cell_of = malloc((size_t)(max_var + 1) * 2 * sizeof(int32_t));
    p->value = calloc((size_t)(max_var + 1) * 2, 1);
    p->trail = malloc((size_t)(max_var + 1) * sizeof(int32_t));
    p->level_cap = 1024;
    p->level_start = malloc((size_t)p->level_cap * sizeof(int32_t));
    p->dirty = calloc((size_t)(e->width + e->height), 1);
    p->proposed = calloc((size_t)(max_var + 1), sizeof(long));
    Py_ssize_t longest = e->width > e->height ? e->width : e->height;
    p->lits = malloc((size_t)(longest * e->colours + 2) * sizeof(int32_t));
    if (p->cell_of == NULL || p->value == NULL || p->trail == NULL || p->level_start == NULL ||
        p->dirty == NULL || p->proposed == NULL || p->lits == NULL)
        goto nomem;
    p->colour_of = p->cell_of + max_var + 1;
    p->fixed = p->value + max_var + 1;
    for (Py_ssize_t v = 0; v <= max_var; v++) {
        p->cell_of[v] = -1;
        p->colour_of[v] = -1;
    }
    for (Py_ssize_t i = 0; i < slots; i++) {
        int32_t v = p->first_var[i];
        if (v == 0) continue;
        p->cell_of[v] = (int32_t)(i / e->colours);
        p->colour_of[v] = (int32_t)(i % e->colours);
    }
    p->pending = PyList_New(0);
    if (p->pending == NULL) return -1;
    Py_INCREF(engine);
    p->engine = e;
    Py_INCREF(interrupted);
    p->interrupted = interrupted;
    p->total = total;
    p->colours = e->colours;
    p->deadline = seconds > 0 ? now() + seconds : 0;
    p->is_lazy = 0;
    return 0;
nomem:
    PyErr_NoMemory();
fail:
    Py_XDECREF(vars);
    return -1;
}

/* The cell's mask from its base and its variables' values. */
static uint64_t lp_mask(const LineProp *p, Py_ssize_t cell) {
    uint64_t mask = p->base[cell];
    const int32_t *vars = p->first_var + cell * p->colours;
    for (int c = 1; c < p->colours; c++) {
        int32_t v = vars[c];
        if (v == 0 || p->value[v] == 0) continue;
        if (p->value[v] > 0) return (uint64_t)1 << c;
        mask &= ~((uint64_t)1 << c);
    }
    return mask;
}

static void lp_touch(LineProp *p, Py_ssize_t cell) {
    Py_ssize_t width = p->engine->width;
    p->dirty[cell / width] = 1;
    p->dirty[p->engine->height + cell % width] = 1;
}

static PyObject *lp_on_assignment(LineProp *p, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs < 1) {
        PyErr_SetString(PyExc_TypeError, "on_assignment(lit, fixed=False)");
        return NULL;
    }
    long lit = PyLong_AsLong(args[0]);
    if (lit == -1 && PyErr_Occurred()) return NULL;
    int fixed = nargs > 1 ? PyObject_IsTrue(args[1]) : 0;
    long v = labs(lit);
    if (v > p->max_var || p->cell_of[v] < 0) Py_RETURN_NONE;
    p->value[v] = lit > 0 ? 1 : -1;
    if (fixed > 0)
        p->fixed[v] = 1;
    else if (p->trail_len <= p->max_var) /* each variable is on the trail once at most */
        p->trail[p->trail_len++] = (int32_t)v;
    Py_ssize_t cell = p->cell_of[v];
    p->current[cell] = lp_mask(p, cell);
    lp_touch(p, cell);
    Py_RETURN_NONE;
}

static PyObject *lp_on_new_level(LineProp *p, PyObject *unused) {
    if (p->levels == p->level_cap) { /* a level per decision, on any variable: grows */
        int32_t *grown = realloc(p->level_start, (size_t)p->level_cap * 2 * sizeof(int32_t));
        if (grown == NULL) return PyErr_NoMemory();
        p->level_start = grown;
        p->level_cap *= 2;
    }
    p->level_start[p->levels++] = (int32_t)p->trail_len;
    Py_RETURN_NONE;
}

static PyObject *lp_on_backtrack(LineProp *p, PyObject *arg) {
    long to = PyLong_AsLong(arg);
    if (to == -1 && PyErr_Occurred()) return NULL;
    if (to < p->levels) {
        Py_ssize_t keep = p->level_start[to];
        for (Py_ssize_t i = keep; i < p->trail_len; i++) {
            int32_t v = p->trail[i];
            if (p->fixed[v]) continue;
            p->value[v] = 0;
            Py_ssize_t cell = p->cell_of[v];
            p->current[cell] = lp_mask(p, cell);
            lp_touch(p, cell); /* its lines may again imply what was undone with it */
        }
        if (keep < p->trail_len) p->trail_len = keep;
        p->levels = to;
    }
    Py_RETURN_NONE;
}

static void lp_stop(LineProp *p, int why) {
    p->stopped = why;
    PyObject *empty = PyList_New(0);
    if (empty != NULL) {
        PyList_SetSlice(p->pending, 0, PyList_GET_SIZE(p->pending), NULL);
        PyList_Append(p->pending, empty);
        Py_DECREF(empty);
    }
}

static int lp_out_of_time(LineProp *p) {
    if (!p->stopped && p->deadline > 0 && now() > p->deadline) lp_stop(p, LP_TIME);
    if (!p->stopped && p->interrupted != Py_None) {
        PyObject *answer = PyObject_CallNoArgs(p->interrupted);
        if (answer == NULL)
            PyErr_Clear();
        else {
            if (PyObject_IsTrue(answer) > 0) lp_stop(p, LP_INTERRUPT);
            Py_DECREF(answer);
        }
    }
    return p->stopped != LP_RUNNING;
}

/* The negations of the literals assigned on the line's cells (the fixed ones are facts and
 * left out) into p->lits; their count. */
static Py_ssize_t lp_line_reason(LineProp *p, const uint64_t *first, Py_ssize_t n,
                                 Py_ssize_t step) {
    Py_ssize_t count = 0, start = first - p->current;
    for (Py_ssize_t i = 0; i < n; i++) {
        const int32_t *vars = p->first_var + (start + i * step) * p->colours;
        for (int c = 1; c < p->colours; c++) {
            int32_t v = vars[c];
            if (v != 0 && p->value[v] != 0 && !p->fixed[v])
                p->lits[count++] = p->value[v] > 0 ? -v : v;
        }
    }
    return count;
}

/* The clause "the line's assigned cells imply lit" (p->lits holds their negations), queued
 * for the solver: CaDiCaL then propagates it itself. (Handing lit back with a lazy reason
 * instead crashed CaDiCaL 1.9.5 in its garbage collection on a 35x35 random puzzle.) */
static int lp_queue_clause(LineProp *p, int32_t lit, Py_ssize_t count) {
    p->literals += count + 1;
    PyObject *clause = PyList_New(count + 1);
    if (clause == NULL) return -1;
    PyList_SET_ITEM(clause, 0, PyLong_FromLong(lit));
    for (Py_ssize_t i = 0; i < count; i++)
        PyList_SET_ITEM(clause, i + 1, PyLong_FromLong(p->lits[i]));
    int failed = PyList_Append(p->pending, clause);
    Py_DECREF(clause);
    return failed;
}

static int lp_conflict(LineProp *p, Py_ssize_t count) {
    p->literals += count;
    PyObject *clause = PyList_New(count);
    if (clause == NULL) return -1;
    for (Py_ssize_t i = 0; i < count; i++)
        PyList_SET_ITEM(clause, i, PyLong_FromLong(p->lits[i]));
    int failed = PyList_Append(p->pending, clause);
    Py_DECREF(clause);
    p->conflicts++;
    return failed;
}

/* Solve one dirty line on the current masks, queueing a clause for each literal it forces;
 * 1 when the line has no placement (a conflict clause queued), 0 otherwise, -1 on error. */
static int lp_line(LineProp *p, int rows, Py_ssize_t index) {
    Engine *e = p->engine;
    const Clues *clues = rows ? &e->rows : &e->cols;
    Py_ssize_t n = rows ? e->width : e->height, step = rows ? 1 : e->width;
    Scratch *s = &e->s;
    const uint64_t *first = p->current + (rows ? index * e->width : index);
    for (Py_ssize_t i = 0; i < n; i++) s->line[i] = first[i * step];
    Py_ssize_t at = clues->start[index], k = clues->start[index + 1] - at;
    e->solves++;
    Py_ssize_t count = -1;
    if (!solve_into(s, n, clues->len + at, clues->colour + at, k, e->one_colour)) {
        count = lp_line_reason(p, first, n, step);
        return lp_conflict(p, count) < 0 ? -1 : 1;
    }
    Py_ssize_t start = first - p->current;
    for (Py_ssize_t i = 0; i < n; i++) {
        uint64_t narrowed = s->possible[i] & s->line[i];
        if (narrowed == s->line[i]) continue;
        if (narrowed == 0) { /* cannot happen after a placement fitted; kept exact */
            count = lp_line_reason(p, first, n, step);
            return lp_conflict(p, count) < 0 ? -1 : 1;
        }
        const int32_t *vars = p->first_var + (start + i * step) * p->colours;
        for (int c = 1; c < p->colours; c++) {
            int32_t v = vars[c];
            /* forced already this round (by the crossing line, perhaps the other way:
             * once the solver assigns it, that line is solved again and finds the clash) */
            if (v == 0 || p->value[v] != 0 || p->proposed[v] == p->rounds) continue;
            int32_t lit = 0;
            if (!(narrowed >> c & 1))
                lit = -v;
            else if (narrowed == (uint64_t)1 << c)
                lit = v;
            if (lit == 0) continue;
            if (count < 0) count = lp_line_reason(p, first, n, step);
            p->proposed[v] = p->rounds;
            if (lp_queue_clause(p, lit, count) < 0) return -1;
            p->propagated++;
        }
    }
    return 0;
}

/* Solve the dirty lines; what they force is queued as clauses (the list returned is empty). */
static PyObject *lp_propagate(LineProp *p, PyObject *unused) {
    PyObject *out = PyList_New(0);
    if (out == NULL || p->stopped || PyList_GET_SIZE(p->pending) > 0) return out;
    if (p->literals > LINE_LITERAL_BUDGET) return out; /* fallen silent (see the budget) */
    if ((++p->rounds & 255) == 0 && lp_out_of_time(p)) return out;
    Engine *e = p->engine;
    for (int rows = 1; rows >= 0; rows--) {
        Py_ssize_t count = rows ? e->height : e->width;
        unsigned char *dirty = p->dirty + (rows ? 0 : e->height);
        for (Py_ssize_t index = 0; index < count; index++) {
            if (!dirty[index]) continue;
            dirty[index] = 0;
            int broken = lp_line(p, rows, index);
            if (broken < 0) {
                Py_DECREF(out);
                return NULL;
            }
            if (broken) return out; /* the conflict first; the other lines stay dirty */
        }
    }
    return out;
}

static PyObject *lp_provide_reason(LineProp *p, PyObject *arg) { return PyList_New(0); }

static PyObject *lp_check_model(LineProp *p, PyObject *model) {
    /* The clauses alone make a complete assignment a solution; only the clock is looked at.
     * The model is kept: python-sat's get_model, read once the propagator is disconnected,
     * does not always give the assignment checked here. */
    if (p->stopped || lp_out_of_time(p)) Py_RETURN_FALSE;
    Py_INCREF(model);
    Py_XSETREF(p->model, model);
    Py_RETURN_TRUE;
}

static PyObject *lp_decide(LineProp *p, PyObject *unused) { return PyLong_FromLong(0); }

static PyObject *lp_has_clause(LineProp *p, PyObject *unused) {
    return PyBool_FromLong(PyList_GET_SIZE(p->pending) > 0);
}

static PyObject *lp_add_clause(LineProp *p, PyObject *unused) {
    Py_ssize_t size = PyList_GET_SIZE(p->pending);
    if (size == 0) return PyList_New(0);
    PyObject *clause = PyList_GET_ITEM(p->pending, size - 1);
    Py_INCREF(clause);
    if (PyList_SetSlice(p->pending, size - 1, size, NULL) < 0) {
        Py_DECREF(clause);
        return NULL;
    }
    return clause;
}

static PyObject *lp_counts(LineProp *p, void *closure) {
    return Py_BuildValue("{s:l,s:l,s:l,s:l}", "line_rounds", p->rounds, "line_propagated",
                         p->propagated, "line_conflicts", p->conflicts, "line_literals",
                         p->literals);
}

static PyObject *lp_stopped(LineProp *p, void *closure) {
    if (p->stopped == LP_TIME) return PyUnicode_FromString("time");
    if (p->stopped == LP_INTERRUPT) return PyUnicode_FromString("interrupted");
    Py_RETURN_NONE;
}

static PyMethodDef lp_methods[] = {
    {"on_assignment", (PyCFunction)(void (*)(void))lp_on_assignment, METH_FASTCALL,
     "on_assignment(lit, fixed=False)"},
    {"on_new_level", (PyCFunction)lp_on_new_level, METH_NOARGS, "a new decision level"},
    {"on_backtrack", (PyCFunction)lp_on_backtrack, METH_O, "on_backtrack(level)"},
    {"propagate", (PyCFunction)lp_propagate, METH_NOARGS, "the dirty lines solved: literals"},
    {"provide_reason", (PyCFunction)lp_provide_reason, METH_O, "never called: no literal is handed back"},
    {"check_model", (PyCFunction)lp_check_model, METH_O, "True unless stopped"},
    {"decide", (PyCFunction)lp_decide, METH_NOARGS, "0: the solver decides"},
    {"has_clause", (PyCFunction)lp_has_clause, METH_NOARGS, "a clause is queued"},
    {"add_clause", (PyCFunction)lp_add_clause, METH_NOARGS, "the next queued clause"},
    {NULL, NULL, 0, NULL},
};

static PyObject *lp_model(LineProp *p, void *closure) {
    if (p->model == NULL) Py_RETURN_NONE;
    Py_INCREF(p->model);
    return p->model;
}

static PyGetSetDef lp_getset[] = {
    {"model", (getter)lp_model, NULL, "the solution found: literals, variable v at v - 1", NULL},
    {"counts", (getter)lp_counts, NULL, "rounds, literals propagated, conflicts", NULL},
    {"stopped", (getter)lp_stopped, NULL, "None, 'time' or 'interrupted'", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef lp_members[] = {
    {"is_lazy", T_BOOL, offsetof(LineProp, is_lazy), 0, "checks partial assignments too"},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject LinePropType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pencilbox.genres.nonogram._engine.LinePropagator",
    .tp_basicsize = sizeof(LineProp),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "LinePropagator(engine, cells, variables, seconds, interrupted): the line solver "
              "inside CaDiCaL's search.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)lp_init,
    .tp_dealloc = (destructor)lp_dealloc,
    .tp_methods = lp_methods,
    .tp_getset = lp_getset,
    .tp_members = lp_members,
};

static PyMethodDef methods[] = {
    {"solve_line", solve_line, METH_VARARGS,
     "solve_line(clue, line) -> the narrowed line, the same line, or None (no placement)."},
    {"run_starts", run_starts, METH_VARARGS,
     "run_starts(clue, line) -> a list of possible starts per run, or None (no placement)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_engine", "The nonogram engine in C.", -1, methods,
};

PyMODINIT_FUNC PyInit__engine(void) {
    if (PyType_Ready(&EngineType) < 0 || PyType_Ready(&LinePropType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&EngineType);
    if (PyModule_AddObject(m, "Engine", (PyObject *)&EngineType) < 0) {
        Py_DECREF(&EngineType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&LinePropType);
    if (PyModule_AddObject(m, "LinePropagator", (PyObject *)&LinePropType) < 0) {
        Py_DECREF(&LinePropType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
