/* The 9x9 search of pencilbox's Sudoku kernel: digit boards in band-sized words.
 *
 * Layout. A band is three rows of the grid (27 cells). For each digit d and band b one 32-bit
 * word holds the band's cells that may still hold d (bit r*9 + c for row r of the band and
 * column c), and `open` holds each band's cells not yet placed. A placed cell stays in its
 * digit's word and leaves every other digit's word, so when the grid is full the nine digit
 * words of a band partition it.
 *
 * Why words per band. In a band, a digit sits once in each row and once in each box, so its
 * three rows use the three boxes in one of only 6 orders. Which minirows (row r of the band
 * inside box k) are still non-empty is 9 bits; one table lookup turns them into the minirows
 * that some possible order still uses. That one step is hidden singles in rows and boxes and
 * both kinds of locked candidates inside the band (a box's digit confined to one row, a row's
 * digit confined to one box), for one digit, in a handful of instructions. A stack (three boxes
 * on top of each other) is the same thing turned a quarter: its columns play the rows and its
 * bands the boxes, read from the column-occupancy bits of a digit's three band words.
 *
 * Propagation (unit propagation on those constraints, to a fixpoint):
 *   1. every word marked dirty is shrunk by its table; a row left with one cell is placed: the
 *      cell leaves the other digits' words and its column leaves the digit's other bands (the
 *      words that changed become dirty);
 *   2. when no word is dirty: naked singles (cells with one digit, found for a whole band by
 *      counting the nine words bit-sliced) in the bands that changed, then the stack tables of
 *      the digits that changed; what they change is dirty again, back to 1.
 * A cell with no digit, or a word whose rows cannot take three different boxes, is a
 * contradiction.
 *
 * Branching. Each band and stack has, per digit, the number of box orders still possible
 * (1 once the digit is settled there). The search picks the band or stack with the fewest in
 * all (but more than one per digit), in it a digit with the fewest (two, mostly), and tries
 * each order on a copy of the board, the last one in place. An order fixes three minirows at
 * once, which settles more than a guessed cell: it halved the guesses on the forum's hardest
 * puzzles against branching on a two-candidate cell (286 -> 154 a puzzle). This is how tdoku
 * picks its guesses too (the band with the fewest configurations); the code is our own.
 *
 * Plain C without intrinsics, so every compiler builds it; _kernel.h declares what
 * _kernel.c (the Python module) calls.
 */
#include "_kernel.h"

#define BAND_CELLS 0x7ffffffu /* 27 bits */
#define ROW_BITS 0x1ffu
#define REPEAT_ROWS 0x40201u /* x * REPEAT_ROWS copies a 9-bit column mask to the 3 rows */
#define BAND_WORDS 0x1249249u /* the words of band 0 (bits d * 3); << b for band b */

typedef struct {
    uint32_t words[27]; /* words[d * 3 + b]: cells of band b that may hold digit d (0-based) */
    uint32_t open[3];   /* cells of band b not yet placed */
    uint32_t dirty;     /* bit d * 3 + b: word changed since its last shrink */
    /* As of each word's last shrink (so true for every word that is not dirty): */
    uint16_t minis[27]; /* its non-empty minirows (bit row * 3 + box) */
    uint16_t cols[27];  /* its non-empty columns */
} Board;

