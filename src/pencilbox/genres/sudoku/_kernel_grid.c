/* The search of pencilbox's Sudoku kernel for every box size (2..5: 4x4 .. 25x25).
 *
 * A board is one uint32 word per cell: bits 0..N-1 are the digits the cell may still hold, and
 * bit 31 (PLACED) marks a cell whose digit has been placed and taken from its peers. (A cell
 * with one candidate but no PLACED bit is a naked single waiting in the queue.)
 *
 * Each search node propagates naked singles (a queue fed by eliminations) and hidden singles (a
 * once/twice scan per unit) to a fixpoint, then one pass of locked candidates and singles again,
 * then branches on an open cell with the fewest candidates, digits in increasing order, on a
 * copy of the board (one board per depth, so backtracking is free). It stops after `limit`
 * solutions, or when the node or time budget runs out, so the caller can hand the puzzle to SAT.
 * solver.py's pure-Python engines are the reference and the fallback.
 */
#include "_kernel.h"

#include <stdlib.h>
#include <string.h>

#define MAX_SIZE 25                  /* digits; uint32 masks leave bit 31 free for PLACED */
#define MAX_CELLS (MAX_SIZE * MAX_SIZE)
#define MAX_UNITS (3 * MAX_SIZE)
#define MAX_PEERS (3 * MAX_SIZE - 2 * 5 - 1) /* row + column + box, minus overlaps: 64 */
#define PLACED 0x80000000u

typedef struct {
    int ready, n, size, cells, npeers;
    uint32_t all; /* every digit */
    uint16_t units[MAX_UNITS][MAX_SIZE];
    uint16_t peers[MAX_CELLS][MAX_PEERS];
    uint8_t cell_units[MAX_CELLS][3]; /* row, column and box unit of each cell */
} Geometry;

/* Built once per box size under the GIL (grid_prepare, before the GIL is released). */
static Geometry geometries[6];

static const Geometry *geometry(int n)
{
    Geometry *g = &geometries[n];
    if (g->ready)
        return g;
    int size = n * n, cells = size * size;
    g->n = n;
    g->size = size;
    g->cells = cells;
    g->all = (1u << size) - 1;
    for (int i = 0; i < size; i++)
        for (int j = 0; j < size; j++) {
            g->units[i][j] = (uint16_t)(i * size + j);                        /* row i */
            g->units[size + i][j] = (uint16_t)(j * size + i);                 /* column i */
            int r = (i / n) * n + j / n, c = (i % n) * n + j % n;
            g->units[2 * size + i][j] = (uint16_t)(r * size + c);             /* box i */
        }
    for (int cell = 0; cell < cells; cell++) {
        int r = cell / size, c = cell % size, k = 0;
        g->cell_units[cell][0] = (uint8_t)r;
        g->cell_units[cell][1] = (uint8_t)(size + c);
        g->cell_units[cell][2] = (uint8_t)(2 * size + (r / n) * n + c / n);
        for (int p = 0; p < cells; p++) {
            int pr = p / size, pc = p % size;
            int same_box = pr / n == r / n && pc / n == c / n;
            if (p != cell && (pr == r || pc == c || same_box))
                g->peers[cell][k++] = (uint16_t)p;
        }
        g->npeers = k;
    }
    g->ready = 1;
    return g;
}

typedef struct {
    const Geometry *g;
    const Limits *limits;
    Result *result;
    uint32_t *levels;  /* one board per search depth, g->cells words each */
    uint16_t *queue;   /* cells that became naked singles, not yet placed */
    int qhead, qtail;
    int open_in[MAX_UNITS]; /* open cells per unit, as of the last singles pass */
} Search;

/* Set bits of a mask. Written out: without -mpopcnt, __builtin_popcount is a library call. */
static inline int count(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
}

/* Place digit `bit` in `cell` and take it from the peers; 0 on a contradiction. Peers left
 * with one candidate go to the queue: placing them at once would recurse without bound. The
 * peer loop has no branch (most peers lack the digit, and mispredictions cost more than the
 * stores). A placed peer keeps PLACED, so it is never a "single", and one holding this digit
 * (two givens clash) is left with no digit: a contradiction like an emptied open cell. */
static int place(Search *s, uint32_t *b, int cell, uint32_t bit)
{
    if (!(b[cell] & bit))
        return 0;
    b[cell] = bit | PLACED;
    const uint16_t *peer = s->g->peers[cell];
    uint32_t all = s->g->all;
    int bad = 0, tail = s->qtail;
    for (int k = 0; k < s->g->npeers; k++) {
        uint32_t x = b[peer[k]], y = x & ~bit;
        b[peer[k]] = y;
        bad |= !(y & all);
        s->queue[tail] = peer[k];
        tail += (x != y) & !(y & (y - 1));
    }
    s->qtail = tail;
    return !bad;
}

/* Place the queued naked singles (and the ones they create); 0 on a contradiction. */
static int drain(Search *s, uint32_t *b)
{
    while (s->qhead < s->qtail) {
        int cell = s->queue[s->qhead++];
        uint32_t x = b[cell];
        if (!(x & PLACED) && !place(s, b, cell, x))
            return 0;
    }
    s->qhead = s->qtail = 0;
    return 1;
}

/* Naked and hidden singles to a fixpoint; 0 on a contradiction. */
static int singles(Search *s, uint32_t *b)
{
    const Geometry *g = s->g;
    int changed = 1;
    if (!drain(s, b))
        return 0;
    while (changed) {
        changed = 0;
        for (int u = 0; u < 3 * g->size; u++) {
            const uint16_t *unit = g->units[u];
            /* once: digits seen in an open cell; twice: seen in two; done: placed here. */
            uint32_t once = 0, twice = 0, done = 0;
            for (int k = 0; k < g->size; k++) {
                uint32_t x = b[unit[k]];
                uint32_t placed = 0u - (x >> 31); /* all ones when placed: no branch */
                uint32_t open = x & ~placed;
                done |= x & placed;
                twice |= once & open;
                once |= open;
            }
            if ((once | (done & g->all)) != g->all)
                return 0; /* some digit has no place left in this unit */
            s->open_in[u] = g->size - count(done & g->all);
            uint32_t hidden = once & ~twice & ~done;
            while (hidden) {
                uint32_t bit = hidden & -hidden;
                hidden ^= bit;
                /* Earlier placements in this loop may have placed or removed this digit. */
                int k = 0;
                while (k < g->size && !(b[unit[k]] & bit))
                    k++;
                if (k == g->size)
                    return 0;
                if (b[unit[k]] & PLACED)
                    continue;
                if (!place(s, b, unit[k], bit) || !drain(s, b))
                    return 0;
                changed = 1;
            }
        }
    }
    return 1;
}

/* Take `digits` from an open cell; 0 on a contradiction. */
static int eliminate(Search *s, uint32_t *b, int cell, uint32_t digits)
{
    uint32_t x = b[cell];
    if ((x & PLACED) || !(x & digits))
        return 1;
    x &= ~digits;
    if (!x)
        return 0;
    b[cell] = x;
    if (!(x & (x - 1)))
        s->queue[s->qtail++] = (uint16_t)cell;
    return 1;
}

/* Locked candidates (pointing and claiming) on every line segment of n cells where a line
 * crosses a box: -1 on a contradiction, else whether anything was eliminated. They cut the
 * search nodes on hard puzzles several times over, for one cheap pass per node. */
static int locked(Search *s, uint32_t *b)
{
    const Geometry *g = s->g;
    int n = g->n, size = g->size, changed = 0;
    uint32_t seg[MAX_SIZE * 5]; /* the open candidates of segment (line, k), k = box along it */
    for (int dir = 0; dir < 2; dir++) {
        /* dir 0: rows (cell = line * size + pos), dir 1: columns (cell = pos * size + line). */
        int step = dir ? size : 1, stride = dir ? 1 : size;
        for (int line = 0; line < size; line++)
            for (int k = 0; k < n; k++) {
                uint32_t m = 0;
                for (int j = 0; j < n; j++) {
                    uint32_t x = b[line * stride + (k * n + j) * step];
                    if (!(x & PLACED))
                        m |= x;
                }
                seg[line * n + k] = m;
            }
        for (int line = 0; line < size; line++)
            for (int k = 0; k < n; k++) {
                uint32_t m = seg[line * n + k], in_line = 0, in_box = 0;
                if (!m)
                    continue;
                int first = line / n * n; /* the first line of this band */
                for (int k2 = 0; k2 < n; k2++)
                    if (k2 != k)
                        in_line |= seg[line * n + k2];
                for (int l2 = first; l2 < first + n; l2++)
                    if (l2 != line)
                        in_box |= seg[l2 * n + k];
                /* Pointing: a digit of the box only here leaves the rest of the line. */
                uint32_t pointing = m & ~in_box & in_line;
                /* Claiming: a digit of the line only here leaves the rest of the box. */
                uint32_t claiming = m & ~in_line & in_box;
                if (!pointing && !claiming)
                    continue;
                changed = 1;
                for (int k2 = 0; pointing && k2 < n; k2++)
                    for (int j = 0; k2 != k && j < n; j++)
                        if (!eliminate(s, b, line * stride + (k2 * n + j) * step, pointing))
                            return -1;
                for (int l2 = first; claiming && l2 < first + n; l2++)
                    for (int j = 0; l2 != line && j < n; j++)
                        if (!eliminate(s, b, l2 * stride + (k * n + j) * step, claiming))
                            return -1;
                /* Keep the segment masks true for the rest of this pass. */
                for (int k2 = 0; k2 < n; k2++)
                    if (k2 != k)
                        seg[line * n + k2] &= ~pointing;
                for (int l2 = first; l2 < first + n; l2++)
                    if (l2 != line)
                        seg[l2 * n + k] &= ~claiming;
            }
    }
    return changed;
}