/* -- tables, built once (under the GIL, before the first search) -------------------------- */
static const int ORDERS[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
static uint16_t order_minis[6];    /* order -> its three minirows (bit r * 3 + box) */
static uint16_t row_boxes[512];    /* a row's 9 bits -> which of its 3 boxes are non-empty */
static uint16_t row_single[512];   /* a row's 9 bits -> the row itself if it has one bit */
static uint16_t keep_minis[512];   /* minirow occupancy -> the minirows some order uses */
static uint32_t keep_cells[512];   /* the same as cells of the band */
static uint8_t order_count[512];   /* minirow occupancy -> how many orders are possible */
static uint16_t alone_in_row[512]; /* minirow occupancy -> its minirows alone in their row */
static uint32_t cells_of[512];     /* minirows -> their cells in the band */
static uint16_t mates[9];          /* minirow -> the other minirows of its row and its box */
static uint32_t row_box_peers[27]; /* cell -> the other cells of its row and box in the band */
static int ready;

static uint32_t minirow_cells(unsigned minis)
{
    uint32_t cells = 0;
    for (int m = 0; m < 9; m++)
        if (minis >> m & 1)
            cells |= 7u << ((m / 3) * 9 + (m % 3) * 3);
    return cells;
}

void bands_init(void)
{
    if (ready)
        return;
    for (int o = 0; o < 6; o++)
        for (int r = 0; r < 3; r++)
            order_minis[o] |= (uint16_t)(1u << (r * 3 + ORDERS[o][r]));
    for (unsigned x = 0; x < 512; x++) {
        row_boxes[x] = (uint16_t)((x & 7 ? 1 : 0) | (x & 070 ? 2 : 0) | (x & 0700 ? 4 : 0));
        row_single[x] = (uint16_t)(x && !(x & (x - 1)) ? x : 0);
        unsigned used = 0, count = 0;
        for (int o = 0; o < 6; o++)
            if ((order_minis[o] & x) == order_minis[o]) {
                used |= order_minis[o];
                count++;
            }
        keep_minis[x] = (uint16_t)used;
        keep_cells[x] = minirow_cells(used);
        order_count[x] = (uint8_t)count;
        cells_of[x] = minirow_cells(x);
        for (int r = 0; r < 3; r++) {
            unsigned row = x >> (3 * r) & 7;
            if (row && !(row & (row - 1)))
                alone_in_row[x] |= (uint16_t)(row << (3 * r));
        }
    }
    for (int m = 0; m < 9; m++)
        mates[m] = (uint16_t)((7u << (m / 3 * 3) | 0111u << (m % 3)) & ~(1u << m));
    for (int i = 0; i < 27; i++) {
        int r = i / 9, k = (i % 9) / 3;
        uint32_t peers = ROW_BITS << (r * 9);
        for (int r2 = 0; r2 < 3; r2++)
            peers |= 7u << (r2 * 9 + k * 3);
        row_box_peers[i] = peers & ~(1u << i);
    }
    ready = 1;
}

/* -- propagation --------------------------------------------------------------------------- */

/* Which minirows of a word are non-empty (bit r * 3 + box). */
static inline unsigned minirows(uint32_t m)
{
    return row_boxes[m & ROW_BITS] | row_boxes[m >> 9 & ROW_BITS] << 3 | row_boxes[m >> 18] << 6;
}

/* The columns of a word that are non-empty (9 bits). */
static inline uint32_t columns(uint32_t m) { return (m | m >> 9 | m >> 18) & ROW_BITS; }

/* words[w] &= keep, marking it dirty when it changed. */
static inline void restrict_word(Board *x, int w, uint32_t keep)
{
    uint32_t old = x->words[w], now = old & keep;
    x->words[w] = now;
    x->dirty |= (uint32_t)(old != now) << w;
}

/* Place digit d on the `fresh` cells of band b (each the last cell of its row for d): they
 * leave the other digits' words, and their columns leave d's other bands. */
static void place(Board *x, int d, int b, uint32_t fresh)
{
    x->open[b] &= ~fresh;
    uint32_t own = x->words[d * 3 + b], dirty = x->dirty;
    for (int e = 0; e < 9; e++)
        restrict_word(x, e * 3 + b, ~fresh);
    x->words[d * 3 + b] = own;
    x->dirty = (x->dirty & ~(1u << (d * 3 + b))) | (dirty & 1u << (d * 3 + b));
    uint32_t gone = columns(fresh) * REPEAT_ROWS;
    for (int b2 = 0; b2 < 3; b2++)
        if (b2 != b)
            restrict_word(x, d * 3 + b2, ~gone);
}

/* Shrink word `w` (digit w / 3, band w % 3) to the minirows an order of boxes can use, then
 * place its rows that have one cell left; 0 on a contradiction. */
static int shrink(Board *x, int w)
{
    unsigned occupancy = minirows(x->words[w]);
    uint32_t m = x->words[w] & keep_cells[occupancy];
    if (!m)
        return 0;
    x->words[w] = m;
    x->minis[w] = keep_minis[occupancy];
    x->cols[w] = (uint16_t)columns(m);
    uint32_t singles = row_single[m & ROW_BITS] | (uint32_t)row_single[m >> 9 & ROW_BITS] << 9 |
                       (uint32_t)row_single[m >> 18] << 18;
    uint32_t fresh = singles & x->open[w % 3];
    if (fresh)
        place(x, w / 3, w % 3, fresh);
    return 1;
}

/* Put digit d in cell i of band b: the other cells of its row and box lose d (the row's
 * shrink then places it). */
static inline void force(Board *x, int d, int b, int i)
{
    restrict_word(x, d * 3 + b, ~row_box_peers[i]);
}

/* Cells of a band by how many digits they may hold, bit-sliced over the nine words. */
typedef struct {
    uint32_t once, twice, thrice;
} Counts;

static Counts count_band(const Board *x, int b)
{
    Counts c = {0, 0, 0};
    for (int d = 0; d < 9; d++) {
        uint32_t m = x->words[d * 3 + b];
        c.thrice |= c.twice & m;
        c.twice |= c.once & m;
        c.once |= m;
    }
    return c;
}

/* Naked singles of band b: 0 on a cell left with no digit, else 1 (forced words dirty). */
static int naked_singles(Board *x, int b)
{
    Counts c = count_band(x, b);
    if (x->open[b] & ~c.once)
        return 0;
    uint32_t nakeds = x->open[b] & ~c.twice;
    while (nakeds) {
        int i = __builtin_ctz(nakeds);
        nakeds &= nakeds - 1;
        for (int d = 0; d < 9; d++)
            if (x->words[d * 3 + b] >> i & 1) {
                force(x, d, b, i);
                break;
            }
    }
    return 1;
}

/* Stack s's occupancy for a digit, from its three words' columns: bit b * 3 + j when column
 * 3s + j has a cell in band b (the layout of a band's minirows, turned). */
static inline unsigned stack_minis(const uint32_t cols[3], int s)
{
    return (cols[0] >> (3 * s) & 7) | (cols[1] >> (3 * s) & 7) << 3 |
           (cols[2] >> (3 * s) & 7) << 6;
}

/* The stack tables for digit d (its words shrunk): minicolumns that no order of the stack
 * uses are cleared. */
static int stacks(Board *x, int d)
{
    const uint16_t *c = x->cols + d * 3;
    uint32_t cols[3] = {c[0], c[1], c[2]}, keep[3] = {0, 0, 0};
    for (int s = 0; s < 3; s++) {
        unsigned used = keep_minis[stack_minis(cols, s)];
        if (!used)
            return 0;
        for (int b = 0; b < 3; b++)
            keep[b] |= (used >> (3 * b) & 7) << (3 * s);
    }
    for (int b = 0; b < 3; b++)
        restrict_word(x, d * 3 + b, keep[b] * REPEAT_ROWS);
    return 1;
}

/* A minirow (three cells of a row in a box) holds three different digits. Given, for each
 * digit, the minirows it can reach (`reach`, the layout of minirows(): bit row * 3 + box),
 * fewer than three digits reaching a minirow or more than three confined to it (alone in
 * their row) is a contradiction; the three digits that alone reach a minirow must be in it,
 * and three confined to it shut the others out. Returns 0 on a contradiction, else sets
 * keep[d] to the minirows digit d keeps. The same holds for minicolumns in a stack. */
static int capacities(const unsigned reach[9], unsigned keep[9])
{
    unsigned can1 = 0, can2 = 0, can3 = 0, can4 = 0, must1 = 0, must2 = 0, must3 = 0, must4 = 0;
    for (int d = 0; d < 9; d++) {
        unsigned m = reach[d], c = alone_in_row[m];
        can4 |= can3 & m;
        can3 |= can2 & m;
        can2 |= can1 & m;
        can1 |= m;
        must4 |= must3 & c;
        must3 |= must2 & c;
        must2 |= must1 & c;
        must1 |= c;
    }
    if ((~can3 & 0777) || must4)
        return 0;
    unsigned pinned = can3 & ~can4, full = must3;
    for (int d = 0; d < 9; d++) {
        unsigned free_ = reach[d] & ~alone_in_row[reach[d]], k = reach[d] & ~(free_ & full);
        for (unsigned pins = free_ & pinned; pins; pins &= pins - 1)
            k &= ~mates[__builtin_ctz(pins)];
        keep[d] = k;
    }
    return 1;
}

/* capacities() on the minirows of band b (its words shrunk). */
static int band_capacities(Board *x, int b)
{
    unsigned reach[9], keep[9];
    for (int d = 0; d < 9; d++)
        reach[d] = x->minis[d * 3 + b];
    if (!capacities(reach, keep))
        return 0;
    for (int d = 0; d < 9; d++)
        if (keep[d] != reach[d])
            restrict_word(x, d * 3 + b, cells_of[keep[d]]);
    return 1;
}

/* capacities() on the minicolumns of stack s (bit band * 3 + column in the stack; the words
 * shrunk). */
static int stack_capacities(Board *x, int s)
{
    unsigned reach[9], keep[9];
    for (int d = 0; d < 9; d++) {
        const uint16_t *c = x->cols + d * 3;
        uint32_t cols[3] = {c[0], c[1], c[2]};
        reach[d] = stack_minis(cols, s);
    }
    if (!capacities(reach, keep))
        return 0;
    uint32_t others = ROW_BITS & ~(7u << (3 * s));
    for (int d = 0; d < 9; d++)
        if (keep[d] != reach[d])
            for (int b = 0; b < 3; b++)
                restrict_word(x, d * 3 + b,
                              (others | (keep[d] >> (3 * b) & 7) << (3 * s)) * REPEAT_ROWS);
    return 1;
}

/* Unit propagation to a fixpoint; 0 on a contradiction. Naked singles and stacks are looked
 * at again only where a word changed since they last were. */
static int propagate(Board *x)
{
    uint32_t for_nakeds = 0, for_stacks = 0, for_capacities = 0;
    for (;;) {
        while (x->dirty) {
            int w = __builtin_ctz(x->dirty);
            for_nakeds |= x->dirty;
            for_stacks |= x->dirty;
            for_capacities |= x->dirty;
            x->dirty &= x->dirty - 1;
            if (!shrink(x, w))
                return 0;
        }
        for (int b = 0; b < 3; b++)
            if ((for_nakeds & BAND_WORDS << b) && !naked_singles(x, b))
                return 0;
        for_nakeds = 0;
        if (x->dirty)
            continue;
        for (int d = 0; d < 9; d++)
            if ((for_stacks >> (3 * d) & 7) && !stacks(x, d))
                return 0;
        for_stacks = 0;
        if (x->dirty)
            continue;
#ifndef NO_CAPACITIES
        for (int b = 0; b < 3; b++)
            if ((for_capacities & BAND_WORDS << b) && !band_capacities(x, b))
                return 0;
        if (x->dirty)
            continue; /* (for_capacities stays: the stacks' turn comes after the shrinks) */
        for (int st = 0; for_capacities && st < 3; st++)
            if (!stack_capacities(x, st))
                return 0;
#endif
        for_capacities = 0;
        if (!x->dirty)
            return 1;
    }
}

/* -- search -------------------------------------------------------------------------------- */
typedef struct {
    const Limits *limits;
    Result *result;
    Board levels[82]; /* one board per depth: each level places at least one more cell */
} Search;

/* A branching choice: digit `digit` in band (stack when `turned`) `unit`, whose possible box
 * orders are those of `minis` (the occupancy). */
typedef struct {
    int turned, unit, digit;
    unsigned minis;
} Choice;

/* The band or stack with the fewest possible orders over its digits (some digit having two or
 * more), and its digit with the fewest; 0 when every digit is settled everywhere (solved). */
static int choose(const Board *x, Choice *choice)
{
    unsigned bands[3][9], stacks_[3][9];
    int totals[6] = {0, 0, 0, 0, 0, 0};
    for (int d = 0; d < 9; d++) {
        const uint16_t *c = x->cols + d * 3;
        uint32_t cols[3] = {c[0], c[1], c[2]};
        for (int k = 0; k < 3; k++) {
            bands[k][d] = x->minis[d * 3 + k];
            stacks_[k][d] = stack_minis(cols, k);
            totals[k] += order_count[bands[k][d]];
            totals[3 + k] += order_count[stacks_[k][d]];
        }
    }
    int best = 0, fewest = 1000;
    for (int k = 0; k < 6; k++)
        if (totals[k] > 9 && totals[k] < fewest) {
            fewest = totals[k];
            best = k;
        }
    if (fewest == 1000)
        return 0;
    const unsigned *minis = best < 3 ? bands[best] : stacks_[best - 3];
    int digit_fewest = 7;
    for (int d = 0; d < 9 && digit_fewest > 2; d++) {
        int count = order_count[minis[d]];
        if (count > 1 && count < digit_fewest) {
            digit_fewest = count;
            *choice = (Choice){best >= 3, best % 3, d, minis[d]};
        }
    }
    return 1;
}

/* Keep only the box order `order` (minirows) for the choice's digit in its band or stack. */
static void take_order(Board *x, const Choice *c, unsigned order)
{
    if (!c->turned) {
        restrict_word(x, c->digit * 3 + c->unit, minirow_cells(order));
        return;
    }
    uint32_t others = ROW_BITS & ~(7u << (3 * c->unit));
    for (int b = 0; b < 3; b++) {
        uint32_t kept = (order >> (3 * b) & 7) << (3 * c->unit);
        restrict_word(x, c->digit * 3 + b, (others | kept) * REPEAT_ROWS);
    }
}

static void record(Search *s, const Board *x)
{
    Result *r = s->result;
    if (!result_room(r, 81))
        return;
    uint8_t *out = r->solutions + (size_t)r->found * 81;
    for (int d = 0; d < 9; d++)
        for (int b = 0; b < 3; b++)
            for (uint32_t m = x->words[d * 3 + b]; m; m &= m - 1)
                out[b * 27 + __builtin_ctz(m)] = (uint8_t)(d + 1);
    r->found++;
}

static int out_of_budget(Search *s)
{
    Result *r = s->result;
    r->nodes++;
    if (s->limits->max_nodes && r->nodes > s->limits->max_nodes) {
        r->stop = KERNEL_STOP_NODES;
        return 1;
    }
    if (s->limits->end > 0 && !(r->nodes & 255) && kernel_now() >= s->limits->end) {
        r->stop = KERNEL_STOP_TIME;
        return 1;
    }
    return 0;
}

static void search(Search *s, int depth)
{
    Board *x = &s->levels[depth];
    Result *r = s->result;
    for (;;) {
        if (out_of_budget(s) || !propagate(x))
            return;
        Choice c;
        if (!choose(x, &c)) {
            record(s, x);
            return;
        }
        int last = -1;
        for (int o = 0; o < 6; o++) {
            if ((order_minis[o] & c.minis) != order_minis[o])
                continue;
            if (last >= 0) {
                r->guesses++;
                s->levels[depth + 1] = *x;
                take_order(&s->levels[depth + 1], &c, order_minis[last]);
                search(s, depth + 1);
                if (r->found >= s->limits->limit || r->stop)
                    return;
            }
            last = o;
        }
        take_order(x, &c, order_minis[last]); /* the last order: no copy needed */
    }
}

/* The root board of the givens (81 digits, 0 = empty); 0 when two givens clash. */
static int start(Board *x, const uint8_t *givens)
{
    for (int w = 0; w < 27; w++)
        x->words[w] = BAND_CELLS;
    for (int b = 0; b < 3; b++)
        x->open[b] = BAND_CELLS;
    x->dirty = 0;
    for (int cell = 0; cell < 81; cell++) {
        if (!givens[cell])
            continue;
        int d = givens[cell] - 1, b = cell / 27, i = cell % 27;
        if (!(x->words[d * 3 + b] >> i & 1))
            return 0;
        x->words[d * 3 + b] &= ~row_box_peers[i];
        place(x, d, b, 1u << i);
    }
    x->dirty = (1u << 27) - 1;
    return 1;
}

void bands_solve(const uint8_t *givens, const Limits *limits, Result *result)
{
    Search s;
    s.limits = limits;
    s.result = result;
    result->found = 0;
    result->nodes = 0;
    result->guesses = 0;
    result->stop = KERNEL_STOP_NONE;
    result->by_singles = 0;
    if (start(&s.levels[0], givens))
        search(&s, 0);
}

/* -- singles alone (the "singles" grade) ----------------------------------------------------- */

/* Hidden singles of word w (digit w / 3, band w % 3) in rows and boxes, placed at once,
 * without locked candidates: 0 on an empty row or box. */
static int hidden_in_band(Board *x, int w)
{
    for (int k = 0; k < 3; k++) {
        uint32_t m = x->words[w];
        uint32_t row = m >> (9 * k) & ROW_BITS, box = m & (07007007u << (3 * k));
        if (!row || !box)
            return 0;
        uint32_t singles = (row_single[row] ? row << (9 * k) : 0) | (box & (box - 1) ? 0 : box);
        for (singles &= x->open[w % 3]; singles; singles &= singles - 1) {
            /* without the band's orders, the placement itself clears the row and box */
            force(x, w / 3, w % 3, __builtin_ctz(singles));
            place(x, w / 3, w % 3, singles & -singles);
        }
    }
    return 1;
}

/* Hidden singles of digit d in columns (counted over the nine rows). */
static void hidden_in_columns(Board *x, int d)
{
    uint32_t once = 0, twice = 0;
    for (int b = 0; b < 3; b++)
        for (int r = 0; r < 3; r++) {
            uint32_t row = x->words[d * 3 + b] >> (9 * r) & ROW_BITS;
            twice |= once & row;
            once |= row;
        }
    uint32_t alone = (once & ~twice) * REPEAT_ROWS;
    for (int b = 0; b < 3; b++)
        for (uint32_t m = x->words[d * 3 + b] & alone & x->open[b]; m; m &= m - 1)
            force(x, d, b, __builtin_ctz(m));
}

int bands_singles_fill(const uint8_t *givens)
{
    Board x;
    if (!start(&x, givens))
        return 0;
    for (;;) {
        while (x.dirty) {
            int w = __builtin_ctz(x.dirty);
            x.dirty &= x.dirty - 1;
            if (!hidden_in_band(&x, w))
                return 0;
        }
        for (int b = 0; b < 3; b++)
            if (!naked_singles(&x, b))
                return 0;
        for (int d = 0; !x.dirty && d < 9; d++)
            hidden_in_columns(&x, d);
        if (x.dirty)
            continue;
        /* filled: nothing open, and every cell holds exactly one digit */
        for (int b = 0; b < 3; b++) {
            Counts c = count_band(&x, b);
            if (x.open[b] || (c.once & ~c.twice) != BAND_CELLS)
                return 0;
        }
        return 1;
    }
}