/* Singles, one pass of locked candidates, singles again; 0 on a contradiction. (Repeating
 * locked candidates to a fixpoint saved few nodes and cost more than it saved.) */
static int propagate(Search *s, uint32_t *b)
{
    if (!singles(s, b))
        return 0;
    int found = locked(s, b);
    if (found <= 0)
        return found == 0;
    return singles(s, b);
}

static int out_of_budget(Search *s)
{
    Result *r = s->result;
    r->nodes++;
    if (s->limits->max_nodes && r->nodes > s->limits->max_nodes) {
        r->stop = KERNEL_STOP_NODES;
        return 1;
    }
    if (s->limits->end > 0 && !(r->nodes & 1023) && kernel_now() >= s->limits->end) {
        r->stop = KERNEL_STOP_TIME;
        return 1;
    }
    return 0;
}

/* Branch on the open cell with the fewest candidates; among equals, the one whose units hold
 * the most open cells, where a guess reaches furthest (a third fewer nodes on the hardest 9x9
 * sets, two thirds fewer on 16x16, than the first such cell). -1 when every cell is placed. */
static int choose(const Search *s, const uint32_t *b)
{
    const Geometry *g = s->g;
    int best = -1, best_score = INT32_MAX;
    for (int c = 0; c < g->cells; c++) {
        if (b[c] & PLACED)
            continue;
        const uint8_t *u = g->cell_units[c];
        int score = count(b[c]) * 4 * MAX_SIZE
                    - (s->open_in[u[0]] + s->open_in[u[1]] + s->open_in[u[2]]);
        if (score < best_score) {
            best = c;
            best_score = score;
        }
    }
    return best;
}

static void record(Search *s, const uint32_t *b)
{
    Result *r = s->result;
    int cells = s->g->cells;
    if (!result_room(r, cells))
        return;
    uint8_t *out = r->solutions + (size_t)r->found * cells;
    for (int c = 0; c < cells; c++)
        out[c] = (uint8_t)(count((b[c] & s->g->all) - 1) + 1); /* the bit's index + 1 */
    r->found++;
}

/* The search from board `depth` (its pending singles already queued). */
static void search(Search *s, int depth)
{
    const Geometry *g = s->g;
    Result *r = s->result;
    int cells = g->cells;
    uint32_t *b = s->levels + (size_t)depth * cells;
    if (out_of_budget(s))
        return;
    if (depth == 0) {
        /* Whether singles alone fill the grid: the caller's grade ("singles" or "search"). */
        int open = singles(s, b) ? 0 : -1;
        for (int c = 0; open == 0 && c < cells; c++)
            open = !(b[c] & PLACED);
        r->by_singles = open == 0;
    }
    if (!propagate(s, b)) {
        s->qhead = s->qtail = 0;
        return;
    }
    int best = choose(s, b);
    if (best < 0) {
        record(s, b);
        return;
    }
    uint32_t digits = b[best];
    uint32_t *child = b + cells;
    while (digits) {
        uint32_t bit = digits & -digits;
        digits ^= bit;
        if (digits)
            r->guesses++;
        memcpy(child, b, (size_t)cells * sizeof *b);
        if (place(s, child, best, bit))
            search(s, depth + 1);
        s->qhead = s->qtail = 0;
        if (r->found >= s->limits->limit || r->stop)
            return;
    }
}

void grid_prepare(int n) { geometry(n); }

void grid_solve(const uint8_t *givens, int n, const Limits *limits, Result *result)
{
    const Geometry *g = geometry(n);
    int cells = g->cells;
    Search s = {.g = g, .limits = limits, .result = result};
    result->found = 0;
    result->nodes = 0;
    result->guesses = 0;
    result->stop = KERNEL_STOP_NONE;
    result->by_singles = 0;
    /* Depth never exceeds the open cells: every level places one more cell. Each cell is
     * queued at most once between drains, plus the slot a peer loop writes. */
    s.levels = malloc((size_t)(cells + 1) * cells * sizeof *s.levels);
    s.queue = malloc((size_t)(cells + 1) * sizeof *s.queue);
    if (!s.levels || !s.queue) {
        result->stop = KERNEL_STOP_MEMORY;
    } else {
        uint32_t *root = s.levels;
        int ok = 1;
        for (int c = 0; c < cells; c++)
            root[c] = g->all;
        for (int c = 0; c < cells && ok; c++)
            if (givens[c])
                ok = place(&s, root, c, 1u << (givens[c] - 1));
        if (ok)
            search(&s, 0);
    }
    free(s.levels);
    free(s.queue);
}
